import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-29-020-secrets-and-mailboxes`:
 * - `webhook_endpoints.previous_secrets`, a JSON array of `{secret, until}` (`until` in ms since
 *   the epoch): every secret rotated out in the last 24 hours, each signing beside the current one
 *   until its own `until` (docs/integrations.md). Two rotations within a day keep both earlier
 *   secrets signing; `previous_secret` and `previous_secret_until` (migration 018) held one only and
 *   are read for a rotation made before.
 * - `email_messages.recipient_key`: the recipient's mailbox (lower case, without a `+tag`, a Gmail
 *   address without its dots), so the cap of confirmations per address counts `ada+1@…` and
 *   `A.da@gmail.com` as the mailbox they reach (docs/email.md); indexed with `created_at` for
 *   confirmations, which replaces migration 019's index on `lower(recipient)`. Messages made before
 *   are keyed by their address in lower case.
 * - `applications_declined`: a page's declined applications by arrival, partial (`status =
 *   'declined'`): what the hourly retention sweep looks through for those past their time
 *   (docs/privacy.md), without reading every application of the page. A submission writes
 *   nothing to it (an application arrives `new`).
 * Frozen: it imports nothing but Kysely.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table webhook_endpoints add column previous_secrets text not null default '[]'`.execute(db);
    await sql`alter table email_messages add column recipient_key text`.execute(db);
    await sql`update email_messages set recipient_key = lower(recipient) where recipient <> ''`.execute(db);
    await sql`drop index email_messages_recipient`.execute(db);
    await sql`create index email_messages_mailbox on email_messages (recipient_key, created_at) where kind = 'confirmation'`.execute(db);
    await sql`create index applications_declined on applications (page_id, received_at) where status = 'declined'`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index applications_declined`.execute(db);
    await sql`drop index email_messages_mailbox`.execute(db);
    await sql`create index email_messages_recipient on email_messages (lower(recipient), created_at)`.execute(db);
    await sql`alter table email_messages drop column recipient_key`.execute(db);
    await sql`alter table webhook_endpoints drop column previous_secrets`.execute(db);
  },
};
