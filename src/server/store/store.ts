import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import { systemClock, type Clock } from '../clock';
import { ApplicationRepository } from './applications';
import { AuditRepository } from './audit';
import { openConnection, parseDatabaseUrl, queryLog, DEFAULT_QUERY_TIMEOUT_MS, type Connection } from './connection';
import { createPostgresPool } from './postgres-pool';
import { PostgresErasureVacuum, SqliteErasureScrub, type ErasureFollowUp } from './erasure-follow-up';
import { POSTGRES_EXPORT_ROWS_PER_QUERY, postgresExportReader, sqliteExportReader } from './export-readers';
import { FunnelRepository } from './funnel';
import { NoteRepository } from './notes';
import { PageChanges } from './page-notify';
import { PageRepository } from './pages';
import { TagRepository } from './tags';
import { ANSWER_INDEX_SWEEP_MS } from './answer-index';
import { GroupCommit, type BatchWrite, type IndexWrite } from './group-commit';
import { InboxChanges, type StoreChanges } from './shared-reads';
import type { Database } from './schema';
import type { ApplicationRow, ExportPageReader, ExportPages } from './inbox-rows';
import { postgresBatchWriter } from './postgres-batch-writer';
import { PostgresRateLimitCounter, type RateLimitCounter } from './rate-limits';
import { SecretRepository } from './secrets';
import { SavedViewRepository } from './saved-views';
import { GuardianRepository } from './guardians';
import { ResumeDraftRepository } from './resume-drafts';
import { ConsentRepository } from './consents';
import { needsScrub, openDurableDatabase, openReadOnlyDatabase, scrubDatabase } from './sqlite-file';
import { sqliteReads } from './sqlite-reader';
import { SqliteWriter } from './sqlite-writer';
import { SummaryRepository } from './summary';
import { UserRepository } from './users';
import { TeamRepository } from './team';
import { WebhookRepository } from './webhooks';
import { EmailRepository } from './emails';
import { WriteReadiness, type WriteCheck } from './write-readiness';

/**
 * The server's storage (requirements §13, §8): one repository per aggregate on one database. Routes
 * reach it through the `store` decorator and never touch SQL.
 */
export interface Store {
  /** Applications: the submit path, and the inbox's reads and decisions. */
  readonly applications: ApplicationRepository;
  /** The inbox's users, sessions and sign-in attempts. */
  readonly users: UserRepository;
  /** The team: roles, invitations, password resets, second factors, settings and its audit log. */
  readonly team: TeamRepository;
  /** What each inbox user changed, and when. */
  readonly audit: AuditRepository;
  /** The team's notes on each application, a thread. */
  readonly notes: NoteRepository;
  /** The tags the team defines, and which applications carry them. */
  readonly tags: TagRepository;
  /** Campaign pages: drafts, published versions, status, dates, caps and host names. */
  readonly pages: PageRepository;
  /** The wizard's anonymous funnel counts. */
  readonly funnel: FunnelRepository;
  /** The summary view's aggregates over the applications a filter matches. */
  readonly summary: SummaryRepository;
  /**
   * Request counts shared by every server process on the database (PostgreSQL; decision 006).
   * Undefined on SQLite, which one process uses: its counts stay in that process's memory.
   */
  readonly rateLimits?: RateLimitCounter | undefined;
  /**
   * Page changes announced to every server process on the database (PostgreSQL `LISTEN`/`NOTIFY`,
   * decision 021). Undefined on SQLite, which one process serves.
   */
  readonly pageChanges?: PageChanges | undefined;
  /** Secrets the server generated for itself (the anti-forgery key when `SECRET` is not set). */
  readonly secrets: SecretRepository;
  /** Each inbox user's saved list views. */
  readonly views: SavedViewRepository;
  /** The team's webhook endpoints, their deliveries and the outbox's dispatch (docs/decisions/025). */
  readonly webhooks: WebhookRepository;
  /** The e-mail the product sends, its log and the team's notification settings (docs/decisions/026). */
  readonly emails: EmailRepository;
  /** Minors' applications held for a parent's or guardian's consent (requirements §20). */
  readonly guardians: GuardianRepository;
  /** Consent records and their withdrawals (requirements §21). */
  readonly consents: ConsentRepository;
  /** The drafts applicants asked to continue on another device (requirements §22). */
  readonly resumeDrafts: ResumeDraftRepository;
  /** Resolves when the store answers a query (readiness). */
  ping(): Promise<void>;
  /**
   * Whether the store takes applications now (readiness, beside {@link Store.ping}; docs/decisions/008,
   * "A full disk, as the operator lives it"): ready while the last batch of applications committed;
   * after one the store refused (a full disk, an I/O error, PostgreSQL's disk_full), ready again
   * only once a probe write commits ({@link WriteReadiness}). A healthy store is not written to.
   * @returns `{ ready: false, failure }` with the store's last error (for the log) while writes fail.
   */
  canTakeApplications(): Promise<WriteCheck>;
  /** Writes what is queued (submissions, funnel counts, erasures' follow-ups), then closes every connection. */
  close(): Promise<void>;
}

