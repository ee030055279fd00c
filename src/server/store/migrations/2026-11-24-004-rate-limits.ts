import { sql, PostgresAdapter, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-24-004-rate-limits`: Request counts per route and client IP in fixed windows,
 * shared by the server processes on one PostgreSQL (decision 006). PostgreSQL only: on
 * SQLite one process counts in memory. UNLOGGED: no WAL for a row updated on every submission; a
 * crash empties it (every limit starts again), and it is not copied to replicas — both fine for
 * counts that live a minute.
 * Frozen: it imports nothing but Kysely, so it runs tomorrow as it ran when it shipped.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`create unlogged table rate_limits (
      key text primary key,
      count integer not null,
      reset_at timestamptz not null
    )`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table if exists rate_limits`.execute(db);
  },
};
