import { randomFillSync } from 'node:crypto';
import { PostgresAdapter, sql, type ExpressionBuilder, type Kysely, type RawBuilder, type SelectQueryBuilder, type Transaction } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import {
  splitAnswerTerm,
  type ApplicationCounts,
  type ApplicationFilter,
  type ApplicationPatch,
  type ApplicationSort,
  type ApplicationStatus,
  type AuditEntry,
  type EarlierSubmission,
  type SortDirection,
} from '../../shared/admin';
import { systemClock, type Clock } from '../clock';
import type { AuditRepository, AuditWrite } from './audit';
import type { ErasureFollowUp } from './erasure-follow-up';
import type { GroupCommit } from './group-commit';
import { profileHolds, readAnswerProfile } from './answer-index';
import { MAX_ANSWER_ROW_LENGTH, indexedColumns } from './indexed-columns';
import {
  INBOX_COLUMNS,
  readStatus,
  toInboxRow,
  type ApplicationRow,
  type ExportPageReader,
  type ExportPages,
  type ExportSource,
  type InboxRow,
} from './inbox-rows';
import type { ApplicationsTable, Database, SavedApplication } from './schema';
import { lockRows } from './locks';
import { addNote } from './notes';
import { perStatement } from './statements';
import { TallyChanges, applyTallies, countingTally, ofPages, setTalliedQuestions, storedTallies, talliesServe, uncountedQuestions } from './tallies';

/** What the submit route stores. */
export interface NewApplication {
  pageId: string;
  /** The version of a stored page it answered; none for the default page. */
  pageVersion?: number | undefined;
  /**
   * Its page has a cap: stored only if it takes one of the page's slots in its own
   * transaction (`pages.taken`, migration 013); else nothing is stored and the answer is `full`.
   */
  capped?: boolean | undefined;
  idempotencyKey?: string | undefined;
  emailAddress: string;
  /** The validated payload, stored as JSON. */
  payload: unknown;
  /** The payload's JSON text as received, when the caller has it (saves serialising it again). */
  payloadJson?: string | undefined;
  userAgent?: string | undefined;
}

/** A stored application. */
export interface StoredApplication {
  id: string;
  pageId: string;
  idempotencyKey: string | null;
  email: string;
  payload: unknown;
  receivedAt: string;
  userAgent: string | null;
  /** The phone in E.164 (`+447400123456`); '' without a phone or for a row stored before the column. */
  phoneE164: string;
}

/** One application with what the detail view adds. */
export interface InboxDetailRow extends InboxRow {
  earlierSubmissions: EarlierSubmission[];
  audit: AuditEntry[];
}

/** How a list is ordered: the sort and its direction (default received, newest first). */
export interface ListOrder {
  sort: ApplicationSort;
  dir: SortDirection;
}

/**
 * How {@link ApplicationRepository.matching} finds rows: by default, the search's text and the
 * answers through their indexes (an `in (…)` set); `scanText`, the text row by row (SQLite's
 * search box with `like`, `contains` by a probe of the row's answers); `probeAnswers`, each
 * answer filter by an `exists` probe per row. Row by row is faster
 * when the rows are read in the list's order and the match is common (the page fills within a
 * few hundred rows), and what an export, reading page after page in that order, wants (no sort
 * per page).
 */
export interface MatchPlan {
  scanText?: boolean;
  probeAnswers?: boolean;
  /** SQLite: per `contains` term (in the filter's order), the applications whose answer rows hold it, when they are few. */
  containsIds?: (string[] | undefined)[];
  /**
   * The answer filters as one set driven from this question's rows, each other question an
   * `exists` probe of the same application's rows: a count reads the applications of that set
   * only (its fewest, from the tallies), where one set per question had the store read them all.
   */
  answersFrom?: string;
  /**
   * SQLite: the country filter checked on each row (`+country_code`) rather than read from its
   * index, for a list sorted by a column of its own whose country is common: the sort's index is
   * walked and stops after a page, where the country's index gave every row of the country to sort.
   */
  scanCountry?: boolean;
}

/** Matches from which an answer or a text counts as common ({@link MatchPlan}): 2 % of 100 000 applications. */
const COMMON_MATCHES = 2000;

/** `text` as one FTS5 phrase (its double quotes doubled): with the trigram tokenizer, the rows holding it. */
const ftsPhrase = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** A filter's answer filters by question: the values given for one key are alternatives. */
export function answerChoices(filter: Pick<ApplicationFilter, 'answer'>): Map<string, string[]> {
  const choices = new Map<string, string[]>();
  for (const term of filter.answer ?? []) {
    const { key, value } = splitAnswerTerm(term)!;
    choices.set(key, [...(choices.get(key) ?? []), value]);
  }
  return choices;
}

/** Newest first: the list's and the export's order unless a sort is chosen. */
export const NEWEST_FIRST: ListOrder = { sort: 'received', dir: 'desc' };

/**
 * A keyset position in a sorted list: the last row's sort key (`value`, absent for `received`),
 * time received and id, each compared in the sort's direction.
 */
export interface ListPosition {
  value?: string | number;
  receivedAt: string;
  id: string;
}

/**
 * The column each sort orders by before `(received_at, id)`; each has an index ending in those
 * two (migration 007), so a sorted page walks an index and stops, filter or not.
 */
const SORT_COLUMNS = {
  received: undefined,
  name: 'sort_name',
  country: 'country_code',
  followers: 'total_followers',
  topPlatform: 'top_followers',
} as const satisfies Record<ApplicationSort, keyof Database['applications'] | undefined>;

/** True for the sorts whose key is a number (the stores read PostgreSQL's `bigint` as text). */
export const isNumericSort = (sort: ApplicationSort) => sort === 'followers' || sort === 'topPlatform';

/** A listed row with its sort key, for the next page's cursor. */
export type SortedRow = InboxRow & { sortValue?: string | number };

/** `%`, `_` and `\` taken literally in a `like … escape '\'` pattern. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Exclusive end of a UTC day: `2026-11-22` → `2026-11-23T00:00:00.000Z`. */
const dayEnd = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

/**
 * 16 random bytes for a UUID v7, from a 4 KiB pool filled by node:crypto 256 ids at a time: the
 * uuid package asks Web Crypto for each id, ~3 % of the submit route's time (docs/performance.md).
 */
const randomPool = new Uint8Array(4096);
let randomOffset = randomPool.length;
function randomBytes16(): Uint8Array {
  if (randomOffset === randomPool.length) {
    randomFillSync(randomPool);
    randomOffset = 0;
  }
  return randomPool.subarray(randomOffset, (randomOffset += 16));
}

/** What an {@link ApplicationRepository} is opened with; all optional: the export's thread reads only. */
export interface ApplicationRepositoryOptions {
  /** The submit path's group commit (none: {@link ApplicationRepository.save} refuses). */
  submissions?: GroupCommit | undefined;
  /** The audit log the review changes are written to (none: the export's thread, which changes nothing). */
  audit?: AuditRepository | undefined;
  /** What the store does on disk after an erasure (none: the rows are deleted, nothing more). */
  erasure?: ErasureFollowUp | undefined;
  /** How an export reads its pages. */
  exportPages?: ExportPages | undefined;
  /** The time now in ms: when an application is received, when a change is audited (default `Date.now`). */
  clock?: Clock | undefined;
  /**
   * Where the inbox's lists, counts, neighbours and duplicates are read (default the store's
   * database): on a SQLite file, threads of their own (sqlite-reader.ts).
   */
  reads?: Kysely<Database> | undefined;
}

