import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-29-020-previous-secrets`: `webhook_endpoints.previous_secrets`, a JSON array of
 * `{secret, until}` (`until` in ms since the epoch): every secret rotated out in the last 24 hours,
 * each signing beside the current one until its own `until` (docs/integrations.md, "Rotating the
 * secret"). Two rotations within a day keep both earlier secrets signing; `previous_secret` and
 * `previous_secret_until` (migration 018) held one only and are read for a rotation made before.
 * Frozen: it imports nothing but Kysely.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table webhook_endpoints add column previous_secrets text not null default '[]'`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`alter table webhook_endpoints drop column previous_secrets`.execute(db);
  },
};
