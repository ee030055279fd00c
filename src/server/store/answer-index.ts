import { answerRows } from './indexed-columns';
import type { AnswerRow } from './schema';

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
 * Most queued applications one follow-up transaction takes, and how many stored make it run
 * before its delay. Small, so that the batch it runs before waits little (about 10 ms on one core:
 * some 100 µs each), and no larger transaction costs less per application (docs/decisions/022).
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
