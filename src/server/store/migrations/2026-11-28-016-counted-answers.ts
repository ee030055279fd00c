import { sql, PostgresAdapter, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-28-016-counted-answers`: free-text answers no longer add a tally row per
 * applicant, and the summary under a `contains` filter reads one index (the inbox at
 * 100 000 applications; docs/decisions/020, "Free-text tallies and the summary under a contains
 * filter").
 * - `tallied_questions` (page, key): the questions a page offers as choices, written by the server
 *   from each page configuration it serves. The answer index's follow-up counts an answer per value
 *   (`answer` tallies) only when its question is listed for its page.
 * - `application_answers.tallied`: 1 when the row is counted in the `answer` tallies, 0 when not
 *   (its question then counted once per application as `uncounted`). Rows stored before were all
 *   counted: 1. Decisions and erasures move what each row says was counted, and readers that need
 *   the count of an answer no tally holds count these rows.
 * - `application_answers.answer_profile`: on the whole answer of a question not counted per value,
 *   what its application adds to a summary (platforms, questions answered, counted answers), so
 *   that the summary under a `contains` text groups the rows that text matches.
 * - a partial index of the rows not counted per value (`tallied = 0`), by key, page, profile,
 *   status and value: the summary under `contains` reads it alone, in the profiles' order (grouped
 *   as they come, no sort), and the summary of a choice question some of whose answers were not
 *   counted per value finds those rows in it.
 * Frozen: it imports nothing but Kysely, so it runs tomorrow as it ran when it shipped.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('tallied_questions')
      .addColumn('page_id', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('tallied_questions_pk', ['page_id', 'key'])
      .execute();
    await db.schema
      .alterTable('application_answers')
      .addColumn('tallied', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.alterTable('application_answers').addColumn('answer_profile', 'text').execute();
    // The literal predicate: a query names `tallied = 0` as it is written here, so both stores match it.
    await sql`create index application_answers_untallied on application_answers (key, page_id, answer_profile, status, value) where tallied = 0`.execute(db);
    if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`analyze application_answers`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index if exists application_answers_untallied`.execute(db);
    await db.schema.alterTable('application_answers').dropColumn('answer_profile').execute();
    await db.schema.alterTable('application_answers').dropColumn('tallied').execute();
    await db.schema.dropTable('tallied_questions').execute();
  },
};