/**
 * Opens the store for a `DATABASE_URL` and runs pending migrations.
 * `sqlite:./data/applications.db` (or a plain file path) opens SQLite in WAL
 * mode with `synchronous=FULL`, so an acknowledged application survives a
 * crash or power loss; `postgres://…` opens a pg pool (PostgreSQL commits are
 * durable before they are acknowledged).
 * @param options.sqliteWriterThread - SQLite: write submissions in a thread of their own
 *   (default: when the process has more than one core).
 * @param options.scrubOnOpen - SQLite: before returning, scrub a file that may still hold
 *   deleted data (written before erasures were scrubbed, or erased from and not scrubbed since:
 *   docs/decisions/005). Default true; false for a short-lived command that may run beside the
 *   server, since the scrub holds the file's write lock for seconds on a large file.
 * @param options.queryTimeoutMs - PostgreSQL: a query unanswered this long fails (as the store
 *   being unavailable) and its connection is dropped, so a silent network never holds a request
 *   for ever. Default {@link DEFAULT_QUERY_TIMEOUT_MS}.
 * @param options.clock - the time now in ms (default `Date.now`): when applications are received,
 *   users created and changes audited (tests give each application its own time without waiting).
 * @param options.onQuery - called with every statement the store runs once migrated, with its
 *   parameters (SQLite's submit writer inlines them: `parameters` is then empty). For tests that
 *   check query plans; SQLite's submit writer then runs on the calling thread.
 * @throws Error naming DATABASE_URL when the URL is not supported or the migration fails.
 */
export async function openStore(
  databaseUrl: string,
  options: {
    sqliteWriterThread?: boolean;
    scrubOnOpen?: boolean;
    queryTimeoutMs?: number;
    onQuery?: (sql: string, parameters: readonly unknown[]) => void;
    clock?: Clock;
  } = {},
): Promise<Store> {
  const queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  const connection = await openConnection(parseDatabaseUrl(databaseUrl), { queryTimeoutMs, onQuery: options.onQuery });
  // A file's submissions are written by a writer of their own (an in-memory database has one connection).
  if (connection.sqlite && connection.location.file !== ':memory:' && options.scrubOnOpen !== false) scrubIfNeeded(connection.location.file);
  return new DatabaseStore(connection, { ...options, queryTimeoutMs });
}

/**
 * Before a SQLite file is served: a file written before the store scrubbed after erasures (its
 * free pages may still hold deleted rows: old notes, applications erased then), or one erased
 * from and not scrubbed since (the process ended first, or another process kept the checkpoint
 * busy), is scrubbed now, once (docs/decisions/005): 2 to 6 s at 100 000 applications here.
 * A failure is not fatal: the file stays marked and the next start or erasure tries again.
 */
function scrubIfNeeded(file: string) {
  let needed: boolean;
  const probe = openDurableDatabase(file);
  try {
    needed = needsScrub(probe);
  } finally {
    probe.close();
  }
  if (!needed) return;
  try {
    scrubDatabase(file);
  } catch {
    // Serving matters more; the mark stays for the next start or erasure.
  }
}

/**
 * How often SQLite's `pragma optimize` looks for tables whose statistics are out of date: 10 min
 * (SQLite's advice is every few hours; a store that opened empty and filled since has none, and its
 * reads chose poor plans until then). Each look costs a few ms, nothing when no table grew much.
 */
const STATISTICS_INTERVAL_MS = 600_000;

/** The tables of the search box's FTS5 index (migration 010): `applications_search_data`, `_idx`, `_config`, …. */
const FTS_TABLES = "tbl like 'applications\\_search\\_%' escape '\\'";