/**
 * The applications (requirements §13, §8; docs/decisions/004): storing them durably as they are submitted (group
 * commit), and the inbox's reads and decisions on them — lists, exports, duplicates, status,
 * note, erasure — on the server's Kysely database (SQLite or PostgreSQL). Routes never touch SQL.
 */
export class ApplicationRepository {
  private readonly submissions: GroupCommit | undefined;
  private readonly erasure: ErasureFollowUp | undefined;
  /** See {@link ApplicationRepositoryOptions.reads}. */
  private readonly reads: Kysely<Database>;
  private readonly readExportPage: ExportPageReader;
  private readonly exportRowsPerQuery: number;
  private readonly source: ExportSource | undefined;
  private readonly auditLog: AuditRepository | undefined;
  private readonly clock: Clock;

  constructor(
    private readonly db: Kysely<Database>,
    options: ApplicationRepositoryOptions = {},
  ) {
    this.submissions = options.submissions;
    this.erasure = options.erasure;
    this.auditLog = options.audit;
    this.clock = options.clock ?? systemClock;
    this.reads = options.reads ?? db;
    this.readExportPage = options.exportPages?.read ?? (async (query) => (await db.executeQuery(query)).rows);
    this.exportRowsPerQuery = options.exportPages?.rowsPerQuery ?? 0;
    this.source = options.exportPages?.source;
  }

  /** The audit log; only a repository opened with one changes applications. */
  private get audit(): AuditRepository {
    if (!this.auditLog) throw new Error('This repository was opened to read only.');
    return this.auditLog;
  }

  /**
   * Stores an application durably before resolving. With an idempotency key
   * already stored for the page, stores nothing and returns the first row
   * (with `conflict` when that row's body differs). A row the store refuses
   * fails alone: the others of its group-commit batch are written without it.
   * @returns the stored row's id and receivedAt, and whether it was created now; for a page with
   *   a cap (`capped`), `full` when no slot was left (nothing stored), else its `taken` after it.
   * @throws the store's error when it refuses this application or cannot be reached
   *   ({@link isStoreUnavailable} tells which).
   */
  save(application: NewApplication): Promise<SavedApplication> {
    const { handles, answers, ...columns } = indexedColumns(application.payload);
    // Time-ordered (RFC 9562 version 7): each new id lands at the end of the primary-key index
    // instead of a random page of it; measured at 50 000 rows, 4.5 → 2.5 ms per 50-row batch.
    const id = uuidv7({ rng: randomBytes16 });
    const row: ApplicationsTable = {
      id,
      page_id: application.pageId,
      idempotency_key: application.idempotencyKey ?? null,
      email: application.emailAddress.toLowerCase(),
      payload: application.payloadJson ?? JSON.stringify(application.payload),
      received_at: new Date(this.clock()).toISOString(),
      user_agent: application.userAgent?.slice(0, 512) ?? null,
      status: 'new',
      note: '',
      ...columns,
      page_version: application.pageVersion ?? null,
    };
    const children = {
      handles: handles.map((handle) => ({ application_id: id, page_id: application.pageId, ...handle })),
      answers: answers.map((answer) => ({ application_id: id, page_id: application.pageId, ...answer })),
      ...(application.capped ? { slot: true as const } : {}),
    };
    if (!this.submissions) return Promise.reject(new Error('This repository was opened to read only.'));
    return this.submissions.add(row, children);
  }

  /**
   * Resolves once the answer index (answer-index.ts: answer rows, answer tallies, the search
   * index) holds every application this process stored before the call: every read of the inbox
   * that filters, searches or counts by them waits for it first. At once when it holds them.
   */
  indexed(): Promise<void> {
    return this.submissions?.indexed() ?? Promise.resolve();
  }

  /**
   * Records that page `pageId` offers the questions `keys` as choices (its configuration's choice
   * questions), for the applications stored from now on: their answers are counted per value in
   * the tallies, and no other answer is (a free text is counted as answered only: one tally row per
   * applicant otherwise). Writes only what changed. Which questions are listed changes which
   * counts are kept, never a count: each answer row records whether it was counted (tallies.ts).
   * @returns whether anything changed.
   * @throws the store's error (nothing changed).
   */
  countAnswersPerValue(pageId: string, keys: readonly string[]): Promise<boolean> {
    return setTalliedQuestions(this.db, pageId, keys);
  }

