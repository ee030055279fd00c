import { sql, PostgresAdapter, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-24-005-rate-limits-reset-at`: The once-a-minute sweep of ended windows finds
 * them through an index (no query of the submit path reads a whole table; under a flood
 * of client addresses the table is large). A count moves `reset_at` once a window, so most counts
 * stay heap-only updates.
 * Frozen: it imports nothing but Kysely, so it runs tomorrow as it ran when it shipped.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`create index rate_limits_reset_at on rate_limits (reset_at)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index if exists rate_limits_reset_at`.execute(db);
  },
};
