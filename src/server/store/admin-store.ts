import { randomUUID } from 'node:crypto';
import { sql, type CompiledQuery, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { AdminRole, ApplicationFilter, ApplicationPatch, ApplicationStatus, AuditEntry, FunnelEvent } from '../../shared/admin';
import type { Database } from './application-store';
import type { ErasureFollowUp } from './erasure-follow-up';
import { indexedColumns } from './indexed-columns';

/** A user of the brand's inbox. */
export interface AdminUser {
  id: string;
  /** Lower-cased. */
  email: string;
  role: AdminRole;
  /** ISO-8601 UTC. */
  createdAt: string;
}

/** An application as the inbox reads it from the store. */
export interface InboxRow {
  id: string;
  pageId: string;
  receivedAt: string;
  status: ApplicationStatus;
  note: string;
  firstName: string;
  lastName: string;
  /** Lower-cased. */
  email: string;
  countryCode: string;
  payload: unknown;
  /** The earliest other application on the same page with the same e-mail or handle, received before this one. */
  duplicateOf?: string;
  /**
   * Set when the stored payload is not readable JSON (issue 11): `payload` is then rebuilt from the
   * row's indexed columns (names, e-mail, country), so the row is listed and exported with what can be read.
   */
  unreadable?: true;
}

/** One application with what the detail view adds. */
export interface InboxDetailRow extends InboxRow {
  earlierSubmissions: { id: string; pageId: string; receivedAt: string; status: ApplicationStatus }[];
  audit: AuditEntry[];
}

/** Raised by {@link AdminStore.createUser} when the e-mail has an account. */
export class UserExistsError extends Error {
  constructor(email: string) {
    super(`A user with the e-mail ${email} exists already.`);
    this.name = 'UserExistsError';
  }
}

/** Counts of one UTC day and event of a page's funnel (step -1 for events without a step). */
export interface FunnelCount {
  day: string;
  event: FunnelEvent;
  step: number;
  count: number;
}

/** The inbox's storage (issue 7, DESIGN §8); routes never touch SQL. */
export interface AdminStore {
  /** @throws UserExistsError when the e-mail (any case) has an account. */
  createUser(email: string, passwordHash: string, role: AdminRole): Promise<AdminUser>;
  /** Replaces a password hash and ends the user's sessions; false when there is no such user. */
  setPasswordHash(email: string, passwordHash: string): Promise<boolean>;
  listUsers(): Promise<AdminUser[]>;
  /** Deletes a user and their sessions; false when there is no such user. */
  deleteUser(email: string): Promise<boolean>;
  /** The user and password hash for a sign-in, by e-mail (any case). */
  findUserForSignIn(email: string): Promise<{ user: AdminUser; passwordHash: string } | undefined>;

  /** Stores a session by the SHA-256 of its token; `expiresAt` ISO-8601. */
  createSession(tokenHash: string, userId: string, createdAt: string, expiresAt: string): Promise<void>;
  /** The session's user while `now` is before its expiry (ISO-8601 times). */
  findSession(tokenHash: string, now: string): Promise<{ user: AdminUser; createdAt: string; expiresAt: string } | undefined>;
  extendSession(tokenHash: string, expiresAt: string): Promise<void>;
  deleteSession(tokenHash: string): Promise<void>;

  /**
   * Counts a sign-in attempt before its password is checked (issue 11): stores one row per key
   * (`account:<email>`, `address:<ip>`) under a new attempt id, then counts each key's rows since
   * `since` — this attempt and every other one stored before it, in any process. Each attempt's
   * insert commits before its count, so the n-th of many simultaneous attempts counts at least n:
   * no more than the limit are ever let through to the password check.
   * @param at - this attempt's time, ISO-8601; rows older than a day are dropped on the way.
   * @returns the attempt's id, and per key the count (this attempt included) and the oldest time.
   */
  countSignInAttempt(keys: string[], at: string, since: string): Promise<{ attemptId: string; counts: Map<string, { count: number; oldest: string }> }>;
  /** Takes an attempt back (it was blocked, or its password was right): only failures keep counting. */
  forgetSignInAttempt(attemptId: string): Promise<void>;

  /**
   * One page of applications matching `filter`, newest first, after `after` (keyset), with
   * `duplicateOf` filled in when `withDuplicates`.
   */
  listApplications(
    filter: ApplicationFilter,
    options: { limit: number; after?: { receivedAt: string; id: string }; withDuplicates?: boolean },
  ): Promise<InboxRow[]>;
  /**
   * Every application matching `filter`, newest first (the list's order), for the CSV export
   * (issue 12): batches of at most `batchRows` rows, each read by one query that seeks the
   * `(received_at, id)` index past the previous batch's last row and returns at once, so no read
   * stays open while the consumer formats or waits for its client (nothing is held between
   * batches: an erasure's scrub, other queries and submissions go on). An application stored
   * after the first page was read is newer than every exported row and is left out; none is
   * exported twice.
   * Stop iterating to stop the export. Unreadable payloads come as in {@link listApplications}.
   * @throws the store's error when a batch cannot be read (the iteration ends with it).
   */
  exportApplications(filter: ApplicationFilter, batchRows: number): AsyncIterable<InboxRow[]>;
  /**
   * Where a thread of its own can run {@link exportApplications} on a connection of its own
   * (issue 12, docs/decisions/014), or undefined when only this thread can (an in-memory database).
   */
  exportSource?(): ExportSource | undefined;
  /** One application with its earlier submissions (same e-mail) and audit log; undefined when absent. */
  getApplication(id: string): Promise<InboxDetailRow | undefined>;
  /** Sets status and/or note and writes the audit entries; undefined when there is no such application. */
  updateApplication(id: string, patch: ApplicationPatch, actor: string): Promise<InboxRow | undefined>;
  /** Sets one status on many applications, one audit entry each; returns how many exist. */
  setStatuses(ids: string[], status: ApplicationStatus, actor: string): Promise<number>;
  /**
   * Erases an application (GDPR): the row and its handles go, an audit entry without personal
   * data stays. Resolves once that has committed; what is left on disk afterwards is removed in
   * the background (issue 11; docs/decisions/005, {@link AdminStore.flushErasures}).
   * @returns false when there is no such application.
   */
  eraseApplication(id: string, actor: string): Promise<boolean>;
  /**
   * Runs the on-disk follow-up of the erasures so far now rather than after its delay, and
   * resolves when it is done: on SQLite no byte of an erased application is left in the database
   * file or its `-wal` (unless another process kept the checkpoint busy: it is then tried again);
   * on PostgreSQL the tables it was stored in have been vacuumed. Never rejects.
   */
  flushErasures(): Promise<void>;

  /** Counts one funnel event (kept in memory, written at most a second later). */
  recordFunnelEvent(pageId: string, day: string, event: FunnelEvent, step: number): void;
  /** A page's funnel counts for UTC days `from`–`to` inclusive (YYYY-MM-DD). */
  funnelCounts(pageId: string, from: string, to: string): Promise<FunnelCount[]>;
  /** Writes the funnel counts still in memory. */
  flush(): Promise<void>;
}

type UserRow = Database['admin_users'];
const toUser = (row: Pick<UserRow, 'id' | 'email' | 'role' | 'created_at'>): AdminUser => ({
  id: row.id,
  email: row.email,
  role: row.role as AdminRole,
  createdAt: row.created_at,
});

interface PendingFunnelCount {
  pageId: string;
  day: string;
  event: FunnelEvent;
  step: number;
  count: number;
}

/** How often funnel counts held in memory are written, in ms. */
const FUNNEL_FLUSH_MS = 1000;

/** The `applications` columns an {@link InboxRow} is read from (and an export reads, in this order). */
export const INBOX_COLUMNS = ['id', 'page_id', 'received_at', 'status', 'note', 'first_name', 'last_name', 'email', 'country_code', 'payload'] as const;

/** `%`, `_` and `\` taken literally in a `like … escape '\'` pattern. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * An audit entry's id: its time, its place among the entries written at that
 * time, and randomness — so ordering by id is ordering by when, then by what came first.
 */
const auditId = (at: string, index: number) => `${at}#${String(index).padStart(4, '0')}#${randomUUID().slice(0, 8)}`;

/** Exclusive end of a UTC day: `2026-11-22` → `2026-11-23T00:00:00.000Z`. */
const dayEnd = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

/**
 * Runs one page query of an export and resolves with its rows (see {@link AdminStore.exportApplications}).
 * SQLite's reads it with a prepared statement on a read-only connection of its own.
 */
export type ExportPageReader = (query: CompiledQuery<ApplicationRow>) => Promise<ApplicationRow[]>;

/**
 * Where an export's thread opens its own connection (issue 12, docs/decisions/014): a SQLite file
 * (opened read-only), or a PostgreSQL URL with the store's query timeout in ms. Plain data: it is
 * sent to the thread as it is.
 */
export type ExportLocation = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string; queryTimeoutMs?: number | undefined };

