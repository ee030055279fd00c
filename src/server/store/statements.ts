import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema';

/**
 * Rows per statement when a change writes or reads many at once: 1 000 rows of up to 32 values
 * stay under SQLite's 32 766 and PostgreSQL's 65 535 bound parameters.
 */
export const ROWS_PER_STATEMENT = 1000;

/** `rows` in slices of at most {@link ROWS_PER_STATEMENT}, each for one statement (none for no rows). */
export function* perStatement<T>(rows: readonly T[]): Generator<T[]> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) yield rows.slice(start, start + ROWS_PER_STATEMENT);
}

/**
 * Runs `run` in a transaction whose commit does not wait for the disk: on SQLite (WAL)
 * `synchronous = NORMAL` for it, on PostgreSQL `synchronous_commit = off`. Such a commit survives
 * the process dying, not the machine losing power before a later commit's flush (which writes it
 * too). Only for work that is done again when it is lost, as the outbox's dispatch is: its events
 * stay in the outbox until a committed dispatch removes them, and they keep their ids.
 * @throws the driver's error (the transaction rolls back).
 */
export async function unflushedTransaction<T>(db: Kysely<Database>, postgres: boolean, run: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (postgres)
    return db.transaction().execute(async (trx) => {
      await sql`set local synchronous_commit = off`.execute(trx);
      return run(trx);
    });
  // The pragma holds for the connection, not a transaction: the connection is held meanwhile, so
  // no other transaction commits with it.
  return db.connection().execute(async (connection) => {
    await sql`pragma synchronous = NORMAL`.execute(connection);
    try {
      return await connection.transaction().execute(run);
    } finally {
      await sql`pragma synchronous = FULL`.execute(connection);
    }
  });
}
