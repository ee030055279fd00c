import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-30-021-children-and-consents`:
 * - `guardian_requests`: a minor's application held until a parent or
 * guardian answers (docs/privacy.md, "A minor's parent or guardian"): `guardian_requests`, one row
 * each, never read by the inbox. `id` becomes the application's id once consent is given;
 * `idempotency_key` the submit's (or one of its own), unique per page, so a replay answers as the
 * first submit did and a consent given twice stores one application; `email` the applicant's
 * address and `guardian_email` the guardian's, both lower case (found by a data-subject request),
 * `guardian_mailbox` the guardian's mailbox (`mailboxKey`: the cap of requests a mailbox is e-mailed);
 * `payload` the application as checked; `received_at` and `expires_at` ISO-8601 UTC (7 days
 * later: then the sweep erases it, as a refusal does); `consents` its consent records as they were
 * given (JSON, as `applications.consents`); `released_at` set as a consent starts storing it (a
 *   refusal or the sweep then leaves it alone, and a consent cut short resumes).
 * - `applications.consents`: the consent records made as the application was stored (requirements
 *   §21; JSON, an array of `{purpose, given, text, sha256, pageVersion, lang, privacyVersion, at}`),
 *   null on a page without consents and for rows stored before the column. Never updated.
 * - `consent_withdrawals`: one row per consent withdrawn (append-only): the application, the
 *   purpose, when (ISO-8601 UTC). Erased with its application.
 * Frozen: it imports nothing but Kysely.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create table guardian_requests (
      id text primary key,
      page_id text not null,
      page_version integer,
      idempotency_key text not null,
      email text not null,
      guardian_email text not null,
      guardian_mailbox text not null,
      payload text not null,
      user_agent text,
      received_at text not null,
      expires_at text not null,
      consents text,
      released_at text
    )`.execute(db);
    await sql`create unique index guardian_requests_key on guardian_requests (page_id, idempotency_key)`.execute(db);
    await sql`create index guardian_requests_expiry on guardian_requests (expires_at)`.execute(db);
    await sql`create index guardian_requests_email on guardian_requests (email)`.execute(db);
    await sql`create index guardian_requests_guardian on guardian_requests (guardian_email)`.execute(db);
    await sql`create index guardian_requests_mailbox on guardian_requests (guardian_mailbox, received_at)`.execute(db);
    await sql`alter table applications add column consents text`.execute(db);
    await sql`create table consent_withdrawals (
      id text primary key,
      application_id text not null,
      purpose text not null,
      at text not null
    )`.execute(db);
    await sql`create index consent_withdrawals_application on consent_withdrawals (application_id)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table consent_withdrawals`.execute(db);
    await sql`alter table applications drop column consents`.execute(db);
    await sql`drop table guardian_requests`.execute(db);
  },
};
