import type { Kysely, Migration } from 'kysely';

/**
 * Migration `2026-11-30-025-file-pages` (docs/decisions/034, "Two servers on one database"): the
 * pages each server reads from its configuration file (`WIZARD_CONFIG`), recorded by that server as
 * it starts (`file_pages`: the page's id, its configuration parsed with defaults, as JSON, and when
 * it was recorded), so the inbox of every server on the database labels any of them.
 * Frozen: it imports nothing but Kysely.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('file_pages')
      .addColumn('page_id', 'text', (c) => c.primaryKey())
      .addColumn('config', 'text', (c) => c.notNull())
      .addColumn('recorded_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('file_pages').execute();
  },
};