/** What {@link AdminStore.exportSource} tells an export run in a thread of its own. */
export interface ExportSource {
  location: ExportLocation;
  /**
   * Resolves when the next page may be read: at once, or (SQLite) once an erasure's scrub, which
   * needs every connection of the file idle, is done. Never rejects.
   */
  whenReadable(): Promise<void>;
}

/** How an export reads its pages (see {@link AdminStore.exportApplications}). */
export interface ExportPages {
  /** Runs a page query (default: through Kysely, as every other query). */
  read?: ExportPageReader;
  /**
   * Rows per page query, each page handed over in batches of the size asked for (default: one
   * batch a query). A reader that waits for a server (PostgreSQL) takes larger pages: one round
   * trip per 500 rows made an export wait for the database more than it worked. A synchronous
   * reader (SQLite) keeps pages of one batch, since it holds the event loop for a whole page.
   */
  rowsPerQuery?: number;
  /** What {@link KyselyAdminStore.exportSource} answers (default: none, exports run on the caller's thread). */
  source?: ExportSource | undefined;
}

/** The {@link AdminStore} over the server's Kysely database (SQLite or PostgreSQL). */
export class KyselyAdminStore implements AdminStore {
  private funnel = new Map<string, PendingFunnelCount>();
  private funnelTimer: NodeJS.Timeout | undefined;
  private readonly readExportPage: ExportPageReader;
  private readonly exportRowsPerQuery: number;
  private readonly source: ExportSource | undefined;

