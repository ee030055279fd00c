import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import { splitAnswerTerm, type ApplicationFilter } from '../../shared/admin';
import type { AnswerRow, Database } from './schema';
import { perStatement } from './statements';

/**
 * What a tally counts (migration 009), per page and status:
 * - `application`: applications (`key` and `value` empty) — the status tabs' counts;
 * - `platform`: applications naming the platform `key` — the summary's platforms;
 * - `answered`: applications with an answer to the question `key` — the summary's "answered";
 * - `answer`: answer rows of `key` with the text `value` (each option of a multi-select answer too)
 *   that are counted per value (`application_answers.tallied`: the page offered `key` as choices
 *   when the row was written, migration 016) — the summary's bars, the counts of one answer;
 * - `uncounted`: applications with an answer to `key` whose rows are not counted per value (free
 *   text): a reader that would read an `answer` tally of such a key counts its rows instead
 *   (`tallied = 0`, a partial index), so every count stays exact while free text, one new value
 *   per applicant, adds no row here.
 */
export type TallyKind = 'application' | 'platform' | 'answered' | 'answer' | 'uncounted';

/**
 * An answer row as the tallies see it: its question, its text, and whether the `answer` tallies
 * count it (`application_answers.tallied`, 1 or 0 as the stores read it).
 */
export interface CountedAnswer {
  key: string;
  value: string;
  tallied: boolean | number;
}

/** One counted thing of an application, without its page and status. */
export interface TallyEntry {
  kind: TallyKind;
  key: string;
  value: string;
}

/** A row of `application_tallies`: how many applications of a page in a status have a {@link TallyEntry}. */
export interface TallyRow extends TallyEntry {
  page_id: string;
  status: string;
  /** The count; PostgreSQL's `bigint` reads back as text. */
  n: number | string;
}

/**
 * What an application adds to the tallies of its page and status: itself, each platform of its
 * `platform_names` (`,instagram,tiktok,`), each question it answered and each of its answer rows
 * counted per value ({@link answerTallyEntries}). The one definition the submit path's writers,
 * the decisions and the erasure use, and that migration 009's backfill mirrors.
 */
export function tallyEntries(platformNames: string, answers: readonly CountedAnswer[]): TallyEntry[] {
  return [...rowTallyEntries(platformNames), ...answerTallyEntries(answers)];
}

/**
 * What an application's own row adds to the tallies: itself and each platform it names. Written
 * in the submit's transaction (the status tabs' counts are exact at once).
 */
export function rowTallyEntries(platformNames: string): TallyEntry[] {
  const entries: TallyEntry[] = [{ kind: 'application', key: '', value: '' }];
  for (const platform of new Set(platformNames.split(',').filter(Boolean))) entries.push({ kind: 'platform', key: platform, value: '' });
  return entries;
}

/**
 * What an application's answer rows add to the tallies: each question answered; each row counted
 * per value (`tallied`); and, once per question, `uncounted` when its rows are not (free text: a
 * new value per applicant would be a new tally row each). Written with the answer rows themselves,
 * by the follow-up (answer-index.ts), which records on each row whether it was counted, so that a
 * decision or an erasure, which reads the answer rows to move the tallies, moves exactly what was
 * counted.
 */
export function answerTallyEntries(answers: readonly CountedAnswer[]): TallyEntry[] {
  const entries: TallyEntry[] = [];
  // Per question answered: whether any of its rows is not counted per value.
  const questions = new Map<string, boolean>();
  for (const answer of answers) questions.set(answer.key, (questions.get(answer.key) ?? false) || !Number(answer.tallied));
  for (const [key, uncounted] of questions) {
    entries.push({ kind: 'answered', key, value: '' });
    if (uncounted) entries.push({ kind: 'uncounted', key, value: '' });
  }
  for (const answer of answers) if (Number(answer.tallied)) entries.push({ kind: 'answer', key: answer.key, value: answer.value });
  return entries;
}

/**
 * The answer rows of `answers` as the follow-up writes them for a page: counted per value
 * (`tallied` 1) when `talliedKeys` (the page's `tallied_questions`) lists their question, else 0.
 */
