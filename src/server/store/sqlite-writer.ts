import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import { startWorker } from '../worker-thread';
import { openBatchWriter, type BatchWriter } from './sqlite-batch-writer';
import { openDurableDatabase } from './sqlite-file';
import type { ApplicationsTable, ChildRows, SavedApplication } from './schema';

/** A batch sent to the writer's thread, or a run of the answer index's follow-up (`index`: at most that many applications). */
export type WriterRequest = { id: number; rows: ApplicationsTable[]; children: ChildRows[] } | { id: number; index: number };

/** The writer thread's answer to a {@link WriterRequest}: its results, or its error and SQLite result code. */
export type WriterReply = { id: number; results: SavedApplication[] | number } | { id: number; error: string; code?: string };

/** Where a {@link SqliteWriter} writes. */
export type SqliteWriterTarget =
  /** A file: in a thread of its own (`thread`, default: with more than one core), else on a connection of its own here. */
  | { file: string; thread?: boolean | undefined; verbose?: ((sql: string) => void) | undefined }
  /** An in-memory database: on the store's own connection, held by `exclusive` while a batch is written. */
  | { connection: BetterSqlite3.Database; exclusive: <T>(run: () => Promise<T>) => Promise<T> };

/**
 * The SQLite submit path's writer: every batch goes through one insert ({@link openBatchWriter}).
 * For a file with more than one core for the process, in a thread (`sqlite-writer.worker.ts`), so
 * a commit's fsync never blocks the event loop; with one core, here, on a connection of its own,
 * since a thread could only take turns with this one and copying each batch to it costs more than
 * it saves (docs/performance.md). One batch at a time (the caller's group commit sends the next
 * one after this one settles). A thread that dies fails its batch and is started again for the next.
 */
export class SqliteWriter {
  private worker: Worker | undefined;
  /** Without a thread: the writer on this thread, and its connection when it is this writer's own. */
  private inline: { writer: BatchWriter; own?: BetterSqlite3.Database } | undefined;
  private pending = new Map<number, { resolve: (results: never) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private readonly useThread: boolean;

  /**
   * @param target - where to write; a file's `verbose` is called with every statement the writer
   *   runs (tests: query plans), and the batches are then written on this thread.
   */
  constructor(private readonly target: SqliteWriterTarget) {
    this.useThread = 'file' in target && !target.verbose && (target.thread ?? availableParallelism() > 1);
  }

  private start(file: string): Worker {
    const worker = startWorker('sqlite-writer.worker', import.meta.url, { workerData: { file } });
    worker.on('message', (message: WriterReply) => {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if ('results' in message) waiting?.resolve(message.results as never);
      else waiting?.reject(Object.assign(new Error(message.error), message.code ? { code: message.code } : {}));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`SQLite writer exited with ${code}`)));
    return worker;
  }

  /** The writer on this thread, opened on first use. */
  private inlineWriter(): BatchWriter {
    if (!this.inline) {
      if ('connection' in this.target) this.inline = { writer: openBatchWriter(this.target.connection) };
      else {
        const own = openDurableDatabase(this.target.file, this.target.verbose);
        this.inline = { writer: openBatchWriter(own), own };
      }
    }
    return this.inline.writer;
  }

  /**
   * Writes one batch in one transaction; resolves once it is committed (durable).
   * @param children - per row, the handle and answer rows to store when the row is stored now.
   * @throws Error when SQLite refuses the batch (nothing of it is stored).
   */
  async write(rows: ApplicationsTable[], children: ChildRows[]): Promise<SavedApplication[]> {
    const target = this.target;
    if ('connection' in target) return target.exclusive(async () => this.inlineWriter().write(rows, children));
    if (!this.useThread) return this.inlineWriter().write(rows, children);
    return this.send({ id: this.nextId++, rows, children });
  }

  /**
   * The answer index's follow-up ({@link BatchWriter.index}) where the batches are written, after
   * the batch before it.
   * @returns how many queued applications it indexed.
   * @throws Error when SQLite refuses (the queue keeps them).
   */
  async index(limit: number): Promise<number> {
    const target = this.target;
    if ('connection' in target) return target.exclusive(async () => this.inlineWriter().index(limit));
    if (!this.useThread) return this.inlineWriter().index(limit);
    return this.send({ id: this.nextId++, index: limit });
  }

  /** Sends a request to the writer's thread (started on first use); resolves with its results. */
  private send<T>(request: WriterRequest): Promise<T> {
    this.worker ??= this.start((this.target as { file: string }).file);
    return new Promise<T>((resolve, reject) => {
      this.pending.set(request.id, { resolve: resolve as (results: never) => void, reject });
      this.worker!.postMessage(request);
    });
  }

  /** Closes the writer's own connection or thread and waits for the thread to end. */
  async close(): Promise<void> {
    this.inline?.own?.close();
    this.inline = undefined;
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage('close');
    await exited;
  }
}