  /**
   * @param erasure - what the store does on disk after an erasure (none: the rows are deleted, nothing more).
   * @param exportPages - how an export reads its pages.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly erasure?: ErasureFollowUp,
    exportPages: ExportPages = {},
  ) {
    this.readExportPage = exportPages.read ?? (async (query) => (await db.executeQuery(query)).rows);
    this.exportRowsPerQuery = exportPages.rowsPerQuery ?? 0;
    this.source = exportPages.source;
  }

  exportSource() {
    return this.source;
  }

  async createUser(email: string, passwordHash: string, role: AdminRole) {
    const row = { id: randomUUID(), email: email.toLowerCase(), password_hash: passwordHash, role, created_at: new Date().toISOString() };
    const result = await this.db
      .insertInto('admin_users')
      .values(row)
      .onConflict((conflict) => conflict.column('email').doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) throw new UserExistsError(row.email);
    return toUser(row);
  }

  async setPasswordHash(email: string, passwordHash: string) {
    return this.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('admin_users').select('id').where('email', '=', email.toLowerCase()).executeTakeFirst();
      if (!user) return false;
      await trx.updateTable('admin_users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute();
      await trx.deleteFrom('admin_sessions').where('user_id', '=', user.id).execute();
      return true;
    });
  }

  async listUsers() {
    const rows = await this.db.selectFrom('admin_users').select(['id', 'email', 'role', 'created_at']).orderBy('email').execute();
    return rows.map(toUser);
  }

  async deleteUser(email: string) {
    return this.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('admin_users').select('id').where('email', '=', email.toLowerCase()).executeTakeFirst();
      if (!user) return false;
      await trx.deleteFrom('admin_sessions').where('user_id', '=', user.id).execute();
      await trx.deleteFrom('admin_users').where('id', '=', user.id).execute();
      return true;
    });
  }

  async findUserForSignIn(email: string) {
    const row = await this.db.selectFrom('admin_users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
    return row ? { user: toUser(row), passwordHash: row.password_hash } : undefined;
  }

  async createSession(tokenHash: string, userId: string, createdAt: string, expiresAt: string) {
    await this.db.insertInto('admin_sessions').values({ id: tokenHash, user_id: userId, created_at: createdAt, expires_at: expiresAt }).execute();
  }

  async findSession(tokenHash: string, now: string) {
    const row = await this.db
      .selectFrom('admin_sessions')
      .innerJoin('admin_users', 'admin_users.id', 'admin_sessions.user_id')
      .select([
        'admin_users.id',
        'admin_users.email',
        'admin_users.role',
        'admin_users.created_at',
        'admin_sessions.created_at as session_created_at',
        'admin_sessions.expires_at',
      ])
      .where('admin_sessions.id', '=', tokenHash)
      .where('admin_sessions.expires_at', '>', now)
      .executeTakeFirst();
    return row ? { user: toUser(row), createdAt: row.session_created_at, expiresAt: row.expires_at } : undefined;
  }

  async extendSession(tokenHash: string, expiresAt: string) {
    await this.db.updateTable('admin_sessions').set({ expires_at: expiresAt }).where('id', '=', tokenHash).execute();
  }

  async deleteSession(tokenHash: string) {
    await this.db.deleteFrom('admin_sessions').where('id', '=', tokenHash).execute();
  }

  async countSignInAttempt(keys: string[], at: string, since: string) {
    const attemptId = randomUUID();
    await this.db.insertInto('sign_in_failures').values(keys.map((key) => ({ key, at, attempt_id: attemptId }))).execute();
    const rows = await this.db
      .selectFrom('sign_in_failures')
      .select(['key', (eb) => eb.fn.countAll<string | number>().as('count'), (eb) => eb.fn.min('at').as('oldest')])
      .where('key', 'in', keys)
      .where('at', '>', since)
      .groupBy('key')
      .execute();
    // Old attempts mean nothing after a day: keep the table small.
    await this.db.deleteFrom('sign_in_failures').where('at', '<', new Date(Date.parse(at) - 86_400_000).toISOString()).execute();
    return { attemptId, counts: new Map(rows.map((row) => [row.key, { count: Number(row.count), oldest: String(row.oldest) }])) };
  }

  async forgetSignInAttempt(attemptId: string) {
    await this.db.deleteFrom('sign_in_failures').where('attempt_id', '=', attemptId).execute();
  }

  private filtered(filter: ApplicationFilter) {
    let query = this.db
      .selectFrom('applications')
      .select(INBOX_COLUMNS);
    // `page_id || ''` keeps the planner off the (page_id, idempotency_key) index: with it, SQLite
    // read every row of the page and sorted them for each page of a list or export (0.15 s a page
    // at 100 000 applications, issue 12), where walking the (received_at, id) index stops after a
    // page. A server serves one page configuration, so its filter matches most rows.
    if (filter.pageId) query = query.where(sql<string>`${sql.ref('page_id')} || ''`, '=', filter.pageId);
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.country) query = query.where('country_code', '=', filter.country);
    if (filter.platform) query = query.where('platform_names', 'like', `%,${filter.platform},%`);
    if (filter.from) query = query.where('received_at', '>=', `${filter.from}T00:00:00.000Z`);
    if (filter.to) query = query.where('received_at', '<', dayEnd(filter.to));
    const q = filter.q?.trim().toLowerCase();
    if (q) query = query.where(sql<boolean>`search_text like ${`%${likeLiteral(q)}%`} escape '\\'`);
    return query;
  }

  /** A page of `filter`'s applications, newest first, after `after` (keyset on the `(received_at, id)` index). */
  private page(filter: ApplicationFilter, limit: number, after?: { receivedAt: string; id: string }) {
    let query: SelectQueryBuilder<Database, 'applications', ApplicationRow> = this.filtered(filter);
    // A row value: both stores seek the index to the cursor. Spelt as `received_at < ? or
    // (received_at = ? and id < ?)`, SQLite scanned the index from its newest entry for every page
    // and PostgreSQL gathered and sorted every older row: an export of 100 000 rows read ~10 million
    // index entries (issue 12).
    if (after) query = query.where((eb) => eb(eb.refTuple('received_at', 'id'), '<', eb.tuple(after.receivedAt, after.id)));
    return query.orderBy('received_at', 'desc').orderBy('id', 'desc').limit(limit);
  }

