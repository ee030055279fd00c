import type { Worker } from 'node:worker_threads';
import {
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import { startWorker } from '../worker-thread';
import type { Database } from './schema';

/** A statement sent to a reader thread. */
export interface ReadRequest {
  id: number;
  sql: string;
  parameters: readonly unknown[];
}

/** A reader thread's answer to a {@link ReadRequest}: the rows, or the error and its SQLite result code. */
export type ReadReply = { id: number; rows: Record<string, unknown>[] } | { id: number; error: string; code?: string };

/** What a {@link SqliteReadPool} needs. */
export interface SqliteReadPoolOptions {
  /** The database file (already migrated). */
  file: string;
  /** Reader threads, each with its own connection (default 2: the inbox's reads run two at a time). */
  threads?: number;
  /**
   * How long a statement may run, in ms: past it its thread is stopped (and started again for the
   * next read) and the read fails with `ETIMEDOUT`, which the routes answer 503, as PostgreSQL's
   * `statement_timeout` does for that store.
   */
  timeoutMs: number;
  /**
   * While the store must have every connection of the file idle (an erasure's scrub,
   * `GroupCommit.exclusive`): the promise that settles when it may read again, else undefined.
   */
  paused?: () => Promise<unknown> | undefined;
  /** Called with every statement run, with its parameters (tests: query plans). */
  onQuery?: ((sql: string, parameters: readonly unknown[]) => void) | undefined;
}

/** One reader thread and the read it runs, if any. */
class ReaderThread implements DatabaseConnection {
  private worker: { thread: Worker; ready: Promise<void> } | undefined;
  private pending:
    { id: number; worker: Worker; resolve: (rows: Record<string, unknown>[]) => void; reject: (error: Error) => void; timer: NodeJS.Timeout } | undefined;
  private nextId = 0;

  constructor(private readonly options: SqliteReadPoolOptions) {}

  /** Starts a thread; `ready` settles once it has opened the file (its start-up is not a read's time). */
  private start(): { thread: Worker; ready: Promise<void> } {
    const worker = startWorker('sqlite-reader.worker', import.meta.url, { workerData: { file: this.options.file } });
    let started!: () => void;
    let failed!: (error: Error) => void;
    const ready = new Promise<void>((resolve, reject) => ((started = resolve), (failed = reject)));
    // Settled by a failed start-up before anyone waits for it.
    ready.catch(() => undefined);
    worker.on('message', (reply: ReadReply | 'ready') => {
      if (reply === 'ready') {
        // An idle thread does not keep the process alive; one that reads does (settle, executeQuery).
        if (this.pending?.worker !== worker) worker.unref();
        return started();
      }
      const pending = this.pending;
      if (!pending || pending.id !== reply.id) return;
      this.settle();
      if ('rows' in reply) pending.resolve(reply.rows);
      else pending.reject(Object.assign(new Error(reply.error), reply.code ? { code: reply.code } : {}));
    });
    const fail = (error: Error) => {
      failed(error);
      if (this.worker?.thread === worker) this.worker = undefined;
      // Only the read this thread runs: a thread stopped for its time runs none any more.
      const pending = this.pending;
      if (pending?.worker !== worker) return;
      this.settle();
      pending.reject(error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(Object.assign(new Error(`SQLite reader exited with ${code}`), { code: 'SQLITE_IOERR' })));
    return { thread: worker, ready };
  }

  private settle() {
    if (!this.pending) return;
    clearTimeout(this.pending.timer);
    this.pending.worker.unref();
    this.pending = undefined;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    this.options.onQuery?.(query.sql, query.parameters);
    const started = (this.worker ??= this.start());
    await started.ready;
    const worker = started.thread;
    const id = ++this.nextId;
    const rows = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        // Stopping the thread stops the statement (SQLite has no other way in from here); the
        // next read starts another thread.
        this.settle();
        if (this.worker?.thread === worker) this.worker = undefined;
        void worker.terminate();
        reject(Object.assign(new Error(`A SQLite read ran past ${this.options.timeoutMs} ms`), { code: 'ETIMEDOUT', statementTimeout: true }));
      }, this.options.timeoutMs);
      this.pending = { id, worker, resolve, reject, timer };
      worker.ref();
      worker.postMessage({ id, sql: query.sql, parameters: query.parameters } satisfies ReadRequest);
    });
    return { rows: rows as R[] };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('SQLite reader threads do not stream');
  }

  /** Has the thread open its connection again, between reads, for the planner's new statistics. */
  reload() {
    this.worker?.thread.postMessage('reload');
  }

  async close() {
    const worker = this.worker?.thread;
    this.worker = undefined;
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.ref();
    worker.postMessage('close');
    await exited;
  }
}

/**
 * A Kysely driver for a SQLite file whose reads run in threads of their own, each
 * with a read-only connection: in WAL mode they read while the store writes, and a long read
 * holds its thread, not the event loop. Reads only: a transaction, a write or a stream fails. A
 * connection is a thread; a read waits for a free one, and for the end of a pause
 * ({@link SqliteReadPoolOptions.paused}). {@link idle} settles once no read runs.
 */
export class SqliteReadPool implements Driver {
  private readonly threads: ReaderThread[];
  private readonly free: ReaderThread[];
  /** Reads waiting for a thread: woken, every one, when a thread is released, each then tries again. */
  private waiting: (() => void)[] = [];
  private readonly whenIdle: (() => void)[] = [];

  constructor(private readonly options: SqliteReadPoolOptions) {
    this.threads = Array.from({ length: options.threads ?? 2 }, () => new ReaderThread(options));
    this.free = [...this.threads];
  }

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    // A read queued behind busy threads checks the pause again before it takes one: a pause (an
    // erasure's scrub) waits for the reads running, never for the whole queue behind them.
    for (;;) {
      for (let paused = this.options.paused?.(); paused; paused = this.options.paused?.()) await paused;
      const thread = this.free.pop();
      if (thread) return thread;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  async beginTransaction(): Promise<void> {
    throw new Error('SQLite reader threads run reads only, outside transactions');
  }

  async commitTransaction(): Promise<void> {}

  async rollbackTransaction(): Promise<void> {}

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.free.push(connection as ReaderThread);
    if (this.free.length === this.threads.length) for (const resolve of this.whenIdle.splice(0)) resolve();
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }

  /**
   * Has every thread open its connection again before its next read: SQLite reads the planner's
   * statistics when a connection opens, and the store has just gathered new ones (`pragma optimize`).
   */
  reloadStatistics() {
    for (const thread of this.threads) thread.reload();
  }

  /** Settles once no read runs (reads queued behind a pause do not count): an erasure's scrub then has the file to itself. */
  idle(): Promise<void> {
    if (this.free.length === this.threads.length) return Promise.resolve();
    return new Promise((resolve) => this.whenIdle.push(resolve));
  }

  async destroy() {
    await Promise.all(this.threads.map((thread) => thread.close()));
  }
}

/**
 * Kysely over {@link SqliteReadPool}: SQLite's adapter and compiler, the reads in threads.
 * @returns the Kysely instance and its pool (for {@link SqliteReadPool.idle}).
 */
export function sqliteReads(options: SqliteReadPoolOptions): { db: Kysely<Database>; pool: SqliteReadPool } {
  const pool = new SqliteReadPool(options);
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => pool,
      createIntrospector: (kysely) => new SqliteIntrospector(kysely),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
  return { db, pool };
}
