import { PostgresAdapter, type Transaction } from 'kysely';
import type { Database } from './schema';

/**
 * Locks rows of `table` for the rest of `trx`, before the change reads them: on PostgreSQL their
 * row locks, taken in the order of their ids (`select … order by id for update`), so two changes
 * of the same rows never wait on each other in a cycle. On SQLite the transaction holds the
 * database's write lock from its first statement already (the store's transactions begin
 * `immediate`: connection.ts), so this only reads which exist. A change that read first and
 * decided on what it read could act on a status another change had just replaced (issue 16: the
 * tallies moved twice), or write for an application an erasure was deleting. Every change takes
 * applications before tags, and the tallies (tallies.ts) after both.
 * @returns the ids of `ids` that exist.
 */
export async function lockRows(trx: Transaction<Database>, table: 'applications' | 'tags', ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const existing = trx.selectFrom(table).select('id').where('id', 'in', [...new Set(ids)]);
  const rows = await (trx.getExecutor().adapter instanceof PostgresAdapter ? existing.orderBy('id').forUpdate() : existing).execute();
  return new Set(rows.map((row) => row.id));
}