/**
 * Gathers SQLite's planner statistics (`pragma optimize`, with `mask` when given), then forgets
 * those of the search index's own FTS5 tables ({@link FTS_TABLES}). FTS5 reads and writes them by
 * key, and statistics taken while they were small misled the planner for good: a store that
 * opened empty recorded two rows for `applications_search_data`, and every submission past some
 * 75 000 applications took 6 ms instead of 0.1 ms (4 000 → 150 submissions a second, until a
 * restart; docs/performance.md). Without statistics SQLite assumes large tables.
 * @param sqlite - the store's own connection (better-sqlite3); its reader threads reload on their own.
 */
export function gatherStatistics(
  sqlite: { pragma(source: string): unknown; prepare(source: string): { get(): unknown; run(): { changes: number } }; exec(source: string): unknown },
  mask?: number,
): void {
  sqlite.pragma(mask === undefined ? 'optimize' : `optimize = ${mask}`);
  if (!sqlite.prepare("select 1 from sqlite_schema where name = 'sqlite_stat1'").get()) return;
  // Read again by this connection's planner once changed (`analyze sqlite_schema`).
  if (sqlite.prepare(`delete from sqlite_stat1 where ${FTS_TABLES}`).run().changes > 0) sqlite.exec('analyze sqlite_schema');
}

/** PostgreSQL connections per server process for the inbox's reads, beside the store's 10 (the inbox's users are a team). */
const INBOX_READ_CONNECTIONS = 4;

/** PostgreSQL connections per server process for webhook deliveries under way: one each (the sender's 8 at a time). */
export const WEBHOOK_CLAIM_CONNECTIONS = 8;

/** The {@link Store} over one {@link Connection}. */
class DatabaseStore implements Store {
  readonly applications: ApplicationRepository;
  readonly users: UserRepository;
  readonly team: TeamRepository;
  readonly audit: AuditRepository;
  readonly notes: NoteRepository;
  readonly tags: TagRepository;
  readonly pages: PageRepository;
  readonly funnel: FunnelRepository;
  readonly summary: SummaryRepository;
  readonly secrets: SecretRepository;
  readonly views: SavedViewRepository;
  readonly webhooks: WebhookRepository;
  readonly emails: EmailRepository;
  readonly guardians: GuardianRepository;
  readonly consents: ConsentRepository;
  readonly resumeDrafts: ResumeDraftRepository;
  readonly rateLimits: RateLimitCounter | undefined;
  readonly pageChanges: PageChanges | undefined;
  private readonly submissions: GroupCommit;
  /** What the last batch of applications, or probe, said of the store's writes. */
  private readonly writes: WriteReadiness;
  private readonly sqliteWriter: SqliteWriter | undefined;
  /** PostgreSQL: the inbox's reads, on a pool of {@link INBOX_READ_CONNECTIONS} of their own. */
  private readonly postgresReads: Kysely<Database> | undefined;
  /** PostgreSQL: the webhook deliveries' claims, each a transaction held while it is sent, on a pool of {@link WEBHOOK_CLAIM_CONNECTIONS}. */
  private readonly webhookClaims: Kysely<Database> | undefined;
  /** SQLite: while an erasure's scrub waits for the reader threads and runs, the promise new reads wait for. */
  private readsPaused: Promise<void> | undefined;
  /** A SQLite file: the inbox's reads, in threads of their own ({@link sqliteReads}). */
  private readonly reader: ReturnType<typeof sqliteReads> | undefined;
  /** PostgreSQL: the timer that looks for applications queued for the answer index by a process that ended. */
  private indexSweep: NodeJS.Timeout | undefined;
  /** SQLite: the timer that keeps the planner's statistics up to date. */
  private statistics: NodeJS.Timeout | undefined;
  /** SQLite: the read-only connection of the page queries of exports run on this thread, opened on the first, and its reader. */
  private exportReader: { db: BetterSqlite3.Database; read: ExportPageReader } | undefined;

