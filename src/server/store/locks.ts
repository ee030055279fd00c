import { createHash } from 'node:crypto';
import { PostgresAdapter, sql, type Transaction } from 'kysely';
import type { Database } from './schema';

/**
 * Locks rows of `table` for the rest of `trx`, before the change reads them: on PostgreSQL their
 * row locks, taken in the order of their ids (`select … order by id for update`), so two changes
 * of the same rows never wait on each other in a cycle. On SQLite the transaction holds the
 * database's write lock from its first statement already (the store's transactions begin
 * `immediate`: connection.ts), so this only reads which exist. A change that read first and
 * decided on what it read could act on a status another change had just replaced (the
 * tallies moved twice), or write for an application an erasure was deleting. Every change takes
 * applications before tags, and the tallies (tallies.ts) after both. A page's changes take its
 * row (pages.ts: two publishes make consecutive versions).
 * @returns the ids of `ids` that exist.
 */
export async function lockRows(trx: Transaction<Database>, table: 'applications' | 'tags' | 'pages', ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const existing = trx
    .selectFrom(table)
    .select('id')
    .where('id', 'in', [...new Set(ids)]);
  const rows = await (trx.getExecutor().adapter instanceof PostgresAdapter ? existing.orderBy('id').forUpdate() : existing).execute();
  return new Set(rows.map((row) => row.id));
}

/**
 * Serialises, for the rest of `trx`, every transaction that takes the lock of the same `scope`:
 * what a limit counts and then inserts ("at most 50 saved views per user", "at most 200 tags")
 * has no row to lock, and at READ COMMITTED two PostgreSQL transactions would both count 49 and
 * both insert (an outside attack left a user 52 views and the team 206 tags). On PostgreSQL a
 * transaction-scoped advisory lock (`pg_advisory_xact_lock`) keyed by the first 64 bits of the
 * scope's SHA-256, released at commit or rollback; two scopes sharing a key only wait on each
 * other. On SQLite nothing: the transaction holds the database's write lock from its first
 * statement (`begin immediate`, connection.ts), which serialises these already. Take it before
 * the first read the decision rests on.
 * @param scope - what is counted, e.g. `saved-views:<user id>` or `tags`.
 */
export async function lockScope(trx: Transaction<Database>, scope: string): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  const key = createHash('sha256').update(scope).digest().readBigInt64BE(0);
  await sql`select pg_advisory_xact_lock(${key.toString()}::bigint)`.execute(trx);
}
