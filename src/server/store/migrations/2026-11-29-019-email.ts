import { sql, PostgresAdapter, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-29-019-email`: the messages the product sends (docs/email.md, docs/decisions/026).
 * - `email_messages`: one message, made by the outbox's dispatch (a confirmation, a team
 *   notification, a decision's e-mail), the daily digest or an endpoint's disabling; `dedupe_key`
 *   unique (`confirmation:{event id}`, …), so a dispatch run twice makes one. `data` (JSON) says
 *   what to make it from; `recipient`, `subject` and `content` (JSON: what the message says, made
 *   into HTML and text when it is sent or shown) are filled when it is made (a confirmation or a notification as it is planned, others at their first attempt). `next_attempt_at` (ms since the epoch) is when it is due (a decision's:
 *   5 minutes after it); `lease_until` (ms) holds it for the process sending it. `state`
 *   `pending`, `sent`, `logged`, `failed` or `cancelled`.
 * - `notification_settings`: a team member's mode for a page (`immediate`, `digest`, `off`); a
 *   page without a row is the default, the digest.
 * - `webhook_deliveries_waiting`: an endpoint's pending deliveries, found at once when it answers
 *   again after failing (they are brought forward then).
 * Frozen: it imports nothing but Kysely.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    const big = db.getExecutor().adapter instanceof PostgresAdapter ? 'bigint' : 'integer';
    await sql
      .raw(
        `create table email_messages (
          id text primary key,
          dedupe_key text not null,
          kind text not null,
          page_id text,
          application_id text,
          user_id text,
          data text not null,
          recipient text not null,
          subject text not null,
          content text not null,
          headers text not null,
          state text not null,
          attempts integer not null,
          next_attempt_at ${big} not null,
          lease_until ${big},
          last_error text,
          created_at text not null,
          sent_at text
        )`,
      )
      .execute(db);
    await sql`create unique index email_messages_dedupe on email_messages (dedupe_key)`.execute(db);
    await sql`create index email_messages_due on email_messages (next_attempt_at) where state = 'pending'`.execute(db);
    await sql`create index email_messages_log on email_messages (created_at)`.execute(db);
    await sql`create index email_messages_application on email_messages (application_id)`.execute(db);
    await sql`create index email_messages_recipient on email_messages (lower(recipient), created_at)`.execute(db);
    await sql`create index webhook_deliveries_waiting on webhook_deliveries (endpoint_id) where state = 'pending'`.execute(db);
    await sql`create table notification_settings (user_id text not null, page_id text not null, mode text not null, primary key (user_id, page_id))`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index webhook_deliveries_waiting`.execute(db);
    for (const table of ['notification_settings', 'email_messages']) await sql.raw(`drop table ${table}`).execute(db);
  },
};
