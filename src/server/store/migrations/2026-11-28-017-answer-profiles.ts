import { sql, PostgresAdapter, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-28-017-answer-profiles`: the summary under a filter no tally serves (a
 * country, a platform, a search, a period) reads one profile per matched application instead of
 * each of its answer rows (the inbox at 100 000 applications; docs/decisions/020, "The
 * summary from one profile per application"). A partial index of the rows that carry an answer
 * profile (`answer_profile is not null`: the whole answer of each question not counted per value,
 * migration 016), by application and holding the profile: one seek per application, the table
 * never read. Written by the answer index's follow-up with the rows themselves, never by a submit.
 * Frozen: it imports nothing but Kysely, so it runs tomorrow as it ran when it shipped.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // The literal predicate: a query names `answer_profile is not null` as it is written here, so both stores match it.
    await sql`create index application_answers_profile on application_answers (application_id, answer_profile) where answer_profile is not null`.execute(db);
    if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`analyze application_answers`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index if exists application_answers_profile`.execute(db);
  },
};