  constructor(
    private readonly connection: Connection,
    options: {
      sqliteWriterThread?: boolean | undefined;
      queryTimeoutMs: number;
      onQuery?: ((sql: string, parameters: readonly unknown[]) => void) | undefined;
      clock?: Clock | undefined;
    },
  ) {
    const { db } = connection;
    const { onQuery } = options;
    let write: BatchWrite;
    let index: IndexWrite;
    let erasure: ErasureFollowUp | undefined;
    let exportPages: ExportPages;
    if (connection.pool) {
      // The inbox's reads on a pool of their own: however heavy (a summary's four
      // statements, each up to the time limit), they never take the connections that submits,
      // decisions and rate limits use (an attack's three summaries held them, and submits got 503).
      const url = connection.location.url;
      this.postgresReads = new Kysely<Database>({
        dialect: new PostgresDialect({ pool: () => createPostgresPool(url, { queryTimeoutMs: options.queryTimeoutMs, max: INBOX_READ_CONNECTIONS }) }),
        ...queryLog(onQuery),
      });
      this.webhookClaims = new Kysely<Database>({
        dialect: new PostgresDialect({ pool: () => createPostgresPool(url, { queryTimeoutMs: options.queryTimeoutMs, max: WEBHOOK_CLAIM_CONNECTIONS }) }),
        ...queryLog(onQuery),
      });
      const writer = postgresBatchWriter(connection.pool, onQuery);
      write = writer.write;
      index = writer.index;
      erasure = new PostgresErasureVacuum(db);
      exportPages = {
        rowsPerQuery: POSTGRES_EXPORT_ROWS_PER_QUERY,
        read: postgresExportReader(connection.pool),
        // Where an export's thread connects (docs/decisions/014).
        source: {
          location: { dialect: 'postgres', url: connection.location.url, queryTimeoutMs: options.queryTimeoutMs },
          whenReadable: async () => undefined,
        },
      };
    } else if (connection.location.file === ':memory:') {
      // Tests: the one connection, held while a batch is written; exports run on this thread.
      this.sqliteWriter = new SqliteWriter({ connection: connection.sqlite, exclusive: (run) => db.connection().execute(() => run()) });
      write = (rows, children) => this.sqliteWriter!.write(rows, children);
      index = (limit) => this.sqliteWriter!.index(limit);
      exportPages = {};
    } else {
      const file = connection.location.file;
      // Planner statistics: with none, SQLite reads an application's row where a small
      // covering index would do (the counts under an answer filter took twice as long). Gathered
      // now for the tables that have none, from a sample, before the writer's and readers'
      // connections open and read them.
      const sqlite = connection.sqlite;
      sqlite.pragma('analysis_limit = 1000');
      gatherStatistics(sqlite, 0x10002);
      const verbose = onQuery && ((statement: string) => onQuery(statement, []));
      this.sqliteWriter = new SqliteWriter({ file, thread: options.sqliteWriterThread, verbose });
      write = (rows, children) => this.sqliteWriter!.write(rows, children);
      index = (limit) => this.sqliteWriter!.index(limit);
      // The inbox's reads in threads of their own: a long one never holds the event loop.
      this.reader = sqliteReads({ file, timeoutMs: options.queryTimeoutMs, paused: () => this.readsPaused ?? this.submissions.pausedUntil(), onQuery });
      const reader = this.reader.pool;
      // An erasure's scrub needs every connection idle: new reads wait first, and submissions go
      // on until the reads running end; only then do they wait, for the scrub alone.
      erasure = new SqliteErasureScrub(file, async (run) => {
        let resume!: () => void;
        this.readsPaused = new Promise<void>((resolve) => (resume = resolve));
        try {
          await reader.idle();
          return await this.submissions.exclusive(run);
        } finally {
          this.readsPaused = undefined;
          resume();
        }
      });
      // Planner statistics, gathered again as the tables grow (see above).
      this.statistics = setInterval(() => {
        try {
          gatherStatistics(sqlite);
          // The reader threads read statistics when they open their connections.
          this.reader?.pool.reloadStatistics();
        } catch {
          // Busy or closing: the next round gathers them.
        }
      }, STATISTICS_INTERVAL_MS).unref();
      // An export's thread reads the file itself; one run here reads on a connection of its own.
      exportPages = {
        read: (query) => this.readExportPage(file, query),
        source: { location: { dialect: 'sqlite', file }, whenReadable: () => this.submissions.whenIdle() },
      };
    }
    // The two hooks on the submit path, once a batch: its outcome, for readiness; and, once it
    // has settled, a change of what the inbox reads (shared-reads.ts), this process's own: what
    // another process stores reaches the inbox after its answer index's delay anyway.
    this.writes = new WriteReadiness(db, options.clock ?? systemClock);
    const changes = new InboxChanges(this.storeChanges());
    const stored: BatchWrite = (rows, children) => changes.after(write(rows, children), { shared: false });
    // A follow-up that wrote answer rows too: a summary running meanwhile may not count them.
    const indexed: IndexWrite = async (limit) => {
      const taken = await index(limit);
      if (taken > 0) changes.changed();
      return taken;
    };
    // PostgreSQL: the follow-up on a connection of its own, beside the batches (decision 022).
    this.submissions = new GroupCommit(db, this.writes.observe(stored), this.writes.observeFailures(indexed), { indexBeside: Boolean(connection.pool) });
    // PostgreSQL: what a process that ended left queued is indexed by another (answer-index.ts).
    if (connection.pool) this.indexSweep = setInterval(() => this.submissions.wantIndex(), ANSWER_INDEX_SWEEP_MS).unref();
    this.audit = new AuditRepository(db);
    const reads = this.reader?.db ?? this.postgresReads ?? db;
    this.applications = new ApplicationRepository(db, {
      submissions: this.submissions,
      audit: this.audit,
      erasure,
      exportPages,
      clock: options.clock,
      reads,
      changes,
    });
    this.notes = new NoteRepository(db, this.audit, options.clock);
    this.tags = new TagRepository(db, this.audit, options.clock, changes);
    this.pages = new PageRepository(db, this.audit, options.clock);
    this.users = new UserRepository(db, options.clock);
    this.funnel = new FunnelRepository(db);
    this.summary = new SummaryRepository(reads, this.applications);
    this.secrets = new SecretRepository(db);
    this.views = new SavedViewRepository(db, options.clock ?? systemClock);
    this.emails = new EmailRepository(db, options.clock ?? systemClock, Boolean(connection.pool));
    this.team = new TeamRepository(db, this.emails, options.clock ?? systemClock);
    this.webhooks = new WebhookRepository(db, options.clock ?? systemClock, this.webhookClaims, this.emails);
    this.consents = new ConsentRepository(db, this.audit, options.clock ?? systemClock);
    this.guardians = new GuardianRepository(db, {
      applications: this.applications,
      audit: this.audit,
      emails: this.emails,
      erasure,
      clock: options.clock ?? systemClock,
    });
    this.resumeDrafts = new ResumeDraftRepository(db, this.emails, options.clock ?? systemClock);
    this.rateLimits = connection.pool && new PostgresRateLimitCounter(db, connection.pool, onQuery);
    this.pageChanges = connection.pool && new PageChanges(connection.location.url, db);
  }