export function countedAnswers<A extends Pick<AnswerRow, 'key' | 'value'>>(
  answers: readonly A[],
  talliedKeys: ReadonlySet<string> | undefined,
): (A & { tallied: 0 | 1 })[] {
  return answers.map((answer) => ({ ...answer, tallied: talliedKeys?.has(answer.key) ? 1 : 0 }));
}

/** A change to the tallies: per row key (page, status, kind, key, value), the number to add (negative to take away). */
export class TallyChanges {
  private readonly changes = new Map<string, { row: Omit<TallyRow, 'n'>; n: number }>();

  /** Adds `n` (±1) to each of `entries` of a page and status. */
  add(pageId: string, status: string, entries: readonly TallyEntry[], n: number) {
    for (const entry of entries) {
      const id = [pageId, status, entry.kind, entry.key, entry.value].join('\u0000');
      const change = this.changes.get(id);
      if (change) change.n += n;
      else this.changes.set(id, { row: { page_id: pageId, status, ...entry }, n });
    }
  }

  /**
   * The changes that change something, in the order of the tallies' primary key: every writer
   * takes the rows' locks in that one order, so two PostgreSQL transactions never wait on each
   * other in a cycle.
   */
  rows(): TallyRow[] {
    // By code point (UTF-8 bytes), as PostgreSQL's `collate "C"` orders them: JavaScript's `<`
    // compares UTF-16 code units, which puts U+E000–U+FFFF after the astral characters.
    const rows = [...this.changes.entries()].filter(([, change]) => change.n !== 0).map(([id, change]) => ({ order: Buffer.from(id), change }));
    rows.sort((a, b) => Buffer.compare(a.order, b.order));
    return rows.map(({ change }) => ({ ...change.row, n: change.n }));
  }
}

/**
 * Applies `changes` in `trx`: adds each count to its tally row (created at the count), then removes
 * the rows a change brought to zero — an erased applicant's free-text answer leaves no row behind.
 * @throws the store's error (the caller's transaction then rolls back).
 */
export async function applyTallies(trx: Transaction<Database> | Kysely<Database>, changes: TallyChanges): Promise<void> {
  const rows = changes.rows();
  for (const chunk of perStatement(rows)) {
    await trx
      .insertInto('application_tallies')
      .values(chunk)
      .onConflict((conflict) => conflict.columns(['kind', 'page_id', 'key', 'value', 'status']).doUpdateSet({ n: sql`application_tallies.n + excluded.n` }))
      .execute();
  }
  for (const chunk of perStatement(rows.filter((row) => Number(row.n) < 0))) {
    await trx
      .deleteFrom('application_tallies')
      .where((eb) =>
        eb(
          eb.refTuple('page_id', 'status', 'kind', 'key', 'value'),
          'in',
          chunk.map((row) => eb.tuple(row.page_id, row.status, row.kind, row.key, row.value)),
        ),
      )
      .where('n', '<=', 0)
      .execute();
  }
}

/**
 * The tally entries of stored applications, by id, read from their rows (`page_id`, `status`,
 * `platform_names`) and their answer rows (the `application_id` index): what a decision moves from
 * one status to another and an erasure takes away.
 */
export async function storedTallies(trx: Transaction<Database> | Kysely<Database>, ids: readonly string[]) {
  const byId = new Map<string, { pageId: string; status: string; entries: TallyEntry[] }>();
  for (const chunk of perStatement(ids)) {
    const [rows, answers] = await Promise.all([
      trx.selectFrom('applications').select(['id', 'page_id', 'status', 'platform_names']).where('id', 'in', chunk).execute(),
      trx.selectFrom('application_answers').select(['application_id', 'key', 'value', 'tallied']).where('application_id', 'in', chunk).execute(),
    ]);
    const answersOf = new Map<string, typeof answers>();
    for (const answer of answers) answersOf.set(answer.application_id, [...(answersOf.get(answer.application_id) ?? []), answer]);
    for (const row of rows)
      byId.set(row.id, { pageId: row.page_id, status: row.status, entries: tallyEntries(row.platform_names, answersOf.get(row.id) ?? []) });
  }
  return byId;
}

/**
 * Whether the tallies answer for `filter`: when it narrows by page and status only (the status
 * tabs and the summary as a view opens); any other filter is counted on the rows it matches.
 */
