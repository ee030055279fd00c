import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-30-023-the-team` (docs/inbox.md, "The team"; docs/decisions/030):
 * - the `owner` role: where no account has it, the earliest editor (or, without one, the earliest
 *   account) becomes the owner, so there is always one;
 * - second factors on `admin_users`: the authenticator app's secret (`totp_secret`, Base32; one
 *   being enrolled in `totp_pending`), the last time step a code was taken at (`totp_last_step`:
 *   a code is never taken twice) and the recovery codes' SHA-256 hashes (`recovery_codes`, JSON);
 * - what a session's owner sees of it (`user_agent`, `address`, `last_used_at`), where it stands
 *   (`stage`: `full`, `second-factor`, `enrol`) and a passkey sign-in's challenge (`challenge`);
 * - `team_invitations` (the link signs `link_id`, renewed by a resend), `password_resets` (the link
 *   signs `id`), `passkeys` (WebAuthn credentials), `team_settings` (name, value) and
 *   `team_events`, the team's audit log.
 * Frozen: it imports nothing but Kysely.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`update admin_users set role = 'owner'
      where id = (select id from admin_users order by case when role = 'editor' then 0 else 1 end, created_at, id limit 1)
        and not exists (select 1 from admin_users where role = 'owner')`.execute(db);
    for (const column of ['totp_secret', 'totp_pending', 'recovery_codes']) await db.schema.alterTable('admin_users').addColumn(column, 'text').execute();
    await db.schema.alterTable('admin_users').addColumn('totp_last_step', 'bigint').execute();
    for (const column of ['user_agent', 'address', 'last_used_at', 'challenge'])
      await db.schema.alterTable('admin_sessions').addColumn(column, 'text').execute();
    await db.schema
      .alterTable('admin_sessions')
      .addColumn('stage', 'text', (c) => c.notNull().defaultTo('full'))
      .execute();
    await db.schema
      .createTable('team_invitations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('link_id', 'text', (c) => c.notNull().unique())
      .addColumn('invited_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
      .execute();
    await sql`create unique index team_invitations_pending on team_invitations (email) where state = 'pending'`.execute(db);
    await db.schema
      .createTable('password_resets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('password_resets_user').on('password_resets').columns(['user_id', 'created_at']).execute();
    await db.schema
      .createTable('passkeys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('counter', 'bigint', (c) => c.notNull())
      .addColumn('transports', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .execute();
    await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
    await db.schema
      .createTable('team_settings')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('team_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('subject', 'text')
      .addColumn('detail', 'text')
      .addColumn('address', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('team_events_actor').on('team_events').columns(['actor', 'id']).execute();
    await db.schema.createIndex('team_events_subject').on('team_events').columns(['subject', 'id']).execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['team_events', 'team_settings', 'passkeys', 'password_resets', 'team_invitations']) await db.schema.dropTable(table).execute();
    for (const column of ['stage', 'challenge', 'last_used_at', 'address', 'user_agent'])
      await db.schema.alterTable('admin_sessions').dropColumn(column).execute();
    for (const column of ['totp_last_step', 'recovery_codes', 'totp_pending', 'totp_secret'])
      await db.schema.alterTable('admin_users').dropColumn(column).execute();
    await sql`update admin_users set role = 'editor' where role = 'owner'`.execute(db);
  },
};
