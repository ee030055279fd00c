import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-22-001-create-applications`.
 * Frozen: it imports nothing but Kysely, so it runs tomorrow as it ran when it shipped.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('applications')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('page_id', 'text', (column) => column.notNull())
      .addColumn('idempotency_key', 'text')
      .addColumn('email', 'text', (column) => column.notNull())
      .addColumn('payload', 'text', (column) => column.notNull())
      .addColumn('received_at', 'text', (column) => column.notNull())
      .addColumn('user_agent', 'text')
      .execute();
    // One row per (page, key): a retried submit never stores twice (requirements §13).
    await db.schema.createIndex('applications_page_id_idempotency_key').on('applications').columns(['page_id', 'idempotency_key']).unique().execute();
    await db.schema.createIndex('applications_received_at').on('applications').column('received_at').execute();
    await db.schema.createIndex('applications_email').on('applications').column('email').execute();
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table applications`.execute(db);
  },
};