  /**
   * How this store tells of other processes' changes of what the inbox reads (shared-reads.ts):
   * on PostgreSQL the `inbox_changes` sequence (migration 027), read on the inbox's pool and
   * advanced on the store's; on SQLite the store's own connection's `data_version`, which every
   * other connection's commit (the writer's, another process's) changes.
   */
  private storeChanges(): StoreChanges {
    const { connection } = this;
    if (connection.pool) {
      const reads = this.postgresReads!;
      return {
        // A sequence never advanced reads 1 as after its first `nextval`: `is_called` tells them apart.
        now: async () => (await sql<{ n: string }>`select case when is_called then last_value else 0 end as n from inbox_changes`.execute(reads)).rows[0]?.n,
        record: async () => void (await sql`select nextval('inbox_changes')`.execute(connection.db)),
      };
    }
    return { now: async () => connection.sqlite.pragma('data_version', { simple: true }), record: async () => undefined };
  }

  /**
   * SQLite: one page query of an export, with a prepared statement on a read-only
   * connection of its own, so it neither queues behind the inbox's other queries on Kysely's one
   * connection nor reads inside one of their transactions. Synchronous and short (one page): the
   * export yields to the event loop between pages. It waits while a scrub runs (`exclusive`):
   * the scrub's checkpoint needs every connection of the file idle.
   */
  private async readExportPage(file: string, query: CompiledQuery<ApplicationRow>): Promise<ApplicationRow[]> {
    await this.submissions.whenIdle();
    if (!this.exportReader) {
      const db = openReadOnlyDatabase(file);
      this.exportReader = { db, read: sqliteExportReader(db) };
    }
    return this.exportReader.read(query);
  }

  async ping() {
    await sql`select 1`.execute(this.connection.db);
  }

  canTakeApplications() {
    return this.writes.canTakeApplications();
  }

  async close() {
    // Submissions already queued (a shutdown under load) are written and answered first.
    await this.submissions.settled();
    await this.funnel.flush().catch(() => undefined);
    // An erasure's follow-up still scheduled runs now, before the connections close.
    await this.applications.flushErasures();
    clearInterval(this.statistics);
    clearInterval(this.indexSweep);
    await this.sqliteWriter?.close();
    await this.reader?.db.destroy();
    await this.postgresReads?.destroy();
    await this.webhookClaims?.destroy();
    this.exportReader?.db.close();
    this.exportReader = undefined;
    await this.connection.db.destroy();
  }
}