export function talliesServe(filter: ApplicationFilter): boolean {
  // As ApplicationFilters.matching (application-filters.ts) reads a filter: `q` blank is none, any other value set is one.
  return Object.entries(filter).every(
    ([name, value]) =>
      name === 'pageId' ||
      name === 'status' ||
      value === undefined ||
      value === '' ||
      (Array.isArray(value) && value.length === 0) ||
      (name === 'q' && String(value).trim() === ''),
  );
}

/**
 * A read of the tallies narrowed to the page `pageId`, or to every page that has applications (a
 * few `application` rows): the tallies' primary key leads with `(kind, page_id)`, so a read of one
 * key and value then seeks it per page, where without a page it read every tally of its kind —
 * a row per distinct free-text answer, ~10 ms at 100 000 applications.
 */
export function ofPages(eb: ExpressionBuilder<Database, 'application_tallies'>, pageId?: string) {
  return pageId
    ? eb('application_tallies.page_id', '=', pageId)
    : eb('application_tallies.page_id', 'in', eb.selectFrom('application_tallies as pages').select('pages.page_id').where('pages.kind', '=', 'application'));
}

/**
 * The tally that counts `filter`'s applications per status, when one does: the applications of a
 * page or of all ({@link talliesServe}), or those of one answer to one question (`answer=key:value`
 * alone: an application has one answer row per value, so the `answer` tally counts applications).
 * Undefined for any other filter (two answers, a search, a country…): its rows are counted.
 */
export function countingTally(filter: ApplicationFilter): TallyEntry | undefined {
  const { answer, ...rest } = filter;
  if (!talliesServe(rest)) return undefined;
  if (answer === undefined || answer.length === 0) return { kind: 'application', key: '', value: '' };
  const terms = [...new Set(answer)];
  const term = terms.length === 1 ? splitAnswerTerm(terms[0]!) : undefined;
  return term && { kind: 'answer', key: term.key, value: term.value };
}

/**
 * The questions of `keys` whose answers are not all counted per value within a page (`pageId`, or
 * every page) and a status (`status`, or every one): those with an `uncounted` tally (free text,
 * or answers written before the page offered the question as choices). A reader of their `answer`
 * tallies counts their rows instead (migration 016). One seek of the tallies' key per question.
 */
export async function uncountedQuestions(db: Kysely<Database>, keys: readonly string[], pageId?: string, status?: string): Promise<Set<string>> {
  const found = new Set<string>();
  for (const chunk of perStatement([...new Set(keys)])) {
    const rows = await db
      .selectFrom('application_tallies')
      .select('key')
      .distinct()
      .where('kind', '=', 'uncounted')
      .where((eb) => ofPages(eb, pageId))
      .where('key', 'in', chunk)
      .$if(Boolean(status), (query) => query.where('status', '=', status!))
      .execute();
    for (const row of rows) found.add(row.key);
  }
  return found;
}

/**
 * Records that page `pageId` offers the questions `keys` as choices (its configuration's choice
 * questions: `filterQuestions`), for the answers stored from now on: the answer index's follow-up
 * counts their answers per value in the tallies, and those of no other question (a free text is
 * counted as answered only). Writes only what changed (the server calls it for every page it
 * serves, at every start). Which questions are listed decides only which counts are kept, never a
 * count's value: each answer row records whether it was counted.
 * @returns whether anything changed.
 * @throws the store's error (nothing changed).
 */
export async function setTalliedQuestions(db: Kysely<Database>, pageId: string, keys: readonly string[]): Promise<boolean> {
  const wanted = new Set(keys);
  const current = new Set((await db.selectFrom('tallied_questions').select('key').where('page_id', '=', pageId).execute()).map((row) => row.key));
  const adding = [...wanted].filter((key) => !current.has(key));
  const removing = [...current].filter((key) => !wanted.has(key));
  if (adding.length === 0 && removing.length === 0) return false;
  await db.transaction().execute(async (trx) => {
    for (const chunk of perStatement(removing)) await trx.deleteFrom('tallied_questions').where('page_id', '=', pageId).where('key', 'in', chunk).execute();
    for (const chunk of perStatement(adding)) {
      await trx
        .insertInto('tallied_questions')
        .values(chunk.map((key) => ({ page_id: pageId, key })))
        .onConflict((conflict) => conflict.columns(['page_id', 'key']).doNothing())
        .execute();
    }
  });
  return true;
}
