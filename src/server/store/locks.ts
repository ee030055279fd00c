import { PostgresAdapter, type Transaction } from 'kysely';
import type { Database } from './schema';

/** The tables whose rows a change locks before it reads them, and the column a no-op update sets to itself on SQLite. */
const LOCKED = { applications: 'status', tags: 'name' } as const;

/**
 * Locks rows of `table` for the rest of `trx`, before the change reads them: on PostgreSQL their
 * row locks, taken in the order of their ids (`select … order by id for update`), so two changes
 * of the same rows never wait on each other in a cycle; on SQLite the database's write lock, taken
 * by a no-op update as the transaction's first statement, so a write that comes after a read never
 * meets a snapshot another connection changed meanwhile (`SQLITE_BUSY_SNAPSHOT`: SQLite's busy
 * timeout waits for a lock, not for that). A change that read first and decided on what it read
 * could act on a status another change had just replaced (issue 16: the tallies moved twice), or
 * write for an application an erasure was deleting. Every change takes applications before tags,
 * and the tallies (tallies.ts) after both.
 * @returns the ids of `ids` that exist.
 */
export async function lockRows(trx: Transaction<Database>, table: keyof typeof LOCKED, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const wanted = [...new Set(ids)];
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    const rows = await trx.selectFrom(table).select('id').where('id', 'in', wanted).orderBy('id').forUpdate().execute();
    return new Set(rows.map((row) => row.id));
  }
  const column = LOCKED[table];
  await trx
    .updateTable(table)
    .set((eb) => ({ [column]: eb.ref(column) }))
    .where('id', 'in', wanted)
    .execute();
  return new Set((await trx.selectFrom(table).select('id').where('id', 'in', wanted).execute()).map((row) => row.id));
}