  async listApplications(
    filter: ApplicationFilter,
    options: { limit: number; after?: { receivedAt: string; id: string }; withDuplicates?: boolean },
  ) {
    const rows = await this.page(filter, options.limit, options.after).execute();
    const items = rows.map(toInboxRow);
    if (options.withDuplicates) await this.markDuplicates(items);
    return items;
  }

  async *exportApplications(filter: ApplicationFilter, batchRows: number) {
    const pageRows = Math.max(batchRows, this.exportRowsPerQuery);
    const read = (after?: { receivedAt: string; id: string }) => {
      const rows: Promise<ApplicationRow[]> = this.readExportPage(this.page(filter, pageRows, after).compile());
      // Awaited below, or dropped when the consumer stops first: never an unhandled rejection.
      rows.catch(() => undefined);
      return rows;
    };
    let next: Promise<ApplicationRow[]> | undefined = read();
    while (next) {
      const rows: ApplicationRow[] = await next;
      const last = rows.at(-1);
      // The next page is asked for before this one is handed over: on PostgreSQL its round trip
      // overlaps the formatting of this one.
      next = rows.length === pageRows && last ? read({ receivedAt: last.received_at, id: last.id }) : undefined;
      for (let start = 0; start < rows.length; start += batchRows) yield rows.slice(start, start + batchRows).map(toInboxRow);
    }
  }

