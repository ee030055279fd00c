import { type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-24-006-phone-e164`: The phone in E.164 beside the payload's calling code and
 * subscriber digits. Rows stored before keep '' (no rewrite of a million rows while the
 * server starts); the inbox and the CSV work the form out from their payload, with the same
 * function.
 * Frozen: it imports nothing but Kysely, so it runs tomorrow as it ran when it shipped.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('applications')
      .addColumn('phone_e164', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('applications').dropColumn('phone_e164').execute();
  },
};
