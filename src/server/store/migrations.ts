import { DEFAULT_MIGRATION_TABLE, PostgresAdapter, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { indexedColumns } from './indexed-columns';

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
  // The brand's inbox (issue 7): review columns, handles for duplicates, users, sessions, audit, funnel.
  '2026-11-22-002-inbox': {
    async up(db: Kysely<unknown>) {
      const text = (column: string) => db.schema.alterTable('applications').addColumn(column, 'text', (c) => c.notNull().defaultTo(''));
      await db.schema.alterTable('applications').addColumn('status', 'text', (c) => c.notNull().defaultTo('new')).execute();
      for (const column of ['note', 'first_name', 'last_name', 'country_code', 'search_text', 'platform_names']) await text(column).execute();
      // Keyset pagination newest first (issue 7: fast at 100 000 rows). Filters scan this index in
      // order and stop at a page's worth; every index more is a cost on each stored application.
      await db.schema.dropIndex('applications_received_at').execute();
      await db.schema.createIndex('applications_received_at_id').on('applications').columns(['received_at', 'id']).execute();

      // One row per platform handle, for duplicates (same handle on the same page) and platform filters.
      await db.schema
        .createTable('application_handles')
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('page_id', 'text', (c) => c.notNull())
        .addColumn('platform', 'text', (c) => c.notNull())
        .addColumn('handle', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('application_handles_handle').on('application_handles').column('handle').execute();

      // Rows stored before this migration get their columns from their payload.
      const rows = await sql<{ id: string; page_id: string; payload: string }>`select id, page_id, payload from applications`.execute(db);
      for (const row of rows.rows) {
        const columns = indexedColumns(JSON.parse(row.payload) as unknown);
        await sql`update applications set first_name = ${columns.first_name}, last_name = ${columns.last_name},
          country_code = ${columns.country_code}, search_text = ${columns.search_text}, platform_names = ${columns.platform_names}
          where id = ${row.id}`.execute(db);
        for (const handle of columns.handles) {
          await sql`insert into application_handles (application_id, page_id, platform, handle)
            values (${row.id}, ${row.page_id}, ${handle.platform}, ${handle.handle})`.execute(db);
        }
      }

      await db.schema
        .createTable('admin_users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull().defaultTo('editor'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // Sessions are server-side: the cookie holds a random token, the table its SHA-256.
      await db.schema
        .createTable('admin_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('admin_sessions_user_id').on('admin_sessions').column('user_id').execute();
      // Failed sign-ins per account and per address, shared by every server process.
      await db.schema
        .createTable('sign_in_failures')
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sign_in_failures_key_at').on('sign_in_failures').columns(['key', 'at']).execute();
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('from_value', 'text')
        .addColumn('to_value', 'text')
        .execute();
      await db.schema.createIndex('audit_log_application_id_at').on('audit_log').columns(['application_id', 'at']).execute();
      // Anonymous funnel counts per page, UTC day, event and step (step -1 for events without one).
      await db.schema
        .createTable('funnel_counts')
        .addColumn('page_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('step', 'integer', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('funnel_counts_pk', ['page_id', 'day', 'event', 'step'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['funnel_counts', 'audit_log', 'sign_in_failures', 'admin_sessions', 'admin_users', 'application_handles']) {
        await sql`drop table ${sql.table(table)}`.execute(db);
      }
    },
  },
  // Issue 11: sign-in attempts are counted before their password is checked, each under an id so
  // that a blocked or successful one can be taken back; the generated anti-forgery secret.
  '2026-11-24-003-sign-in-attempts-and-secrets': {
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
  },
  // Request counts per route and client IP in fixed windows, shared by the server processes on one
  // PostgreSQL (issue 11, decision 006). PostgreSQL only: on SQLite one process counts in memory.
  // UNLOGGED: no WAL for a row updated on every submission; a crash empties it (every limit starts
  // again), and it is not copied to replicas — both fine for counts that live a minute.
  '2026-11-24-004-rate-limits': {
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
  },
  // The once-a-minute sweep of ended windows finds them through an index (issue 12: no query of the
  // submit path reads a whole table; under a flood of client addresses the table is large). A count
  // moves `reset_at` once a window, so most counts stay heap-only updates.
  '2026-11-24-005-rate-limits-reset-at': {
    async up(db: Kysely<unknown>) {
      if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
      await sql`create index rate_limits_reset_at on rate_limits (reset_at)`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`drop index if exists rate_limits_reset_at`.execute(db);
    },
  },
  // The phone in E.164 beside the payload's calling code and subscriber digits (issue 13). Rows
  // stored before keep '' (no rewrite of a million rows while the server starts); the inbox and the
  // CSV work the form out from their payload, with the same function.
  '2026-11-24-006-phone-e164': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('applications').addColumn('phone_e164', 'text', (c) => c.notNull().defaultTo('')).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('applications').dropColumn('phone_e164').execute();
    },
  },
};

/** Provides the in-code migrations to Kysely's Migrator. */
export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};

/**
 * True unless every migration above is recorded as run in Kysely's migration table. One query, so
 * that a start on an up-to-date database skips the Migrator's checks of its own tables and its
 * lock (issue 12: on PostgreSQL also a connection of its own). A missing table or any other error
 * counts as pending: the Migrator then runs, and reports what is wrong.
 */
export async function migrationsPending<DB>(db: Kysely<DB>): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(db);
    const done = new Set(rows.map((row) => row.name));
    return Object.keys(migrations).some((name) => !done.has(name));
  } catch {
    return true;
  }
}
