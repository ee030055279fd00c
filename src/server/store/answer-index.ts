import { answerRows } from './indexed-columns';
import type { AnswerRow } from './schema';
import { countedAnswers, type CountedAnswer } from './tallies';

/**
 * The answer index (docs/decisions/022): what the inbox derives from an application's answers —
 * its answer rows (the answer filters), the `answered` and `answer` tallies (the summary and the
 * counts) and, on SQLite, its entry in the search box's FTS5 index — is written by a follow-up
 * after the application's own transaction, many applications a transaction, instead of in the
 * submit's critical path. The submit's transaction stores the application, its handles, its row's
 * tallies and its id in `application_index_queue`; the follow-up writes the derived rows and
 * removes the ids in one transaction. The inbox's reads wait for the follow-up of what this
 * process stored before them ({@link GroupCommit.indexed}), so a team member never misses an
 * application they were just told about.
 */

/**
 * How many queued applications one follow-up transaction takes, and how many stored make it run
 * before its delay. Small, so that the batch it runs before waits little (about 10 ms on one core:
 * some 100 µs each), and no larger transaction costs less per application (docs/decisions/022).
 * After a burst, a follow-up takes as many as its process stored since the last one, up to one
 * full batch (group-commit.ts, `MAX_BATCH`), so that full batches never outrun it.
 */
export const ANSWER_INDEX_BATCH = 100;

/**
 * How long after an application is stored its follow-up runs at the latest, in ms, when nothing
 * reads the inbox meanwhile and fewer than {@link ANSWER_INDEX_BATCH} are queued: the search box
 * and the answer filters find it within this (the requirement: within a second).
 */
export const ANSWER_INDEX_DELAY_MS = 200;

/**
 * How often a PostgreSQL process looks for queued applications no process is indexing (their
 * process ended between the submit and its follow-up), in ms.
 */
export const ANSWER_INDEX_SWEEP_MS = 10_000;

/**
 * The answer rows of a stored payload (JSON text, a byte-order mark allowed), as the submit made
 * them ({@link answerRows}): for an application queued by a process that ended before its
 * follow-up. A payload that cannot be read has none.
 */
export function readAnswerRows(applicationId: string, pageId: string, payload: string | undefined): AnswerRow[] {
  if (payload === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload.replace(/^\uFEFF/, ''));
  } catch {
    return [];
  }
  return answerRows(parsed).map((answer) => ({ application_id: applicationId, page_id: pageId, ...answer }));
}

/**
 * What one application adds to a summary (the inbox's summary view), named on the whole answer of
 * each of its questions not counted per value (migration 016; each distinct profile kept once in
 * `answer_profiles`, such a row naming it by `profile_id`: migration 029): the platforms it names
 * (`platform_names`), and per question it answered, the values of its rows counted per value, or
 * `null` for a question not counted so (free text: its text is never copied here). The summary under a `contains` text reads the matching rows' profiles, grouped
 * (applications with the same platforms and choices share one), instead of each application's
 * answers (store/summary.ts).
 */
export interface AnswerProfile {
  platformNames: string;
  answers: Map<string, string[] | null>;
}

/** Code-point order (as `collate "C"`), so that one application's profile is spelt one way. */
const byCodePoint = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * The profile ({@link AnswerProfile}) of an application naming `platformNames`, from its answer
 * rows as the follow-up writes them: JSON `[platformNames, [[key, values | null], …]]`, questions and
 * values in code-point order, so that applications alike have the same text (grouped by it).
 */
export function answerProfile(platformNames: string, answers: readonly CountedAnswer[]): string {
  const questions = new Map<string, Set<string> | null>();
  for (const answer of answers) {
    const values = questions.get(answer.key);
    if (!Number(answer.tallied)) questions.set(answer.key, null);
    else if (values !== null) questions.set(answer.key, (values ?? new Set()).add(answer.value));
  }
  const entries = [...questions].sort(([a], [b]) => byCodePoint(a, b)).map(([key, values]) => [key, values && [...values].sort(byCodePoint)]);
  return JSON.stringify([platformNames, entries]);
}

/** A profile's text read back ({@link answerProfile}); undefined for text that is not one. */
export function readAnswerProfile(text: string): AnswerProfile | undefined {
  try {
    const [platformNames, entries] = JSON.parse(text) as [unknown, unknown];
    if (typeof platformNames !== 'string' || !Array.isArray(entries)) return undefined;
    const answers = new Map<string, string[] | null>();
    for (const entry of entries as unknown[]) {
      const [key, values] = entry as [unknown, unknown];
      if (typeof key !== 'string' || !(values === null || (Array.isArray(values) && values.every((value) => typeof value === 'string')))) return undefined;
      answers.set(key, values as string[] | null);
    }
    return { platformNames, answers };
  } catch {
    return undefined;
  }
}

/**
 * An application's answer rows as the follow-up writes them: each counted per value or not
 * (`tallied`: its question listed in `talliedKeys`, the page's `tallied_questions`), and on the
 * first row of each question not counted so (its whole answer, as {@link answerRows} lists it
 * first: the options of a multi-select answer and the parts of a text holding ", " follow it) the
 * application's {@link answerProfile} (`profile`, the text: the writer stores its number). One row
 * per such question carries it, so the rows a text matches count each application once: a part
 * holds no text its whole answer does not.
 */
export function indexedAnswers<A extends Pick<AnswerRow, 'key' | 'value'>>(
  answers: readonly A[],
  talliedKeys: ReadonlySet<string> | undefined,
  platformNames: string,
): (A & { tallied: 0 | 1; profile: string | null })[] {
  const counted = countedAnswers(answers, talliedKeys);
  let profile: string | undefined;
  const profiled = new Set<string>();
  return counted.map((answer) => {
    if (answer.tallied || profiled.has(answer.key)) return { ...answer, profile: null };
    profiled.add(answer.key);
    profile ??= answerProfile(platformNames, counted);
    return { ...answer, profile };
  });
}

/**
 * Whether an application of `profile` holds the answer filters `choices` (per question, the values
 * that are alternatives: the list's `answer=key:value`) and names `platform` when given, as the
 * list's filter reads its answer rows; undefined when the profile cannot tell (a question it
 * answered whose rows are not counted per value: their values are not in it).
 */
export function profileHolds(profile: AnswerProfile, choices: ReadonlyMap<string, readonly string[]>, platform?: string): boolean | undefined {
  if (platform !== undefined && !profile.platformNames.includes(`,${platform},`)) return false;
  let holds = true;
  for (const [question, wanted] of choices) {
    const held = profile.answers.get(question);
    if (held === null) return undefined;
    if (!held?.some((value) => wanted.includes(value))) holds = false;
  }
  return holds;
}
