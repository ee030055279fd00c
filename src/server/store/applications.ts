import { randomFillSync } from 'node:crypto';
import { sql, type Kysely, type SelectQueryBuilder, type Transaction } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import {
  type ApplicationCounts,
  type ApplicationFilter,
  type ApplicationPatch,
  type ApplicationSort,
  type ApplicationStatus,
  type AuditEntry,
  type EarlierSubmission,
  type SortDirection,
} from '../../shared/admin';
import { addMonths, erasureDue, type Retention } from '../../shared/retention';
import { systemClock, type Clock } from '../clock';
import type { ConsentRecord } from '../../shared/consents';
import type { AuditRepository, AuditWrite } from './audit';
import type { ErasureFollowUp } from './erasure-follow-up';
import type { GroupCommit } from './group-commit';
import { ApplicationFilters, NEWEST_FIRST, SORT_COLUMNS, type ListOrder, type MatchPlan } from './application-filters';
import { indexedColumns } from './indexed-columns';
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
import { appendEvents, eraseFromOutbox, statusChanged } from './outbox';
import { eraseFromEmailLog } from './emails';
import { perStatement } from './statements';
import { InboxChanges } from './shared-reads';
import { TallyChanges, applyTallies, countingTally, ofPages, setTalliedQuestions, storedTallies, uncountedQuestions } from './tallies';

/** What the submit route stores. */
export interface NewApplication {
  /** Its id, when it was given one before (a minor's application held for a guardian's consent); a new UUIDv7 otherwise. */
  id?: string | undefined;
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
  /**
   * The consent records made as it is stored (requirements §21), their time its arrival unless they
   * have one (a minor's, given when the application was held); none on a page without consents.
   */
  consents?: readonly (Omit<ConsentRecord, 'at'> & { at?: string | undefined })[] | undefined;
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

/**
 * A keyset position in a sorted list: the last row's sort key (`value`, absent for `received`),
 * time received and id, each compared in the sort's direction.
 */
export interface ListPosition {
  value?: string | number;
  receivedAt: string;
  id: string;
}

/** True for the sorts whose key is a number (the stores read PostgreSQL's `bigint` as text). */
export const isNumericSort = (sort: ApplicationSort) => sort === 'followers' || sort === 'topPlatform';

/** A listed row with its sort key, for the next page's cursor. */
export type SortedRow = InboxRow & { sortValue?: string | number };

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

/** What an {@link ApplicationReader} is opened with (the export's thread: its pages' reader only). */
export interface ApplicationReaderOptions {
  /** How an export reads its pages. */
  exportPages?: ExportPages | undefined;
  /**
   * Where the inbox's lists, counts, neighbours and duplicates are read (default the store's
   * database): on a SQLite file, threads of their own (sqlite-reader.ts).
   */
  reads?: Kysely<Database> | undefined;
  /**
   * The changes of what the inbox reads (shared-reads.ts): the repository records its decisions
   * and erasures there; the store, its batches of submissions, its answer index's follow-ups and the
   * tags' changes; the store's own token tells of other processes'.
   * Default: one of its own.
   */
  changes?: InboxChanges | undefined;
}

/** What an {@link ApplicationRepository} is opened with: what it writes through, besides what it reads with. */
export interface ApplicationRepositoryOptions extends ApplicationReaderOptions {
  /** The submit path's group commit. */
  submissions: GroupCommit;
  /** The audit log the review changes are written to. */
  audit: AuditRepository;
  /** What the store does on disk after an erasure (none: the rows are deleted, nothing more). */
  erasure?: ErasureFollowUp | undefined;
  /** The time now in ms: when an application is received, when a change is audited (default `Date.now`). */
  clock?: Clock | undefined;
}

/**
 * The applications read (requirements §17; docs/decisions/004): the inbox's lists, counts,
 * neighbours, duplicates and exports, and an application by id or Idempotency-Key, on the
 * server's Kysely database (SQLite or PostgreSQL). What a reader alone can do: the export's
 * thread opens one (inbox/export.worker.ts), which has nothing to store, decide or erase with, and
 * so no such method. Routes never touch SQL.
 */
export class ApplicationReader {
  /** See {@link ApplicationReaderOptions.reads}. */
  protected readonly reads: Kysely<Database>;
  private readonly readExportPage: ExportPageReader;
  private readonly exportRowsPerQuery: number;
  private readonly source: ExportSource | undefined;
  /** The inbox's filters as SQL (application-filters.ts), on {@link ApplicationReaderOptions.reads}: also the summary's. */
  readonly filters: ApplicationFilters;
  /** See {@link ApplicationReaderOptions.changes}: the summary shares its reads by it. */
  readonly changes: InboxChanges;