  /** Fills `duplicateOf`: the earliest earlier application on the same page sharing the e-mail or a handle. */
  private async markDuplicates(items: InboxRow[]) {
    if (items.length === 0) return;
    // An application's own handles come from its payload: no index on application_id to keep up on every submit.
    const own = items.flatMap((item) => indexedColumns(item.payload).handles.map((handle) => ({ application_id: item.id, ...handle })));
    const sameEmail = await this.db
      .selectFrom('applications')
      .select(['id', 'page_id', 'email', 'received_at'])
      .where('email', 'in', [...new Set(items.map((item) => item.email))])
      .execute();
    const sameHandle =
      own.length === 0
        ? []
        : await this.db
            .selectFrom('application_handles')
            .innerJoin('applications', 'applications.id', 'application_handles.application_id')
            .select(['applications.id', 'applications.received_at', 'application_handles.page_id', 'application_handles.platform', 'application_handles.handle'])
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

  async getApplication(id: string) {
    const row = await this.filtered({}).where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const item = toInboxRow(row);
    await this.markDuplicates([item]);
    const earlier = await this.db
      .selectFrom('applications')
      .select(['id', 'page_id', 'received_at', 'status'])
      .where('email', '=', item.email)
      .where('id', '!=', item.id)
      .where('received_at', '<=', item.receivedAt)
      .orderBy('received_at', 'desc')
      .limit(100)
      .execute();
    return {
      ...item,
      earlierSubmissions: earlier.map((e) => ({ id: e.id, pageId: e.page_id, receivedAt: e.received_at, status: e.status as ApplicationStatus })),
      audit: await this.auditOf(id),
    };
  }

  private async auditOf(id: string): Promise<AuditEntry[]> {
    const rows = await this.db.selectFrom('audit_log').selectAll().where('application_id', '=', id).orderBy('id').execute();
    return rows.map((row) => ({
      at: row.at,
      actor: row.actor,
      action: row.action as AuditEntry['action'],
      ...(row.from_value === null ? {} : { from: row.from_value }),
      ...(row.to_value === null ? {} : { to: row.to_value }),
    }));
  }

  async updateApplication(id: string, patch: ApplicationPatch, actor: string) {
    return this.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('applications').select(['status', 'note']).where('id', '=', id).executeTakeFirst();
      if (!current) return undefined;
      const at = new Date().toISOString();
      const entries: Database['audit_log'][] = [];
      const entry = (action: AuditEntry['action'], from: string | null, to: string | null) =>
        entries.push({ id: auditId(at, entries.length), application_id: id, at, actor, action, from_value: from, to_value: to });
      if (patch.status !== undefined && patch.status !== current.status) entry('status', current.status, patch.status);
      // The note's text may name people: the audit says that it changed, not what it says.
      if (patch.note !== undefined && patch.note !== current.note) entry('note', null, null);
      if (entries.length > 0) {
        await trx
          .updateTable('applications')
          .set({ ...(patch.status === undefined ? {} : { status: patch.status }), ...(patch.note === undefined ? {} : { note: patch.note }) })
          .where('id', '=', id)
          .execute();
        await trx.insertInto('audit_log').values(entries).execute();
      }
      const row = await trx
        .selectFrom('applications')
        .select(INBOX_COLUMNS)
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return toInboxRow(row);
    });
  }

  async setStatuses(ids: string[], status: ApplicationStatus, actor: string) {
    return this.db.transaction().execute(async (trx) => {
      const found = await trx.selectFrom('applications').select(['id', 'status']).where('id', 'in', ids).execute();
      const changing = found.filter((row) => row.status !== status);
      if (changing.length > 0) {
        const at = new Date().toISOString();
        await trx
          .updateTable('applications')
          .set({ status })
          .where('id', 'in', changing.map((row) => row.id))
          .execute();
        await trx
          .insertInto('audit_log')
          .values(changing.map((row, index) => ({ id: auditId(at, index), application_id: row.id, at, actor, action: 'status', from_value: row.status, to_value: status })))
          .execute();
      }
      return found.length;
    });
  }

  async eraseApplication(id: string, actor: string) {
    // Every table an application is copied to: its row, and its handles (duplicates, platform
    // filter). The audit log keeps the id, who erased it and when: nothing the applicant wrote.
    const erased = await this.db.transaction().execute(async (trx) => {
      const deleted = await trx.deleteFrom('applications').where('id', '=', id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return false;
      await trx.deleteFrom('application_handles').where('application_id', '=', id).execute();
      await trx
        .insertInto('audit_log')
        .values(((at) => ({ id: auditId(at, 0), application_id: id, at, actor, action: 'erased', from_value: null, to_value: null }))(new Date().toISOString()))
        .execute();
      await this.erasure?.inTransaction(trx);
      return true;
    });
    if (erased) this.erasure?.erased();
    return erased;
  }

  async flushErasures() {
    await this.erasure?.flush();
  }

  recordFunnelEvent(pageId: string, day: string, event: FunnelEvent, step: number) {
    this.addFunnelCount({ pageId, day, event, step, count: 1 });
  }

  private addFunnelCount(count: PendingFunnelCount) {
    const key = `${count.pageId}\u0000${count.day}\u0000${count.event}\u0000${count.step}`;
    const entry = this.funnel.get(key);
    if (entry) entry.count += count.count;
    else this.funnel.set(key, { ...count });
    this.funnelTimer ??= setTimeout(() => void this.flush().catch(() => undefined), FUNNEL_FLUSH_MS).unref();
  }

  async flush() {
    clearTimeout(this.funnelTimer);
    this.funnelTimer = undefined;
    const counts = [...this.funnel.values()];
    this.funnel = new Map();
    if (counts.length === 0) return;
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const count of counts) {
          await trx
            .insertInto('funnel_counts')
            .values({ page_id: count.pageId, day: count.day, event: count.event, step: count.step, count: count.count })
            .onConflict((conflict) =>
              conflict.columns(['page_id', 'day', 'event', 'step']).doUpdateSet({ count: sql<number>`funnel_counts.count + ${count.count}` }),
            )
            .execute();
        }
      });
    } catch (error) {
      // Keep the counts for the next attempt (the store may be back by then).
      for (const count of counts) this.addFunnelCount(count);
      throw error;
    }
  }

  async funnelCounts(pageId: string, from: string, to: string) {
    await this.flush();
    const rows = await this.db
      .selectFrom('funnel_counts')
      .select(['day', 'event', 'step', 'count'])
      .where('page_id', '=', pageId)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .execute();
    return rows.map((row) => ({ day: row.day, event: row.event as FunnelEvent, step: Number(row.step), count: Number(row.count) }));
  }
}

