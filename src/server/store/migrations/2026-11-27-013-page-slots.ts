import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-27-013-page-slots`: `pages.taken`, the applications a page has taken (the
 * fifth outside attack; docs/decisions/021). A submit to a page with a cap takes a slot in
 * the application's own transaction (`update pages set taken = taken + 1 where … taken <
 * max_applications`), so the cap holds exactly, in one process and across processes. Backfilled
 * with the applications stored per page. Frozen: it imports nothing but Kysely.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('pages')
      .addColumn('taken', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update pages set taken = (select count(*) from applications where applications.page_id = pages.id)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('pages').dropColumn('taken').execute();
  },
};
