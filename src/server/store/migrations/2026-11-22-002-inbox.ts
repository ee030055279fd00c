import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The platforms, and where a payload held each, when this migration shipped (requirements §3): the
 * `platforms` group, or `fields.single.{platform}` for the single-field ones. Frozen copies: the
 * live lists may grow, this backfill must not change.
 */
const PLATFORMS = ['instagram', 'facebook', 'youtube', 'twitter', 'tiktok', 'twitch', 'website', 'pinterest', 'linkedin', 'snapchat', 'threads', 'reddit'];
const SINGLE_FIELD_PLATFORMS = ['linkedin', 'threads', 'reddit'];

/** The inbox's columns of a payload stored before this migration, derived as the server did when it shipped. */
function backfillColumns(payload: unknown) {
  const record = (value: unknown) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});
  const string = (value: unknown) => (typeof value === 'string' ? value : '');
  const info = record(record(payload).personalInfo);
  const groups = record(record(payload).platforms);
  const fields = record(record(payload).fields);
  const platforms = PLATFORMS.flatMap((platform) => {
    const identity = platform === 'website' ? 'url' : 'handle';
    const handle = SINGLE_FIELD_PLATFORMS.includes(platform) ? fields[`single.${platform}.${identity}`] : record(groups[platform])[identity];
    return typeof handle === 'string' && handle !== '' ? [{ platform, handle }] : [];
  });
  const normalized = (platform: string, handle: string) => {
    const lower = handle.trim().toLowerCase();
    if (platform === 'website')
      return lower
        .replace(/^https?:\/\//, '')
        .replace(/^www\./, '')
        .replace(/\/+$/, '');
    return lower.replace(/^@/, '');
  };
  const firstName = string(info.firstName);
  const lastName = string(info.lastName);
  return {
    first_name: firstName,
    last_name: lastName,
    country_code: string(info.countryCode),
    search_text: [`${firstName} ${lastName}`, string(info.emailAddress), ...platforms.map((p) => p.handle)].join(' ').toLowerCase(),
    platform_names: platforms.length > 0 ? `,${platforms.map((p) => p.platform).join(',')},` : '',
    handles: platforms.map(({ platform, handle }) => ({ platform, handle: normalized(platform, handle) })),
  };
}

/**
 * Migration `2026-11-22-002-inbox`: The brand's inbox: review columns, handles for
 * duplicates, users, sessions, audit, funnel.
 * Frozen: it imports nothing but Kysely, so it runs tomorrow as it ran when it shipped.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    const text = (column: string) => db.schema.alterTable('applications').addColumn(column, 'text', (c) => c.notNull().defaultTo(''));
    await db.schema
      .alterTable('applications')
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('new'))
      .execute();
    for (const column of ['note', 'first_name', 'last_name', 'country_code', 'search_text', 'platform_names']) await text(column).execute();
    // Keyset pagination newest first (fast at 100 000 rows). Filters scan this index in
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
      const columns = backfillColumns(JSON.parse(row.payload) as unknown);
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
};