  constructor(
    protected readonly db: Kysely<Database>,
    options: ApplicationReaderOptions = {},
  ) {
    this.reads = options.reads ?? db;
    this.changes = options.changes ?? new InboxChanges();
    this.readExportPage = options.exportPages?.read ?? (async (query) => (await db.executeQuery(query)).rows);
    this.exportRowsPerQuery = options.exportPages?.rowsPerQuery ?? 0;
    this.source = options.exportPages?.source;
    this.filters = new ApplicationFilters(db, this.reads);
  }

  /**
   * Resolves once what this process stored is readable by every read of the inbox (the answer
   * index's follow-up: {@link ApplicationRepository.indexed}); a reader stores nothing: at once.
   */
  indexed(): Promise<void> {
    return Promise.resolve();
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

  protected filtered(filter: ApplicationFilter, plan: MatchPlan = {}) {
    return this.filters.matching(this.reads.selectFrom('applications').select(INBOX_COLUMNS), filter, plan);
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
      : ((await this.filters.countedFromProfiles({ ...filter, status: undefined })) ??
        (await this.filters.countedFromAnswers({ ...filter, status: undefined })) ??
        (await this.filters
          .matching(
            this.reads.selectFrom('applications').select((eb) => ['status', eb.fn.countAll<number | string | bigint>().as('count')]),
            { ...filter, status: undefined },
            await this.filters.countPlan(filter),
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
    const rows = await this.sortedPage(filter, options.limit, order, options.after, await this.filters.planFor(filter, order)).execute();
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
    const plan = await this.filters.planFor(filter, order);
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
    // Consents withdrawn (requirements §21): read with each page the same way, when any was withdrawn at all.
    const withdrawals = this.db
      .selectFrom('consent_withdrawals')
      .select('id')
      .limit(1)
      .executeTakeFirst()
      .then((row) => row !== undefined);
    withdrawals.catch(() => undefined);
    type Page = { rows: ApplicationRow[]; tags: Map<string, string[]> | undefined; withdrawn: Map<string, Record<string, string>> | undefined };
    const read = (after?: { receivedAt: string; id: string }): Promise<Page> => {
      const page = (async (): Promise<Page> => {
        const rows: ApplicationRow[] = await this.readExportPage(this.page(filter, pageRows, after, 'desc', { scanText: true, probeAnswers: true }).compile());
        const tags = rows.length > 0 && (await tagged) ? await this.tagNames(rows.map((row) => row.id)) : undefined;
        const withdrawn = rows.length > 0 && (await withdrawals) ? await this.withdrawnConsents(rows.map((row) => row.id)) : undefined;
        return { rows, tags, withdrawn };
      })();
      // Awaited below, or dropped when the consumer stops first: never an unhandled rejection.
      page.catch(() => undefined);
      return page;
    };
    let next: Promise<Page> | undefined = read();
    while (next) {
      const { rows, tags, withdrawn }: Page = await next;
      const last = rows.at(-1);
      // The next page is asked for before this one is handed over: on PostgreSQL its round trip
      // overlaps the formatting of this one.
      next = rows.length === pageRows && last ? read({ receivedAt: last.received_at, id: last.id }) : undefined;
      for (let start = 0; start < rows.length; start += batchRows) {
        const batch = rows.slice(start, start + batchRows).map(toInboxRow);
        for (const row of batch) {
          row.tags = tags?.get(row.id) ?? [];
          const consents = withdrawn?.get(row.id);
          if (consents) row.withdrawnConsents = consents;
        }
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

  /** The consents withdrawn from applications (the CSV's consent columns say so), by application id: purpose → when (ISO-8601 UTC). */
  private async withdrawnConsents(ids: string[]): Promise<Map<string, Record<string, string>>> {
    const rows = await this.db.selectFrom('consent_withdrawals').select(['application_id', 'purpose', 'at']).where('application_id', 'in', ids).execute();
    const byApplication = new Map<string, Record<string, string>>();
    for (const row of rows) byApplication.set(row.application_id, { ...byApplication.get(row.application_id), [row.purpose]: row.at });
    return byApplication;
  }

  /** Fills `duplicateOf`: the earliest earlier application on the same page sharing the e-mail or a handle. */
  protected async markDuplicates(items: InboxRow[]) {
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
}

/**
 * The applications (requirements §13, §8; docs/decisions/004): what {@link ApplicationReader}
 * reads, and storing them durably as they are submitted (group commit) and the inbox's decisions
 * on them — status, note, erasure, each audited — on the server's Kysely database (SQLite or
 * PostgreSQL). Routes never touch SQL.
 */
export class ApplicationRepository extends ApplicationReader {
  private readonly submissions: GroupCommit;
  private readonly erasure: ErasureFollowUp | undefined;
  private readonly audit: AuditRepository;
  private readonly clock: Clock;

  constructor(db: Kysely<Database>, options: ApplicationRepositoryOptions) {
    super(db, options);
    this.submissions = options.submissions;
    this.erasure = options.erasure;
    this.audit = options.audit;
    this.clock = options.clock ?? systemClock;
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
    const id = application.id ?? uuidv7({ rng: randomBytes16 });
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
      consents: null,
    };
    if (application.consents) row.consents = JSON.stringify(application.consents.map((record) => ({ ...record, at: record.at ?? row.received_at })));
    const children = {
      handles: handles.map((handle) => ({ application_id: id, page_id: application.pageId, ...handle })),
      answers: answers.map((answer) => ({ application_id: id, page_id: application.pageId, ...answer })),
      ...(application.capped ? { slot: true as const } : {}),
    };
    return this.submissions.add(row, children);
  }

  /**
   * Resolves once the answer index (answer-index.ts: answer rows, answer tallies, the search
   * index) holds every application this process stored before the call: every read of the inbox
   * that filters, searches or counts by them waits for it first. At once when it holds them.
   */
  override indexed(): Promise<void> {
    return this.submissions.indexed();
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

  /** The pages that have applications (what the retention sweep goes through). */
  async pageIdsWithApplications(): Promise<string[]> {
    return (await this.db.selectFrom('applications').select('page_id').distinct().execute()).map((row) => row.page_id);
  }

  /**
   * Up to `limit` applications of `pageId` past their time under `retention` at `now` (ms since the
   * epoch; docs/privacy.md, "Retention"): declined ones `declinedMonths` after their decision (the
   * last change of status to declined in the history; their arrival when it has none), the others
   * `otherMonths` after they arrived.
   */
  async expired(pageId: string, retention: Retention, now: number, limit: number): Promise<string[]> {
    const at = new Date(now).toISOString();
    // Months are calendar months: a cut-off three days late finds every candidate, checked exactly below.
    const cutoff = (months: number) => new Date(Date.parse(addMonths(at, -months)) + 3 * 86_400_000).toISOString();
    const decided = sql<
      string | null
    >`(select max(l.at) from audit_log l where l.application_id = applications.id and l.action = 'status' and l.to_value = 'declined')`;
    const declined = await this.db
      .selectFrom('applications')
      .select(['id', 'status', 'received_at', decided.as('decided_at')])
      .where('page_id', '=', pageId)
      .where('status', '=', 'declined')
      // Decided after it arrived: only those that arrived before the cut-off (migration 020's partial index).
      .where('received_at', '<', cutoff(retention.declinedMonths))
      .where(sql<string>`coalesce(${decided}, applications.received_at)`, '<', cutoff(retention.declinedMonths))
      // Oldest decision first: those within the cut-off's three days, not yet due, come last.
      .orderBy(sql`coalesce(${decided}, applications.received_at)`)
      .limit(limit)
      .execute();
    const others = await this.db
      .selectFrom('applications')
      .select(['id', 'status', 'received_at'])
      .where('page_id', '=', pageId)
      .where('status', '!=', 'declined')
      .where('received_at', '<', cutoff(retention.otherMonths))
      .orderBy('received_at')
      .limit(limit)
      .execute();
    const due = [
      ...declined.map((row) => ({ id: row.id, status: row.status, receivedAt: row.received_at, decidedAt: row.decided_at ?? undefined })),
      ...others.map((row) => ({ id: row.id, status: row.status, receivedAt: row.received_at })),
    ];
    return due
      .filter((row) => erasureDue(row, retention) <= at)
      .map((row) => row.id)
      .slice(0, limit);
  }

  /**
   * The applications given under `email` (any case), on every page, oldest first: one person's,
   * as a data-subject request names them (docs/privacy.md). Found through the e-mail index.
   */
  idsByEmail(email: string): Promise<string[]> {
    return this.idsByAddress('email', email);
  }

  /**
   * The minors' applications whose parent or guardian consented as `email` (any case), on every
   * page, oldest first (migration 022's index): theirs to export or erase as a data-subject request
   * names them (docs/privacy.md).
   */
  idsByGuardianEmail(email: string): Promise<string[]> {
    return this.idsByAddress('guardian_email', email);
  }

  /** The applications whose `column` holds `email` (any case: both columns are kept in lower case), oldest first, through that column's index. */
  private async idsByAddress(column: 'email' | 'guardian_email', email: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('applications')
      .select('id')
      .where(column, '=', email.trim().toLowerCase())
      .orderBy('received_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => row.id);
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
    return this.changes.after(
      this.db.transaction().execute(async (trx) => {
        // Locked first: a decision made at the same time, or an erasure, waits for this one.
        if ((await lockRows(trx, 'applications', [id])).size === 0) return undefined;
        const current = await trx.selectFrom('applications').select(['status', 'note', 'page_id']).where('id', '=', id).executeTakeFirst();
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
          if (patch.status !== undefined && patch.status !== current.status) {
            await this.moveTallies(trx, [id], patch.status);
            await appendEvents(trx, [statusChanged(id, current.page_id, current.status, patch.status, at)]);
          }
          await trx
            .updateTable('applications')
            .set({ ...(patch.status === undefined ? {} : { status: patch.status }), ...(patch.note === undefined ? {} : { note: patch.note }) })
            .where('id', '=', id)
            .execute();
          await this.audit.append(trx, at, entries);
        }
        const row = await trx.selectFrom('applications').select(INBOX_COLUMNS).where('id', '=', id).executeTakeFirstOrThrow();
        return toInboxRow(row);
      }),
    );
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
    return this.changes.after(
      this.db.transaction().execute(async (trx) => {
        await lockRows(trx, 'applications', ids);
        const found = await trx.selectFrom('applications').select(['id', 'status', 'page_id']).where('id', 'in', ids).execute();
        const changing = found.filter((row) => row.status !== status);
        if (changing.length > 0) {
          const at = new Date(this.clock()).toISOString();
          await appendEvents(
            trx,
            changing.map((row) => statusChanged(row.id, row.page_id, row.status, status, at)),
          );
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
            at,
            changing.map((row) => ({ applicationId: row.id, actor, action: 'status' as const, from: row.status, to: status })),
          );
        }
        return found.length;
      }),
    );
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
    const erased = await this.changes.after(
      this.db.transaction().execute(async (trx) => {
        // Still queued for the answer index (another process stored it): nothing to index any more.
        // Before the application's lock, as a follow-up takes the queue's entry before it (on
        // PostgreSQL another process's follow-up indexing it now is waited for, never deadlocked with).
        await trx.deleteFrom('application_index_queue').where('application_id', '=', id).execute();
        // Locked first: a decision made at the same time either commits before (its status is the
        // one read here) or finds no application.
        if ((await lockRows(trx, 'applications', [id])).size === 0) return false;
        // What it added to the tallies goes with it (a free-text answer's row too, when it was the only one).
        const tallied = (await storedTallies(trx, [id])).get(id);
        const page = await trx.selectFrom('applications').select('page_id').where('id', '=', id).executeTakeFirst();
        const deleted = await trx.deleteFrom('applications').where('id', '=', id).executeTakeFirst();
        if (!page || Number(deleted.numDeletedRows) === 0) return false;
        // The answer profiles its rows name (migration 029) lose them, and one no row names any more
        // goes: it may hold the applicant's own words. Before the tallies: every writer locks
        // profiles first (postgres-batch-writer.ts), so two transactions never wait on each other.
        const named = await trx
          .selectFrom('application_answers')
          .select((eb) => ['profile_id', eb.fn.countAll<number | string | bigint>().as('n')])
          .where('application_id', '=', id)
          .where('profile_id', 'is not', null)
          .groupBy('profile_id')
          .orderBy('profile_id')
          .execute();
        for (const { profile_id: profileId, n } of named) {
          await trx
            .updateTable('answer_profiles')
            .set({ n: sql`n - ${Number(n)}` })
            .where('id', '=', profileId!)
            .execute();
          await trx.deleteFrom('answer_profiles').where('id', '=', profileId!).where('n', '<=', 0).execute();
        }
        if (tallied) {
          const changes = new TallyChanges();
          changes.add(tallied.pageId, tallied.status, tallied.entries, -1);
          await applyTallies(trx, changes);
        }
        await trx.deleteFrom('application_handles').where('application_id', '=', id).execute();
        await trx.deleteFrom('application_answers').where('application_id', '=', id).execute();
        // The team's notes may name the applicant, and its tags say what the team made of it.
        await trx.deleteFrom('application_notes').where('application_id', '=', id).execute();
        await trx.deleteFrom('application_tags').where('application_id', '=', id).execute();
        await trx.deleteFrom('consent_withdrawals').where('application_id', '=', id).execute();
        const at = new Date(this.clock()).toISOString();
        await this.audit.append(trx, at, [{ applicationId: id, actor, action: 'erased' }]);
        // Erasure reaches the integrations (docs/decisions/025): its events not yet dispatched go,
        // its deliveries not yet sent are cancelled (a full payload could no longer be made, and
        // must not be), and `application.erased` (ids only) is told to endpoints that want it.
        await eraseFromOutbox(trx, id);
        await eraseFromEmailLog(trx, id);
        await appendEvents(trx, [{ type: 'application.erased', occurredAt: at, pageId: page.page_id, applicationId: id, data: {} }]);
        await this.erasure?.inTransaction(trx);
        return true;
      }),
    );
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
