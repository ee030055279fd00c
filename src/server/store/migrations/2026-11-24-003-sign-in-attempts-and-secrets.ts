import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-24-003-sign-in-attempts-and-secrets`: sign-in attempts are counted
 * before their password is checked, each under an id so that a blocked or successful one can be
 * taken back; the generated anti-forgery secret.
 * Frozen: it imports nothing but Kysely, so it runs tomorrow as it ran when it shipped.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('sign_in_failures').addColumn('attempt_id', 'text').execute();
    await db.schema.createIndex('sign_in_failures_attempt_id').on('sign_in_failures').column('attempt_id').execute();
    await db.schema
      .createTable('server_secrets')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table server_secrets`.execute(db);
    await sql`drop index sign_in_failures_attempt_id`.execute(db);
    await db.schema.alterTable('sign_in_failures').dropColumn('attempt_id').execute();
  },
};