/** The `applications` columns the inbox reads ({@link INBOX_COLUMNS}). */
export type ApplicationRow = Pick<Database['applications'], (typeof INBOX_COLUMNS)[number]>;

/** An {@link ApplicationRow} from its values in {@link INBOX_COLUMNS} order (a SQLite row read as an array). */
export function applicationRowFromValues(values: readonly string[]): ApplicationRow {
  const [id, page_id, received_at, status, note, first_name, last_name, email, country_code, payload] = values as [string, string, string, string, string, string, string, string, string, string];
  return { id, page_id, received_at, status, note, first_name, last_name, email, country_code, payload };
}

/**
 * A stored payload as a JSON object, or undefined when it cannot be read. A leading byte-order mark (kept
 * by servers before issue 11) is skipped: such a row reads back whole.
 */
function readPayload(text: string): unknown {
  try {
    const payload = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown;
    // Only an object is an application: `null` or `[]` is as unreadable as broken text.
    return typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? payload : undefined;
  } catch {
    return undefined;
  }
}

/** The inbox never trusts its own rows (issue 11): an unreadable payload marks one row, never fails a page. */
function toInboxRow(row: ApplicationRow): InboxRow {
  const payload = readPayload(row.payload);
  // An object literal rather than spreads: an export builds 100 000 of these at a time (issue 12).
  const inbox: InboxRow = {
    id: row.id,
    pageId: row.page_id,
    receivedAt: row.received_at,
    status: row.status as ApplicationStatus,
    note: row.note,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    countryCode: row.country_code,
    // An unreadable row shows what its indexed columns still say.
    payload: payload ?? {
      personalInfo: { firstName: row.first_name, lastName: row.last_name, emailAddress: row.email, ...(row.country_code ? { countryCode: row.country_code } : {}) },
    },
  };
  if (payload === undefined) inbox.unreadable = true;
  return inbox;
}