  /** Whether an application with this id is stored (its payload not read: an unreadable one exists too). */
  async exists(id: string): Promise<boolean> {
    return (await this.db.selectFrom('applications').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  /**
   * The application stored for page `pageId` under Idempotency-Key `key` (lower case), or
   * undefined: one probe of the unique `(page_id, idempotency_key)` index. The submit route asks
   * only for a page it found closed, so a retry of a stored application answers as the first time.
   */
  async findByIdempotencyKey(pageId: string, key: string): Promise<{ id: string; receivedAt: string; payload: unknown } | undefined> {
    const row = await this.db
      .selectFrom('applications')
      .select(['id', 'received_at', 'payload'])
      .where('page_id', '=', pageId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    return row && { id: row.id, receivedAt: row.received_at, payload: JSON.parse(row.payload) as unknown };
  }

  /** One application by id, or undefined. */
  async findById(id: string): Promise<StoredApplication | undefined> {
    const row = await this.db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      pageId: row.page_id,
      idempotencyKey: row.idempotency_key,
      email: row.email,
      payload: JSON.parse(row.payload) as unknown,
      receivedAt: row.received_at,
      userAgent: row.user_agent,
      phoneE164: row.phone_e164,
    };
  }

  /**
   * Where a thread of its own can run {@link exportApplications} on a connection of its own
   * (docs/decisions/014), or undefined when only this thread can (an in-memory database).
   */
  exportSource(): ExportSource | undefined {
    return this.source;
  }

  /** PostgreSQL rather than SQLite: the one place the two spell a query differently (JSON). */
  private get postgres(): boolean {
    return this.db.getExecutor().adapter instanceof PostgresAdapter;
  }

  /**
   * `column` of `table` holds `text` (as typed), case aside: on PostgreSQL by `ilike` (its own
   * case folding on both sides), which `pg_trgm`'s GIN index serves (migration 010). On SQLite the
   * search box's text (`search_text`, stored lower-cased) through the FTS5 trigram index (a phrase
   * query: any substring of three characters or more), or row by row with `like` for a shorter
   * text and when `scan` is set; an answer's text row by row (an index-only scan of its question's
   * answers), with `like` when the text is ASCII (SQLite's `like` folds ASCII letters) and else
   * with `casefold` (sqlite-file.ts: JavaScript's `toLowerCase`, for every letter).
   */
  private textMatch(table: 'applications' | 'application_answers' | 'counted' | 'probe', column: 'search_text' | 'value', text: string, scan = false) {
    const ref = sql.ref(`${table}.${column}`);
    if (this.postgres) return sql<boolean>`${ref} ilike ${`%${likeLiteral(text)}%`} escape '\\'`;
    const lower = `%${likeLiteral(text.toLowerCase())}%`;
    if (column === 'value')
      return !/[^\p{ASCII}]/u.test(text) ? sql<boolean>`${ref} like ${lower} escape '\\'` : sql<boolean>`casefold(${ref}) like ${lower} escape '\\'`;
    if (scan || [...text].length < 3) return sql<boolean>`${ref} like ${lower} escape '\\'`;
    return sql<boolean>`${sql.ref(`${table}.rowid`)} in (select rowid from applications_search where applications_search match ${ftsPhrase(text)})`;
  }

  /**
   * The answer `key` in `table`'s payload holds `text`, case folded as {@link textMatch} folds an
   * answer row: for a text past the 200 characters an answer row keeps (MAX_ANSWER_ROW_LENGTH).
   */
  private payloadHolds(table: 'applications' | 'whole', key: string, text: string) {
    return this.postgres
      ? sql<boolean>`(${sql.ref(`${table}.payload`)}::json -> 'fields' ->> ${key}) ilike ${`%${likeLiteral(text)}%`} escape '\\'`
      : sql<boolean>`casefold(json_extract(${sql.ref(`${table}.payload`)}, ${`$.fields."${key}"`})) like ${`%${likeLiteral(text.toLowerCase())}%`} escape '\\'`;
  }

  /**
   * The answer profiles (answer-index.ts) of the applications whose answer to `key` holds `text`
   * (as `contains=key:text` matches it: case aside, anywhere in the answer, the rest of an answer
   * longer than its row keeps read in the payload), within page `pageId` and status `status` when
   * given, grouped: each profile with how many of those applications have it. Only rows not
   * counted per value carry a profile, one per application (its whole answer): the caller makes
   * sure every row of `key` in that scope is such a row (no `answer` tally of `key` there).
   * Read from the partial index of those rows (`application_answers_untallied`, migration 016)
   * alone, in profile order (grouped as read, no sort): no application's other answers are read
   * (the summary under a `contains` filter); on PostgreSQL a rare text through the trigram
   * index instead.
   * @returns the profiles with their applications' status and how many have both, a pair possibly
   *   twice (added up by the caller).
   */
  async profilesHolding(
    key: string,
    text: string,
    pageId?: string,
    status?: string,
  ): Promise<{ profile: string; status: string; n: number | string | bigint }[]> {
    const scope = sql.join(
      [
        sql`counted.tallied = 0`,
        sql`counted.answer_profile is not null`,
        sql`counted.key = ${key}`,
        ...(pageId ? [sql`counted.page_id = ${pageId}`] : []),
        ...(status ? [sql`counted.status = ${status}`] : []),
      ],
      sql` and `,
    );
    const holds = this.textMatch('counted', 'value', text);
    // The answers longer than a row keeps whose row does not hold the text: read from the partial
    // index of those (a few), their payload then read for the rest of the answer.
    const cut = this.fenced(
      this.reads
        .selectFrom('application_answers')
        .select('application_id')
        .where('key', '=', key)
        .where(sql<boolean>`length(value) >= ${sql.lit(MAX_ANSWER_ROW_LENGTH)}`),
    );
    // Grouped in the index's order (profile, then status): no sort.
    const { rows } = await sql<{
      profile: string;
      status: string;
      n: number | string | bigint;
    }>`select counted.answer_profile as profile, counted.status as status, count(*) as n from application_answers as counted
      where ${scope} and ${holds} group by counted.answer_profile, counted.status
      union all
      select counted.answer_profile as profile, counted.status as status, count(*) as n from ${cut} as cut
        join application_answers as counted on counted.application_id = cut.application_id
        join applications as whole on whole.id = cut.application_id
      where ${scope} and length(counted.value) >= ${sql.lit(MAX_ANSWER_ROW_LENGTH)} and not (${holds}) and ${this.payloadHolds('whole', key, text)}
      group by counted.answer_profile, counted.status`.execute(this.reads);
    return rows;
  }

  /**
   * `query` as PostgreSQL's planner must take it: `offset 0` keeps it from folding a subquery into
   * the query around it (an `exists` probe into a join of every match, a set of rows into a read
   * of every payload), where the estimate behind that choice is wrong. SQLite: as it is.
   */
  private fenced<Q extends { offset(offset: number): Q }>(query: Q): Q {
    return this.postgres ? query.offset(0) : query;
  }

  private filtered(filter: ApplicationFilter, plan: MatchPlan = {}) {
    return this.matching(this.reads.selectFrom('applications').select(INBOX_COLUMNS), filter, plan);
  }

  /**
   * `query` narrowed to the applications `filter` matches: the list's filter, also read by the
   * counts and by the summary's aggregates (store/summary.ts), so every view of a filter agrees.
   * `plan` chooses, on SQLite, how the search and the answers are matched ({@link MatchPlan}).
   */
  matching<O>(query: SelectQueryBuilder<Database, 'applications', O>, filter: ApplicationFilter, plan: MatchPlan = {}) {
    // `page_id || ''` keeps the planner off the (page_id, idempotency_key) index: with it, SQLite
    // read every row of the page and sorted them for each page of a list or export (0.15 s a page
    // at 100 000 applications), where walking the (received_at, id) index stops after a
    // page. A server serves one page configuration, so its filter matches most rows.
    if (filter.pageId) query = query.where(sql<string>`${sql.ref('page_id')} || ''`, '=', filter.pageId);
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.country) query = query.where(plan.scanCountry ? sql<string>`+${sql.ref('country_code')}` : sql.ref<string>('country_code'), '=', filter.country);
    if (filter.platform) query = query.where('platform_names', 'like', `%,${filter.platform},%`);
    if (filter.from) query = query.where('received_at', '>=', `${filter.from}T00:00:00.000Z`);
    if (filter.to) query = query.where('received_at', '<', dayEnd(filter.to));
    const q = filter.q?.trim().toLowerCase();
    if (q) query = query.where(this.textMatch('applications', 'search_text', q, plan.scanText));
    // Answer filters: the values given for one key are alternatives, the keys all hold.
    const choices = answerChoices(filter);
    const driver = plan.answersFrom === undefined ? undefined : choices.get(plan.answersFrom);
    if (driver) {
      const probes = [...choices].filter(([key]) => key !== plan.answersFrom);
      query = query.where('id', 'in', (eb) =>
        this.fenced(
          eb
            .selectFrom('application_answers as driver')
            .select('driver.application_id')
            .where('driver.key', '=', plan.answersFrom!)
            .where('driver.value', 'in', driver)
            .where((probe) =>
              probe.and(
                probes.map(([key, values]) =>
                  probe.exists(
                    probe
                      .selectFrom('application_answers as probe')
                      .select('probe.key')
                      .where('probe.key', '=', key)
                      .where('probe.value', 'in', values)
                      .whereRef('probe.application_id', '=', 'driver.application_id'),
                  ),
                ),
              ),
            ),
        ),
      );
      choices.clear();
    }
    for (const [key, values] of choices) {
      query = plan.probeAnswers
        ? query.where((eb) =>
            eb.exists(
              this.fenced(
                eb
                  .selectFrom('application_answers as probe')
                  .select('probe.key')
                  .where('probe.key', '=', key)
                  .where('probe.value', 'in', values)
                  .whereRef('probe.application_id', '=', 'applications.id'),
              ),
            ),
          )
        : query.where('id', 'in', (eb) => eb.selectFrom('application_answers').select('application_id').where('key', '=', key).where('value', 'in', values));
    }
    for (const [index, term] of (filter.contains ?? []).entries()) {
      const { key, value } = splitAnswerTerm(term)!;
      const text = value.trim();
      // A free text's answer row; or, for a text longer than its row keeps (MAX_ANSWER_ROW_LENGTH),
      // the rest of it in the payload, case folded as textMatch folds it.
      const inPayload = (table: 'applications' | 'whole') => this.payloadHolds(table, key, text);
      const cut = sql<boolean>`length(value) >= ${sql.lit(MAX_ANSWER_ROW_LENGTH)}`;
      const found = plan.containsIds?.[index];
      const longAnswers = (eb: ExpressionBuilder<Database, 'applications'>) =>
        eb
          // A fence: PostgreSQL would otherwise guess the payload's pattern rare and read every payload first.
          .selectFrom(this.fenced(eb.selectFrom('application_answers').select('application_id').where('key', '=', key).where(cut)).as('cut'))
          .innerJoin('applications as whole', 'whole.id', 'cut.application_id')
          .select('cut.application_id')
          .where(inPayload('whole'));
      query = found
        ? // The answer rows holding it, found while planning (a few), and the long ones (a partial index) whose payload does.
          query.where((eb) => eb.or([eb('id', 'in', found), eb('id', 'in', longAnswers(eb))]))
        : plan.scanText
          ? // Row by row: a probe of the row's own answers (the application_id index).
            query.where((eb) => {
              // The row's own answers by the application_id index: on SQLite `+key` keeps the planner
              // off the (key, value) index, which, before statistics are gathered (a store filled
              // since it opened), it took, reading every answer of the question for each row (1.2 s).
              const answerKey = this.postgres ? sql.ref('application_answers.key') : sql`+${sql.ref('application_answers.key')}`;
              const own = () =>
                eb
                  .selectFrom('application_answers')
                  .select('application_answers.key')
                  .whereRef('application_answers.application_id', '=', 'applications.id')
                  .where(answerKey, '=', key);
              return eb.or([
                eb.exists(this.fenced(own().where(this.textMatch('application_answers', 'value', text, true)))),
                eb.and([eb.exists(this.fenced(own().where(cut))), inPayload('applications')]),
              ]);
            })
          : // From the indexes: the answer rows holding the text, and the long ones whose payload does, one set the query is driven from.
            query.where('id', 'in', (eb) =>
              eb
                .selectFrom('application_answers')
                .select('application_id')
                .where('key', '=', key)
                .where(this.textMatch('application_answers', 'value', text))
                .union(longAnswers(eb)),
            );
    }
    // The applications carrying a tag (the (tag_id, application_id) index answers each probe).
    const tag = filter.tag;
    if (tag) {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('application_tags')
            .select('application_tags.tag_id')
            .where('application_tags.tag_id', '=', tag)
            .whereRef('application_tags.application_id', '=', 'applications.id'),
        ),
      );
    }
    return query;
  }

  /**
   * A page of `filter`'s applications by time received (newest first unless `direction` is
   * `asc`), after `after` (keyset on the `(received_at, id)` index).
   */
  private page(filter: ApplicationFilter, limit: number, after?: { receivedAt: string; id: string }, direction: SortDirection = 'desc', plan: MatchPlan = {}) {
    let query: SelectQueryBuilder<Database, 'applications', ApplicationRow> = this.filtered(filter, plan);
    // A row value: both stores seek the index to the cursor. Spelt as `received_at < ? or
    // (received_at = ? and id < ?)`, SQLite scanned the index from its newest entry for every page
    // and PostgreSQL gathered and sorted every older row: an export of 100 000 rows read ~10 million
    // index entries.
    if (after) query = query.where((eb) => eb(eb.refTuple('received_at', 'id'), direction === 'desc' ? '<' : '>', eb.tuple(after.receivedAt, after.id)));
    return query.orderBy('received_at', direction).orderBy('id', direction).limit(limit);
  }

  /**
   * A page of `filter`'s applications in `order`, after `after`: `(key, received_at, id)` compared
   * as a row value in the sort's direction, so the store seeks the sort's index to the cursor.
   */
  private sortedPage(filter: ApplicationFilter, limit: number, order: ListOrder, after?: ListPosition, plan: MatchPlan = {}) {
    const column = SORT_COLUMNS[order.sort];
    const direction = order.dir;
    if (!column) return this.page(filter, limit, after, direction, plan).select(sql<null>`null`.as('sort_value'));
    const operator = direction === 'desc' ? '<' : '>';
    let query = this.filtered(filter, plan).select(sql.ref<string | number>(column).as('sort_value'));
    if (after) query = query.where((eb) => eb(eb.refTuple(column, 'received_at', 'id'), operator, eb.tuple(after.value ?? '', after.receivedAt, after.id)));
    return query.orderBy(column, direction).orderBy('received_at', direction).orderBy('id', direction).limit(limit);
  }

  /**
   * How a page of `filter`'s list is best found ({@link MatchPlan}). A store that gathers every
   * match of an answer or a text before sorting them is fast for a rare one and slow for one a
   * quarter of the rows share, which reading rows in the list's order finds within a few hundred:
   * SQLite drives a query from an `in (…)` set whatever its size, and PostgreSQL's planner,
   * misjudging how many rows share an answer, joins them all before the sort. So each answer
   * filter and `contains` text (and on SQLite the search box's) is first counted up to
   * {@link COMMON_MATCHES} on its index (a ms or two), and the common ones are matched row by row.
   * PostgreSQL's planner serves the search box well as it is. On SQLite a list sorted by a
   * column of its own (name, followers, largest platform) within a common country walks the sort's
   * index ({@link MatchPlan.scanCountry}: the country's index ends with the time received only).
   */
  private async planFor(filter: ApplicationFilter, order: ListOrder = NEWEST_FIRST): Promise<MatchPlan> {
    const common = async (matches: RawBuilder<unknown>) =>
      Number((await sql<{ n: number }>`select count(*) as n from (${matches} limit ${COMMON_MATCHES}) as found`.execute(this.reads)).rows[0]!.n) >=
      COMMON_MATCHES;
    const scanCountry =
      !this.postgres &&
      Boolean(filter.country) &&
      SORT_COLUMNS[order.sort] !== undefined &&
      order.sort !== 'country' &&
      (await common(sql`select 1 from applications where country_code = ${filter.country}`));
    const contains = (filter.contains ?? []).map((term) => {
      const { key, value } = splitAnswerTerm(term)!;
      return { key, text: value.trim() };
    });
    const q = filter.q?.trim().toLowerCase();
    // The search box on SQLite: common when its FTS5 index finds COMMON_MATCHES (or it is too short for the index).
    const searchIsCommon =
      !q || this.postgres ? undefined : [...q].length < 3 || common(sql`select 1 from applications_search where applications_search match ${ftsPhrase(q)}`);
    // A `contains` text: on PostgreSQL counted through pg_trgm; on SQLite its question's answer rows
    // read once (an index-only scan), the ids kept when they are few.
    const containsIds: (string[] | undefined)[] = [];
    const textIsCommon = async ({ key, text }: { key: string; text: string }, index: number) => {
      if (this.postgres) return common(sql`select 1 from application_answers where key = ${key} and value ilike ${`%${likeLiteral(text)}%`} escape '\\'`);
      const found = await this.reads
        .selectFrom('application_answers')
        .select('application_id')
        .where('key', '=', key)
        .where(this.textMatch('application_answers', 'value', text))
        .limit(COMMON_MATCHES)
        .execute();
      if (found.length >= COMMON_MATCHES) return true;
      containsIds[index] = found.map((row) => row.application_id);
      return false;
    };
    const [scanText, probeAnswers] = await Promise.all([
      Promise.all([...(searchIsCommon === undefined ? [] : [searchIsCommon]), ...contains.map(textIsCommon)]).then(
        (found) => found.length > 0 && found.every(Boolean),
      ),
      Promise.all(
        [...answerChoices(filter)].map(([key, values]) => common(sql`select 1 from application_answers where key = ${key} and value in (${sql.join(values)})`)),
      ).then((found) => found.length > 0 && found.every(Boolean)),
    ]);
    return { scanText, probeAnswers, ...(containsIds.length > 0 ? { containsIds } : {}), ...(scanCountry ? { scanCountry } : {}) };
  }

  /**
   * How a count of `filter` reads its answer filters ({@link MatchPlan.answersFrom}): from the
   * question whose chosen values the fewest applications gave (their tallies, summed over pages
   * and statuses; a few rows), the others probed per application.
   */
  private async countPlan(filter: ApplicationFilter): Promise<MatchPlan> {
    const choices = answerChoices(filter);
    if (choices.size === 0) return {};
    // A question whose answers are not all counted per value (free text: tallies.ts) is read on its
    // rows (the (key, value) index), up to as many as make an answer common: the order of the
    // drivers is all this is for.
    const uncounted = await uncountedQuestions(this.reads, [...choices.keys()], filter.pageId);
    // One read per question: each seeks its key and values in the tallies' primary key, where one
    // read of them all (an `or`) read every answer tally of the page.
    const given = new Map(
      await Promise.all(
        [...choices].map(async ([key, values]) => {
          const row = await this.reads
            .selectFrom('application_tallies')
            .select((eb) => eb.fn.sum<number | string | bigint>('n').as('n'))
            .where('kind', '=', 'answer')
            .where((eb) => ofPages(eb, filter.pageId))
            .where('key', '=', key)
            .where('value', 'in', values)
            .executeTakeFirst();
          const rows = uncounted.has(key)
            ? await sql<{
                n: number | string | bigint;
              }>`select count(*) as n from (select 1 from application_answers where key = ${key} and value in (${sql.join(values)}) limit ${COMMON_MATCHES}) as found`.execute(
                this.reads,
              )
            : undefined;
          return [key, Math.max(Number(row?.n ?? 0), Number(rows?.rows[0]?.n ?? 0))] as const;
        }),
      ),
    );
    // A question no application answered so is its fewest: the set is empty at once.
    const [answersFrom] = [...choices.keys()].sort((a, b) => (given.get(a) ?? 0) - (given.get(b) ?? 0));
    const fewest = given.get(answersFrom!) ?? 0;
    // The filter's other terms (a country, a search, dates…) may match fewer applications than that
    // answer: counted up to it on their own indexes, they then drive, each answer probed per row.
    const others: ApplicationFilter = { ...filter, answer: undefined, status: undefined };
    if (fewest > 0 && !talliesServe(others)) {
      const upTo = this.matching(this.reads.selectFrom('applications').select(sql<number>`1`.as('one')), others).limit(fewest);
      const found = await this.reads
        .selectFrom(upTo.as('found'))
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
        .executeTakeFirstOrThrow();
      if (Number(found.n) < fewest) return { probeAnswers: true };
    }
    return { answersFrom };
  }

  /**
   * Whether the rows of question `key` within page `pageId` (every page when none) all carry
   * answer profiles, as the rows of a question not counted per value do: no `answer` tally of it
   * there (a choice question's rows, and rows written before migration 016, have one and no
   * profile). Then {@link profilesHolding} finds every application whose answer holds a text.
   */
  async profiled(key: string, pageId?: string, status?: string): Promise<boolean> {
    const counted = await this.reads
      .selectFrom('application_tallies')
      .select('key')
      .where('kind', '=', 'answer')
      .where((eb) => ofPages(eb, pageId))
      .where('key', '=', key)
      .$if(Boolean(status), (query) => query.where('status', '=', status!))
      .limit(1)
      .executeTakeFirst();
    return counted === undefined;
  }

  /**
   * The counts per status under one `contains` text on a question not counted per value (with a
   * page, answer filters and a platform at most): from the profiles of the rows the text matches
   * ({@link profilesHolding}: one index, grouped, no application's rows read), the answer and
   * platform filters applied to the profiles. Undefined when they cannot answer (another filter,
   * rows of the question without profiles, a profile that cannot tell an answer filter).
   */
  private async countedFromProfiles(filter: ApplicationFilter): Promise<{ status: string; count: number }[] | undefined> {
    const terms = new Map(
      (filter.contains ?? []).map((term) => {
        const { key, value } = splitAnswerTerm(term)!;
        return [`${key}\u0000${value.trim()}`, { key, text: value.trim() }] as const;
      }),
    );
    if (terms.size !== 1 || !talliesServe({ ...filter, contains: undefined, answer: undefined, platform: undefined })) return undefined;
    const { key, text } = [...terms.values()][0]!;
    const pageId = filter.pageId || undefined;
    if (!(await this.profiled(key, pageId))) return undefined;
    const choices = answerChoices(filter);
    const counts = new Map<string, number>();
    for (const row of await this.profilesHolding(key, text, pageId)) {
      const profile = readAnswerProfile(row.profile);
      const holds = profile && profileHolds(profile, choices, filter.platform);
      if (holds === undefined) return undefined;
      if (holds) counts.set(row.status, (counts.get(row.status) ?? 0) + Number(row.n));
    }
    return [...counts].map(([status, count]) => ({ status, count }));
  }

  /**
   * The counts per status of a filter of answers and `contains` texts (and a page) only, read from
   * the answer rows, which keep their application's status (migration 011): the rows of one term
   * (the answer the fewest gave, from the tallies, else the first text), each other term probed
   * among the same application's rows. Undefined for any other filter: its applications are
   * counted. An application counts once, whichever of its rows match.
   */
  private async countedFromAnswers(filter: ApplicationFilter): Promise<{ status: string; count: number | string | bigint }[] | undefined> {
    if (!talliesServe({ ...filter, answer: undefined, contains: undefined })) return undefined;
    const choices = answerChoices(filter);
    const texts = (filter.contains ?? []).map((term) => {
      const { key, value } = splitAnswerTerm(term)!;
      return { key, text: value.trim() };
    });
    if (choices.size === 0 && texts.length === 0) return undefined;
    const answerHolds = (alias: 'counted' | 'probe', key: string, values: string[]) =>
      sql<boolean>`${sql.ref(`${alias}.key`)} = ${key} and ${sql.ref(`${alias}.value`)} in (${sql.join(values)})`;
    // A text in the row, or past the 200 characters a row keeps, in the application's payload.
    const textHolds = (alias: 'counted' | 'probe', key: string, text: string) => {
      const payload = this.payloadHolds('whole', key, text);
      // On SQLite a probe's `+key` keeps the planner on the application_id index (see matching).
      const keyRef = alias === 'probe' && !this.postgres ? sql`+${sql.ref('probe.key')}` : sql.ref(`${alias}.key`);
      // The long answers of the question whose payload holds the text: a set read once from the
      // partial index of long answers (a correlated probe became, on PostgreSQL, a hashed read of
      // every payload).
      const long = sql`select cut.application_id from application_answers as cut join applications as whole on whole.id = cut.application_id
        where cut.key = ${key} and length(cut.value) >= ${sql.lit(MAX_ANSWER_ROW_LENGTH)} and ${payload}`;
      return sql<boolean>`${keyRef} = ${key} and (${this.textMatch(alias, 'value', text)} or (length(${sql.ref(`${alias}.value`)}) >= ${sql.lit(MAX_ANSWER_ROW_LENGTH)}
        and ${sql.ref(`${alias}.application_id`)} in (${long})))`;
    };
    const driver = choices.size > 0 ? (await this.countPlan({ ...filter, contains: undefined })).answersFrom! : undefined;
    const conditions: RawBuilder<boolean>[] = [];
    if (driver !== undefined) conditions.push(answerHolds('counted', driver, choices.get(driver)!));
    else conditions.push(textHolds('counted', texts[0]!.key, texts[0]!.text));
    if (filter.pageId) conditions.push(sql<boolean>`counted.page_id = ${filter.pageId}`);
    const probe = (holds: RawBuilder<boolean>) =>
      sql<boolean>`exists (select 1 from application_answers as probe where probe.application_id = counted.application_id and ${holds})`;
    for (const [key, values] of choices) if (key !== driver) conditions.push(probe(answerHolds('probe', key, values)));
    for (const [index, { key, text }] of texts.entries()) if (driver !== undefined || index > 0) conditions.push(probe(textHolds('probe', key, text)));
    // One row per application and option: several options of one question, or a text in a
    // multi-select answer's joined row and an option's, may match one application twice.
    // (A distinct set, hashed, then counted: PostgreSQL sorts for a `count(distinct …)`, 7 ms more at 25 000 rows.)
    const where = sql.join(conditions, sql` and `);
    const { rows } = await (
      driver === undefined || choices.get(driver)!.length > 1
        ? sql<{
            status: string;
            count: number | string | bigint;
          }>`select status, count(*) as count from (select distinct counted.application_id, counted.status from application_answers as counted where ${where}) as once group by status`
        : sql<{
            status: string;
            count: number | string | bigint;
          }>`select counted.status as status, count(*) as count from application_answers as counted where ${where} group by counted.status`
    ).execute(this.reads);
    return rows;
  }

  /**
   * How many applications match `filter` in each status, and in all (the list's status tabs);
   * `filter.status` is left out. Read from the tallies when the filter is at most a page and one
   * answer ({@link countingTally}), else one grouped count on the store.
   * @returns a count per status (0 for a status none has) and `all`, their sum.
   */
  async countApplications(filter: ApplicationFilter): Promise<ApplicationCounts> {
    await this.indexed();
    let tally = countingTally(filter);
    // An answer's tally counts the rows counted per value only: a question with rows that are not
    // (free text, tallies.ts) is counted on its answer rows, through their index.
    if (tally?.kind === 'answer' && (await uncountedQuestions(this.reads, [tally.key], filter.pageId)).size > 0) tally = undefined;
    const rows = tally
      ? // A page's applications, or those of one answer, are counted as they come and go (tallies.ts): a few rows, whatever the number of applications.
        await this.reads
          .selectFrom('application_tallies')
          .select(['status', 'n as count'])
          .where('kind', '=', tally.kind)
          .where('key', '=', tally.key)
          .where('value', '=', tally.value)
          .where((eb) => ofPages(eb, filter.pageId))
          .execute()
      : ((await this.countedFromProfiles({ ...filter, status: undefined })) ??
        (await this.countedFromAnswers({ ...filter, status: undefined })) ??
        (await this.matching(
          this.reads.selectFrom('applications').select((eb) => ['status', eb.fn.countAll<number | string | bigint>().as('count')]),
          { ...filter, status: undefined },
          await this.countPlan(filter),
        )
          .groupBy('status')
          .execute()));
    const counts: ApplicationCounts = { new: 0, shortlisted: 0, accepted: 0, declined: 0, all: 0 };
    for (const row of rows) {
      const count = Number(row.count);
      const status = readStatus(row.status);
      counts[status] += count;
      counts.all += count;
    }
    return counts;
  }

  /**
   * One page of applications matching `filter` in `order` (default newest first), after `after`
   * (keyset), each with its sort key (`sortValue`) for the next cursor, and `duplicateOf` filled
   * in when `withDuplicates`.
   */
  async listApplications(
    filter: ApplicationFilter,
    options: { limit: number; after?: ListPosition; withDuplicates?: boolean; order?: ListOrder },
  ): Promise<SortedRow[]> {
    const order = options.order ?? NEWEST_FIRST;
    await this.indexed();
    const rows = await this.sortedPage(filter, options.limit, order, options.after, await this.planFor(filter, order)).execute();
    const items = rows.map((row): SortedRow => {
      const item: SortedRow = toInboxRow(row);
      if (row.sort_value !== null && row.sort_value !== undefined) item.sortValue = isNumericSort(order.sort) ? Number(row.sort_value) : row.sort_value;
      return item;
    });
    if (options.withDuplicates) await this.markDuplicates(items);
    return items;
  }

  /**
   * The applications just before and after `id` in a view (the triage's previous/next on the
   * detail): the view's filters and order, the row's own sort key as the keyset position. Either
   * is absent at an end of the view; undefined when there is no such application. The row itself need
   * not match the filters (it may have been decided out of its tab): its neighbours are those
   * around where it would sort.
   * @returns the ids of the previous and next applications.
   */
  async neighbours(filter: ApplicationFilter, order: ListOrder, id: string): Promise<{ previous?: string; next?: string } | undefined> {
    await this.indexed();
    const column = SORT_COLUMNS[order.sort];
    const row = await this.reads
      .selectFrom('applications')
      .select(['received_at', ...(column ? [sql.ref<string | number>(column).as('sort_value')] : [])] as const)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const value = (row as { sort_value?: string | number }).sort_value;
    const position: ListPosition = {
      receivedAt: row.received_at,
      id,
      ...(value === undefined ? {} : { value: isNumericSort(order.sort) ? Number(value) : value }),
    };
    const reversed: ListOrder = { sort: order.sort, dir: order.dir === 'asc' ? 'desc' : 'asc' };
    const plan = await this.planFor(filter, order);
    const [next, previous] = await Promise.all([
      this.sortedPage(filter, 1, order, position, plan).executeTakeFirst(),
      this.sortedPage(filter, 1, reversed, position, plan).executeTakeFirst(),
    ]);
    return { ...(previous ? { previous: previous.id } : {}), ...(next ? { next: next.id } : {}) };
  }

  /**
   * Every application matching `filter`, newest first (the list's order), for the CSV export:
   * batches of at most `batchRows` rows, each read by one query that seeks the
   * `(received_at, id)` index past the previous batch's last row and returns at once, so no read
   * stays open while the consumer formats or waits for its client (nothing is held between
   * batches: an erasure's scrub, other queries and submissions go on). An application stored
   * after the first page was read is newer than every exported row and is left out; none is
   * exported twice.
   * Stop iterating to stop the export. Unreadable payloads come as in {@link listApplications}.
   * Each row comes with its `tags`, read by one more query per page (none when no
   * application has a tag).
   * @throws the store's error when a batch cannot be read (the iteration ends with it).
   */
  async *exportApplications(filter: ApplicationFilter, batchRows: number) {
    await this.indexed();
    const pageRows = Math.max(batchRows, this.exportRowsPerQuery);
    // The Tags column: read with each page (one query for its ids), and not at all when no
    // application has a tag (asked once per export).
    const tagged = this.db
      .selectFrom('application_tags')
      .select('tag_id')
      .limit(1)
      .executeTakeFirst()
      .then((row) => row !== undefined);
    tagged.catch(() => undefined);
    type Page = { rows: ApplicationRow[]; tags: Map<string, string[]> | undefined };
    const read = (after?: { receivedAt: string; id: string }): Promise<Page> => {
      const page = (async (): Promise<Page> => {
        const rows: ApplicationRow[] = await this.readExportPage(this.page(filter, pageRows, after, 'desc', { scanText: true, probeAnswers: true }).compile());
        const tags = rows.length > 0 && (await tagged) ? await this.tagNames(rows.map((row) => row.id)) : undefined;
        return { rows, tags };
      })();
      // Awaited below, or dropped when the consumer stops first: never an unhandled rejection.
      page.catch(() => undefined);
      return page;
    };
    let next: Promise<Page> | undefined = read();
    while (next) {
      const { rows, tags }: Page = await next;
      const last = rows.at(-1);
      // The next page is asked for before this one is handed over: on PostgreSQL its round trip
      // overlaps the formatting of this one.
      next = rows.length === pageRows && last ? read({ receivedAt: last.received_at, id: last.id }) : undefined;
      for (let start = 0; start < rows.length; start += batchRows) {
        const batch = rows.slice(start, start + batchRows).map(toInboxRow);
        for (const row of batch) row.tags = tags?.get(row.id) ?? [];
        yield batch;
      }
    }
  }

  /**
   * The tags' names of applications (by name, case aside; the CSV's Tags column), by application
   * id, with one query on the primary key of `application_tags`; an application without tags is
   * not in the map.
   */
  private async tagNames(ids: string[]): Promise<Map<string, string[]>> {
    const links = await this.db
      .selectFrom('application_tags')
      .innerJoin('tags', 'tags.id', 'application_tags.tag_id')
      .select(['application_tags.application_id', 'tags.name'])
      .where('application_tags.application_id', 'in', ids)
      .orderBy('tags.name_key')
      .execute();
    const byApplication = new Map<string, string[]>();
    for (const link of links) {
      const names = byApplication.get(link.application_id);
      if (names) names.push(link.name);
      else byApplication.set(link.application_id, [link.name]);
    }
    return byApplication;
  }

  /** Fills `duplicateOf`: the earliest earlier application on the same page sharing the e-mail or a handle. */
  private async markDuplicates(items: InboxRow[]) {
    if (items.length === 0) return;
    // An application's own handles come from its payload: no index on application_id to keep up on every submit.
    const own = items.flatMap((item) => indexedColumns(item.payload).handles.map((handle) => ({ application_id: item.id, ...handle })));
    const sameEmail = await this.reads
      .selectFrom('applications')
      .select(['id', 'page_id', 'email', 'received_at'])
      .where('email', 'in', [...new Set(items.map((item) => item.email))])
      .execute();
    const sameHandle =
      own.length === 0
        ? []
        : await this.reads
            .selectFrom('application_handles')
            .innerJoin('applications', 'applications.id', 'application_handles.application_id')
            .select([
              'applications.id',
              'applications.received_at',
              'application_handles.page_id',
              'application_handles.platform',
              'application_handles.handle',
            ])
            .where('application_handles.handle', 'in', [...new Set(own.map((row) => row.handle))])
            .execute();
    const earlier = (a: { received_at: string; id: string }, b: { receivedAt: string; id: string }) =>
      a.received_at < b.receivedAt || (a.received_at === b.receivedAt && a.id < b.id);
    for (const item of items) {
      const handles = new Set(own.filter((row) => row.application_id === item.id).map((row) => `${row.platform}\u0000${row.handle}`));
      const candidates = [
        ...sameEmail.filter((row) => row.page_id === item.pageId && row.email === item.email),
        ...sameHandle.filter((row) => row.page_id === item.pageId && handles.has(`${row.platform}\u0000${row.handle}`)),
      ].filter((row) => row.id !== item.id && earlier(row, item));
      candidates.sort((a, b) => (earlier(a, { receivedAt: b.received_at, id: b.id }) ? -1 : 1));
      if (candidates[0]) item.duplicateOf = candidates[0].id;
    }
  }

  /**
   * One application with the same creator's earlier applications and its audit log; undefined
   * when absent. Earlier: received before it (or at the same time), on any page, with the same
   * e-mail or the same handle on the same platform (normalised as for duplicates), newest
   * first, at most 100, each saying which matched.
   */
  async getApplication(id: string): Promise<InboxDetailRow | undefined> {
    const row = await this.filtered({}).where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const item = toInboxRow(row);
    await this.markDuplicates([item]);
    const own = indexedColumns(item.payload).handles;
    const ownKeys = new Set(own.map((handle) => `${handle.platform}\u0000${handle.handle}`));
    // Ids of applications naming one of its handles (the handle index, then the platform checked here).
    const byHandle =
      own.length === 0
        ? []
        : (
            await this.db
              .selectFrom('application_handles')
              .select(['application_id', 'platform', 'handle'])
              .where('handle', 'in', [...new Set(own.map((handle) => handle.handle))])
              .where('application_id', '!=', item.id)
              .limit(1000)
              .execute()
          )
            .filter((handle) => ownKeys.has(`${handle.platform}\u0000${handle.handle}`))
            .map((handle) => handle.application_id);
    const handleIds = new Set(byHandle);
    const earlier = await this.db
      .selectFrom('applications')
      .select(['id', 'page_id', 'received_at', 'status', 'email', 'first_name', 'last_name'])
      .where((eb) => (handleIds.size === 0 ? eb('email', '=', item.email) : eb.or([eb('email', '=', item.email), eb('id', 'in', [...handleIds])])))
      .where('id', '!=', item.id)
      .where('received_at', '<=', item.receivedAt)
      .orderBy('received_at', 'desc')
      .orderBy('id', 'desc')
      .limit(100)
      .execute();
    return {
      ...item,
      earlierSubmissions: earlier.map((e) => ({
        id: e.id,
        pageId: e.page_id,
        receivedAt: e.received_at,
        status: readStatus(e.status),
        firstName: e.first_name,
        lastName: e.last_name,
        matchedBy: [...(e.email === item.email ? (['email'] as const) : []), ...(handleIds.has(e.id) ? (['handle'] as const) : [])],
      })),
      audit: await this.audit.of(id),
    };
  }

  /**
   * Sets status and/or note and writes the audit entries (`status`, `note`); undefined when there
   * is no such application. A note changed to a non-blank text is also added to the application's
   * thread as a note by `actor` through the thread's own rule ({@link addNote}: its
   * limit, its `note-added` entry): the column keeps the last one set (the detail's `note`, the
   * CSV's Note), the thread every one.
   * @returns the application; undefined when there is none; `'full'` when the note would pass the
   *   thread's limit (nothing changed, the status neither).
   * @throws the driver's error when the store fails.
   */
  async updateApplication(id: string, patch: ApplicationPatch, actor: string): Promise<InboxRow | 'full' | undefined> {
    return this.db.transaction().execute(async (trx) => {
      // Locked first: a decision made at the same time, or an erasure, waits for this one.
      if ((await lockRows(trx, 'applications', [id])).size === 0) return undefined;
      const current = await trx.selectFrom('applications').select(['status', 'note']).where('id', '=', id).executeTakeFirst();
      if (!current) return undefined;
      const entries: AuditWrite[] = [];
      if (patch.status !== undefined && patch.status !== current.status)
        entries.push({ applicationId: id, actor, action: 'status', from: current.status, to: patch.status });
      // The note's text may name people: the audit says that it changed, not what it says.
      const noteChanged = patch.note !== undefined && patch.note !== current.note;
      if (noteChanged) entries.push({ applicationId: id, actor, action: 'note' });
      if (entries.length > 0) {
        const at = new Date(this.clock()).toISOString();
        // The notes thread (decision 020): the single note stays requirements §17's contract, and what it is set to joins the
        // thread as a note by the one who set it, so the conversation misses nothing written.
        // First, before anything is written: a full thread refuses the whole change.
        if (noteChanged && patch.note!.trim() !== '') {
          const added = await addNote(trx, id, actor, patch.note!, at);
          if (added === 'full') return 'full' as const;
          entries.push(added.entry);
        }
        if (patch.status !== undefined && patch.status !== current.status) await this.moveTallies(trx, [id], patch.status);
        await trx
          .updateTable('applications')
          .set({ ...(patch.status === undefined ? {} : { status: patch.status }), ...(patch.note === undefined ? {} : { note: patch.note }) })
          .where('id', '=', id)
          .execute();
        await this.audit.append(trx, at, entries);
      }
      const row = await trx.selectFrom('applications').select(INBOX_COLUMNS).where('id', '=', id).executeTakeFirstOrThrow();
      return toInboxRow(row);
    });
  }

  /**
   * Moves the tallies of applications (tallies.ts) from their current status to `status`, in
   * `trx`, before their rows change: the status tabs' counts and the summary follow each decision.
   */
  private async moveTallies(trx: Transaction<Database>, ids: readonly string[], status: ApplicationStatus) {
    const changes = new TallyChanges();
    for (const tallied of (await storedTallies(trx, ids)).values()) {
      changes.add(tallied.pageId, tallied.status, tallied.entries, -1);
      changes.add(tallied.pageId, status, tallied.entries, 1);
    }
    await applyTallies(trx, changes);
    // The answer rows keep their application's status (migration 011): the counts read them alone.
    for (const chunk of perStatement(ids)) {
      await trx.updateTable('application_answers').set({ status }).where('application_id', 'in', chunk).where('status', '<>', status).execute();
    }
  }

  /** Sets one status on many applications, one audit entry each; returns how many exist. */
  async setStatuses(ids: string[], status: ApplicationStatus, actor: string) {
    return this.db.transaction().execute(async (trx) => {
      await lockRows(trx, 'applications', ids);
      const found = await trx.selectFrom('applications').select(['id', 'status']).where('id', 'in', ids).execute();
      const changing = found.filter((row) => row.status !== status);
      if (changing.length > 0) {
        await this.moveTallies(
          trx,
          changing.map((row) => row.id),
          status,
        );
        await trx
          .updateTable('applications')
          .set({ status })
          .where(
            'id',
            'in',
            changing.map((row) => row.id),
          )
          .execute();
        await this.audit.append(
          trx,
          new Date(this.clock()).toISOString(),
          changing.map((row) => ({ applicationId: row.id, actor, action: 'status' as const, from: row.status, to: status })),
        );
      }
      return found.length;
    });
  }

  /**
   * Erases an application (GDPR): the row, its handles, its notes and its tags go, an audit entry without personal
   * data stays. Resolves once that has committed; what is left on disk afterwards is removed in
   * the background (docs/decisions/005, {@link flushErasures}).
   * @returns false when there is no such application.
   */
  async eraseApplication(id: string, actor: string) {
    // Its answer rows and search-index entry written first, so they go with it (and nothing this
    // process stored before is written after the erasure's scrub).
    await this.indexed();
    // Every table an application is copied to: its row, its handles (duplicates, platform
    // filter), its answers (answer filters), its notes and tag links. The audit log keeps the id, who erased it and when: nothing the applicant wrote.
    const erased = await this.db.transaction().execute(async (trx) => {
      // Locked first: a decision made at the same time either commits before (its status is the
      // one read here) or finds no application.
      if ((await lockRows(trx, 'applications', [id])).size === 0) return false;
      // What it added to the tallies goes with it (a free-text answer's row too, when it was the only one).
      const tallied = (await storedTallies(trx, [id])).get(id);
      const deleted = await trx.deleteFrom('applications').where('id', '=', id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return false;
      if (tallied) {
        const changes = new TallyChanges();
        changes.add(tallied.pageId, tallied.status, tallied.entries, -1);
        await applyTallies(trx, changes);
      }
      await trx.deleteFrom('application_handles').where('application_id', '=', id).execute();
      await trx.deleteFrom('application_answers').where('application_id', '=', id).execute();
      // Still queued for the answer index (another process stored it): nothing to index any more.
      await trx.deleteFrom('application_index_queue').where('application_id', '=', id).execute();
      // The team's notes may name the applicant, and its tags say what the team made of it.
      await trx.deleteFrom('application_notes').where('application_id', '=', id).execute();
      await trx.deleteFrom('application_tags').where('application_id', '=', id).execute();
      await this.audit.append(trx, new Date(this.clock()).toISOString(), [{ applicationId: id, actor, action: 'erased' }]);
      await this.erasure?.inTransaction(trx);
      return true;
    });
    if (erased) this.erasure?.erased();
    return erased;
  }

  /**
   * Runs the on-disk follow-up of the erasures so far now rather than after its delay, and
   * resolves when it is done: on SQLite no byte of an erased application is left in the database
   * file or its `-wal` (unless another process kept the checkpoint busy: it is then tried again);
   * on PostgreSQL the tables it was stored in have been vacuumed. Never rejects.
   */
  async flushErasures() {
    await this.erasure?.flush();
  }
}
