import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { openBatchWriter, type BatchWriter } from './sqlite-batch-writer.mjs';
import type { ApplicationsTable, Database, SavedApplication } from './application-store';

/**
 * The SQLite submit path's writer: batches are written with prepared statements
 * on a connection of their own (`sqlite-batch-writer.mjs`). With more than one
 * core for the process, in a thread (`sqlite-writer.worker.mjs`), so a
 * commit's fsync never blocks the event loop; with one core, here, since a
 * thread could only take turns with this one and copying each batch to it
 * costs more than it saves (docs/performance.md). One batch at a time (the
 * caller's group commit sends the next one after this one settles). A thread
 * that dies fails its batch and is started again for the next.
 */
export class SqliteWriter {
  private worker: Worker | undefined;
  /** With one core for the process, no thread: the batch is written here (no copy to another thread). */
  private inline: BatchWriter | undefined;
  private pending = new Map<number, { resolve: (results: SavedApplication[]) => void; reject: (error: Error) => void }>();
  private nextId = 0;

  /**
   * @param useThread - write in a thread of its own (default: when the process has more than one core).
   * @param verbose - called with every statement the writer runs (tests: query plans); the batches
   *   are then written on this thread, which the function cannot leave.
   */
  constructor(
    private readonly file: string,
    useThread?: boolean,
    private readonly verbose?: (sql: string) => void,
  ) {
    this.useThread = !verbose && (useThread ?? availableParallelism() > 1);
  }

  private readonly useThread: boolean;

  private start(): Worker {
    const worker = new Worker(new URL('./sqlite-writer.worker.mjs', import.meta.url), { workerData: { file: this.file }, execArgv: [] });
    worker.on('message', (message: { id: number; results?: SavedApplication[]; error?: string; code?: string }) => {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.results) waiting?.resolve(message.results);
      else waiting?.reject(Object.assign(new Error(message.error ?? 'SQLite writer failed'), message.code ? { code: message.code } : {}));
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

  /**
   * Writes one batch in one transaction; resolves once it is committed (durable).
   * @param handles - per row, the handle rows to store when the row is stored now.
   * @throws Error when SQLite refuses the batch (nothing of it is stored).
   */
  write(rows: ApplicationsTable[], handles: Database['application_handles'][][]): Promise<SavedApplication[]> {
    if (!this.useThread) {
      try {
        this.inline ??= openBatchWriter(this.file, this.verbose);
        return Promise.resolve(this.inline.write(rows, handles));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
    this.worker ??= this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker!.postMessage({ id, rows, handles });
    });
  }

  /** Closes the thread's connection and waits for it to end. */
  async close(): Promise<void> {
    this.inline?.close();
    this.inline = undefined;
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage('close');
    await exited;
  }
}
