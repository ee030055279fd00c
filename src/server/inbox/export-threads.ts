import { Readable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import type { ApplicationFilter } from '../../shared/admin';
import type { ExportLocation, ExportSource } from '../store/admin-store';
import { startWorker } from '../worker-thread';
import type { AnswerColumn } from './answers';
import { applicationsCsvHead } from './csv';

/**
 * Rows per batch an export's thread reads and formats, then sends as one chunk (issue 12): on
 * SQLite also its rows per page query. The thread has an event loop of its own, so a batch may be
 * longer than the 200 rows of an export on the main thread (`EXPORT_BATCH_ROWS`): fewer page
 * queries, and fewer chunks for the main thread to relay (some 170 KiB each).
 */
export const THREAD_EXPORT_BATCH_ROWS = 1000;

/** What an export's thread is given (`workerData`): all plain data. */
export interface ExportJob {
  /** Where it opens its own connection. */
  location: ExportLocation;
  filter: ApplicationFilter;
  /** The answer columns, in order (worked out by the main thread: their labels need html-to-text). */
  columns: AnswerColumn[];
  /** Rows per batch (see {@link THREAD_EXPORT_BATCH_ROWS}). */
  batchRows: number;
}

/**
 * What an export's thread sends: a chunk of CSV text (UTF-8, its ArrayBuffer transferred, not
 * copied), then the end, or an error that ends it (a sentence for the log, never sent to the client).
 */
export type ExportMessage = { type: 'chunk'; data: ArrayBuffer } | { type: 'end' } | { type: 'error'; message: string };

/** What the main thread sends an export's thread: send the next chunk. */
export const MORE = 'more';

/** How many exports a process runs at a time, and how many may wait for their turn (docs/decisions/014). */
export interface ExportLimits {
  /** Exports running at once, each in a thread of its own (default 2). */
  running: number;
  /** Exports waiting for a running one to end, first come first served (default 8); more get 503. */
  waiting: number;
}

/** The default {@link ExportLimits}: two threads beside the main one on a two-core server. */
export const DEFAULT_EXPORT_LIMITS: ExportLimits = { running: 2, waiting: 8 };

/** A turn to run an export, from {@link ExportThreads.turn}: `release` ends it (once; later calls do nothing). */
export interface ExportTurn {
  release(): void;
}

/**
 * The exports of one process (issue 12, docs/decisions/014): at most `limits.running` at a time,
 * each in a `worker_threads` thread of its own at the lowest scheduling priority, so that a
 * session, however many exports it asks for, never starts more threads than that; up to
 * `limits.waiting` more wait for their turn.
 */
export class ExportThreads {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  private readonly limits: ExportLimits;

  constructor(limits: Partial<ExportLimits> = {}) {
    this.limits = { ...DEFAULT_EXPORT_LIMITS, ...limits };
  }

  /** Exports running now, and waiting for their turn (for tests and logs). */
  get counts(): { running: number; waiting: number } {
    return { running: this.active, waiting: this.queue.length };
  }

  /**
   * Takes a turn to run an export: at once when fewer than `limits.running` run, else once one
   * ends (first come first served).
   * @param gone - emits `close` when the client goes away (the response): a waiting export then
   *   leaves the queue.
   * @returns the turn; `'busy'` at once when `limits.waiting` exports wait already (the route
   *   answers 503 with Retry-After); `'gone'` when the client went away while it waited.
   */
  async turn(gone: { once(event: 'close', listener: () => void): unknown; off(event: 'close', listener: () => void): unknown }): Promise<ExportTurn | 'busy' | 'gone'> {
    if (this.active >= this.limits.running) {
      if (this.queue.length >= this.limits.waiting) return 'busy';
      const left = await new Promise<boolean>((resolve) => {
        const wake = () => {
          gone.off('close', leave);
          resolve(false);
        };
        const leave = () => {
          const at = this.queue.indexOf(wake);
          if (at !== -1) this.queue.splice(at, 1);
          resolve(true);
        };
        this.queue.push(wake);
        gone.once('close', leave);
      });
      if (left) return 'gone';
      // The turn was handed over by a release: `active` was not decremented for it.
    } else {
      this.active += 1;
    }
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const next = this.queue.shift();
        if (next) next();
        else this.active -= 1;
      },
    };
  }

  /**
   * The CSV export of `job` as a stream: the head (byte-order mark and header row) at once, then
   * the rows, read and formatted by a thread of its own (`export.worker.ts`) and relayed here as
   * they come, one chunk at a time when the stream wants more (backpressure: the thread waits
   * for the response). The bytes are those of `applicationsCsv` on this thread.
   *
   * Destroying the stream (the client went away) terminates the thread at once; an error in the
   * thread (the store failing mid-export) or its unexpected exit destroys the stream with an
   * Error, so the response is cut short, never ended as if complete. `turn` is released when the
   * thread has exited.
   * @param source - the store's {@link ExportSource}: its location goes to the thread, and each
   *   chunk is asked for once `whenReadable()` resolves.
   */
  csv(turn: ExportTurn, source: ExportSource, job: Omit<ExportJob, 'location'>): Readable {
    return new ThreadCsv({ ...job, location: source.location }, source.whenReadable, turn);
  }
}

/** The relay of {@link ExportThreads.csv}. */
class ThreadCsv extends Readable {
  private readonly worker: Worker;
  private headSent = false;
  /** A chunk was asked for and has not come yet. */
  private asked = false;
  /** The thread sent its end: it exits by itself after closing its connection. */
  private ended = false;

  constructor(
    private readonly job: ExportJob,
    private readonly whenReadable: () => Promise<void>,
    turn: ExportTurn,
  ) {
    // 64 KiB rather than 16: one chunk of the thread is buffered while the response writes the last.
    super({ highWaterMark: 64 * 1024 });
    try {
      this.worker = startWorker('export.worker', import.meta.url, { workerData: job });
    } catch (error) {
      turn.release();
      throw error;
    }
    // The response keeps the process alive while it runs; the thread alone does not.
    this.worker.unref();
    this.worker.on('message', (message: ExportMessage) => this.received(message));
    this.worker.on('error', (error) => this.destroy(error));
    this.worker.on('exit', (code) => {
      turn.release();
      if (!this.ended) this.destroy(new Error(`The export thread exited (code ${code}) before the export's end.`));
    });
  }

  override _read() {
    if (!this.headSent) {
      this.headSent = true;
      this.push(applicationsCsvHead(this.job.columns));
      return;
    }
    if (this.asked || this.ended) return;
    this.asked = true;
    void this.whenReadable().then(() => {
      if (!this.destroyed) this.worker.postMessage(MORE);
    });
  }

  private received(message: ExportMessage) {
    if (this.destroyed) return;
    if (message.type === 'chunk') {
      this.asked = false;
      this.push(Buffer.from(message.data));
    } else if (message.type === 'end') {
      this.ended = true;
      this.push(null);
    } else {
      this.destroy(new Error(`The export failed: ${message.message}`));
    }
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void) {
    // Stops the work at once: a page query in flight is abandoned with its connection.
    if (!this.ended) void this.worker.terminate();
    callback(error);
  }
}
