import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

/**
 * The store's schema, as Kysely migrations kept in code (so they ship with the
 * server whatever bundles it). Append only: never edit a migration that has run.
 */
const migrations: Record<string, Migration> = {
  '2026-11-22-001-create-applications': {
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
      // One row per (page, key): a retried submit never stores twice (DESIGN §4).
      await db.schema
        .createIndex('applications_page_id_idempotency_key')
        .on('applications')
        .columns(['page_id', 'idempotency_key'])
        .unique()
        .execute();
      await db.schema.createIndex('applications_received_at').on('applications').column('received_at').execute();
      await db.schema.createIndex('applications_email').on('applications').column('email').execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table applications`.execute(db);
    },
  },
};

/** Provides the in-code migrations to Kysely's Migrator. */
export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
