import { type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-27-012-pages`: campaign pages kept in the database (the contract in
 * docs/decisions/021). `pages`: one row a page, its draft configuration (JSON text), the draft's
 * revision, its status, the version served and its dates and cap; `page_versions`: the immutable
 * published configurations, version 1, 2, … per page; `page_hosts`: the host names a page is
 * served at, each of one page. And `applications.page_version`: the version an application
 * answered (null for the default page of `config/wizard.json`, and for rows stored before).
 * Frozen: it imports nothing but Kysely, so it runs tomorrow as it ran when it shipped.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('pages')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // draft | published | closed
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('draft', 'text', (c) => c.notNull())
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addColumn('updated_by', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('published_version', 'integer')
      .addColumn('opens_at', 'text')
      .addColumn('closes_at', 'text')
      .addColumn('max_applications', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('page_versions')
      .addColumn('page_id', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('config', 'text', (c) => c.notNull())
      .addColumn('published_at', 'text', (c) => c.notNull())
      .addColumn('published_by', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('page_versions_pk', ['page_id', 'version'])
      .execute();
    await db.schema
      .createTable('page_hosts')
      .addColumn('host', 'text', (c) => c.primaryKey())
      .addColumn('page_id', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('page_hosts_page_id').on('page_hosts').column('page_id').execute();
    await db.schema.alterTable('applications').addColumn('page_version', 'integer').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('applications').dropColumn('page_version').execute();
    await db.schema.dropTable('page_hosts').execute();
    await db.schema.dropTable('page_versions').execute();
    await db.schema.dropTable('pages').execute();
  },
};
