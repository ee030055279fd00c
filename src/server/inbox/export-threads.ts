import { Readable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import type { ApplicationFilter } from '../../shared/admin';
import type { ExportLocation, ExportSource } from '../store/inbox-rows';
import { Turns, type Departure, type Turn } from '../turns';
import { startWorker } from '../worker-thread';
import type { AnswerColumn } from './answers';
import { applicationsCsvHead } from './csv';

/**
 * Rows per batch an export's thread reads and formats, some 34 KB of CSV; on SQLite
 * also its rows per page query. As many as on the main thread (`EXPORT_BATCH_ROWS`), though this
 * thread's event loop serves nobody else: measured, batches of 1 000 rows took a third more CPU on
 * SQLite (a page's rows lived long enough to be copied by a scavenge). The thread sends a couple
 * of batches at a time (export.worker.ts), so the main thread relays fewer, larger chunks.
 */
export const THREAD_EXPORT_BATCH_ROWS = 200;

/** An export, as its thread is given it (in a {@link ExportCommand}): all plain data. */
export interface ExportJob {
  /** Where it opens its own connection (kept open for the thread's next export from the same place). */
  location: ExportLocation;
  filter: ApplicationFilter;
  /** The answer columns, in order (worked out by the main thread: their labels need html-to-text). */
  columns: AnswerColumn[];
  /** A `Page version` column (an export of stored pages; see `applicationsCsv`). */
  pageVersion: boolean;
  /** Rows per batch (see {@link THREAD_EXPORT_BATCH_ROWS}). */
  batchRows: number;
  /**
   * `'gzip'`: the thread compresses the whole body, head included (RFC 1952, level 6), at its own
   * low priority, and sends bytes; `'identity'`: it sends the rows as text and the head is written
   * here. Compressed here instead, the CSV would be compressed by @fastify/compress on libuv's
   * thread pool at normal priority (some 0.4 s of CPU per 100 000 rows) beside the submissions.
   */
  encoding: ExportEncoding;
}

/** The content codings an export is sent in (RFC 9110 §8.4.1): gzip, or none. */
export type ExportEncoding = 'gzip' | 'identity';

/**
 * What the main thread sends an export's thread: an export to run (one at a time); `'more'`: send
 * the next chunk of the export running; `'close'`: close the connection and end (an idle thread).
 */
export type ExportCommand = { type: 'job'; job: ExportJob } | typeof MORE | typeof CLOSE;

/** See {@link ExportCommand}. */
export const MORE = 'more';
/** See {@link ExportCommand}. */
export const CLOSE = 'close';

/**
 * What an export's thread sends: a chunk of CSV text (`bytes` of its gzip stream when the job's
 * encoding is gzip), then the end, or an error that ends it (a sentence for the log, never sent to
 * the client). Gzip bytes are transferred, not copied: some 5 times fewer than the text's.
 *
 * A chunk is a string (copied onto the main thread's heap, young and dead once written to the
 * socket), not a transferred ArrayBuffer: measured with submissions and exports running together,
 * the main thread then ran 3 mark-compacts in 8 s, against 21–23 with ArrayBuffers, whose memory
 * V8 counts as external to the main heap (their marking ran on V8's helper threads at normal
 * priority, beside the main thread on its core), for some 5 % more CPU on the main thread.
 */
export type ExportMessage = { type: 'chunk'; text: string } | { type: 'bytes'; bytes: Uint8Array } | { type: 'end' } | { type: 'error'; message: string };

/** How many exports a process runs at a time, how many may wait for their turn, how long a thread waits for the next (docs/decisions/014). */
export interface ExportLimits {
  /** Exports running at once, each in a thread of its own (default 2): never more threads than this. */
  running: number;
  /** Exports waiting for a running one to end, first come first served (default 8); more get 503. */
  waiting: number;
  /**
   * How long a thread that finished an export stays to run the next one, in ms (default 60 000; 0:
   * it ends at once). A fresh thread compiles the exporter again, grows its heap from nothing and
   * opens its connection: measured on PostgreSQL, 0.64 s of CPU per 100 000 rows in the thread
   * against 0.45 s, and 0.14 s against 0.05 s on V8's helper threads, at normal priority.
   */
  idleMs: number;
  /**
   * Longest an export waits for its turn, in ms (default 30 000): then it gets `'busy'` (the route
   * answers 503 with Retry-After), so a request behind exports that take long is told so rather
   * than left without an answer.
   */
  waitMs: number;
  /**
   * Longest a running export waits for its client to read more, in ms (default 30 000): a client
   * that stops reading (or reads a few bytes now and then) would otherwise hold a turn and a thread
   * for as long as it stays connected. Past it the response is cut short and the turn goes to the
   * next export. A client reading at any steady rate keeps asking for more well within it.
   */
  stallMs: number;
}

/** The default {@link ExportLimits}: two threads beside the main one on a two-core server. */
export const DEFAULT_EXPORT_LIMITS: ExportLimits = { running: 2, waiting: 8, idleMs: 60_000, waitMs: 30_000, stallMs: 30_000 };

/** A turn to run an export, from {@link ExportThreads.turn}: `release` ends it (once; later calls do nothing). */
export type ExportTurn = Turn;

/**
 * The exports of one process (docs/decisions/014): at most `limits.running` at a time,
 * each in a `worker_threads` thread of its own at the lowest scheduling priority, so that a
 * session, however many exports it asks for, never starts more threads than that; up to
 * `limits.waiting` more wait for their turn. A thread that finished an export runs the next one
 * if it comes within `limits.idleMs`.
 */
export class ExportThreads {
  private readonly limits: ExportLimits;
  private readonly turns: Turns;
  /** Threads that finished an export, newest last, each with the timer that ends it. */
  private readonly idle: { worker: Worker; timer: NodeJS.Timeout }[] = [];

  /** @param limits - what differs from {@link DEFAULT_EXPORT_LIMITS}. */
  constructor(limits: Partial<ExportLimits> = {}) {
    this.limits = { ...DEFAULT_EXPORT_LIMITS, ...limits };
    this.turns = new Turns(this.limits);
  }

  /** Exports running now, waiting for their turn, and threads idle (for tests and logs). */
  get counts(): { running: number; waiting: number; idle: number } {
    return { ...this.turns.counts, idle: this.idle.length };
  }

  /**
   * Takes a turn to run an export: at once when fewer than `limits.running` run, else once one
   * ends (first come first served).
   * @param gone - emits `close` when the client goes away (the response): a waiting export then
   *   leaves the queue.
   * @returns the turn; `'busy'` at once when `limits.waiting` exports wait already, or after
   *   `limits.waitMs` of waiting (the route answers 503 with Retry-After); `'gone'` when the client
   *   went away while it waited.
   */
  turn(gone: Departure): Promise<ExportTurn | 'busy' | 'gone'> {
    return this.turns.take(gone);
  }

  /**
   * The CSV export of `job` as a stream: the head (byte-order mark and header row) at once, then
   * the rows, read and formatted by a thread of its own (`export.worker.ts`: an idle one, or one
   * started now) and relayed here as they come, one chunk at a time when the stream wants more
   * (backpressure: the thread waits for the response). The bytes are those of `applicationsCsv`
   * on this thread.
   *
   * Destroying the stream (the client went away) terminates the thread at once; an error in the
   * thread (the store failing mid-export) or its unexpected exit destroys the stream with an
   * Error, so the response is cut short, never ended as if complete. `turn` is released when the
   * export has ended and its thread is idle, or when the thread has exited.
   * @param source - the store's {@link ExportSource}: its location goes to the thread, and each
   *   chunk is asked for once `whenReadable()` resolves.
   */
  csv(turn: ExportTurn, source: ExportSource, job: Omit<ExportJob, 'location'>): Readable {
    let worker: Worker;
    try {
      worker = this.takeIdle() ?? this.start();
    } catch (error) {
      turn.release();
      throw error;
    }
    return new ThreadCsv(worker, { ...job, location: source.location }, source.whenReadable, this.limits.stallMs, (reusable) => {
      if (reusable) this.keep(worker);
      turn.release();
    });
  }

  /** Ends the idle threads (the server is closing); running exports end with their responses. */
  close(): void {
    for (const { worker, timer } of this.idle.splice(0)) {
      clearTimeout(timer);
      worker.postMessage(CLOSE);
    }
  }

  private start(): Worker {
    const worker = startWorker('export.worker', import.meta.url);
    // The response keeps the process alive while an export runs; the thread alone does not.
    worker.unref();
    // An idle thread that fails or ends leaves the idle list.
    worker.on('exit', () => {
      const at = this.idle.findIndex((entry) => entry.worker === worker);
      if (at !== -1) clearTimeout(this.idle.splice(at, 1)[0]!.timer);
    });
    worker.on('error', () => undefined);
    return worker;
  }

  private takeIdle(): Worker | undefined {
    const entry = this.idle.pop();
    if (entry) clearTimeout(entry.timer);
    return entry?.worker;
  }

  private keep(worker: Worker) {
    if (this.limits.idleMs <= 0) {
      worker.postMessage(CLOSE);
      return;
    }
    const timer = setTimeout(() => {
      const at = this.idle.findIndex((entry) => entry.worker === worker);
      if (at !== -1) this.idle.splice(at, 1);
      worker.postMessage(CLOSE);
    }, this.limits.idleMs).unref();
    this.idle.push({ worker, timer });
  }
}

/** Why an export was cut short when its client stopped reading ({@link ExportLimits.stallMs}): the client's doing, not a fault. */
export class ExportClientStalled extends Error {
  /** @param stallMs - how long the client had read nothing, in ms. */
  constructor(stallMs: number) {
    super(`The client read nothing of the export for ${stallMs} ms.`);
    this.name = 'ExportClientStalled';
  }
}

/** The relay of {@link ExportThreads.csv}: one export on one thread. */
class ThreadCsv extends Readable {
  /** Compressed, the head is the first text of the thread's gzip stream: never written here. */
  private headSent: boolean;
  /** A chunk was asked for and has not come yet. */
  private asked = false;
  /** The thread sent its end: it is idle again. */
  private ended = false;
  private finished = false;
  /** Runs while the client has a chunk it has not read: past {@link ExportLimits.stallMs} the export is cut. */
  private stall: NodeJS.Timeout | undefined;
  private readonly onMessage = (message: ExportMessage) => this.received(message);
  private readonly onError = (error: Error) => this.destroy(error);
  private readonly onExit = (code: number) => {
    this.finish(false);
    if (!this.ended) this.destroy(new Error(`The export thread exited (code ${code}) before the export's end.`));
  };

  /** @param done - called once, when the thread is done with this export: reusable when it ended it. */
  constructor(
    private readonly worker: Worker,
    private readonly job: ExportJob,
    private readonly whenReadable: () => Promise<void>,
    private readonly stallMs: number,
    private readonly done: (reusable: boolean) => void,
  ) {
    // Text, kept as strings (written to the socket as UTF-8), or the thread's gzip bytes; the
    // thread's next chunk is asked for when less than a chunk is buffered, so it is on its way
    // while the response writes the last.
    super(job.encoding === 'gzip' ? { highWaterMark: 64 * 1024 } : { highWaterMark: 64 * 1024, encoding: 'utf8' });
    this.headSent = job.encoding === 'gzip';
    worker.on('message', this.onMessage);
    worker.on('error', this.onError);
    worker.on('exit', this.onExit);
    worker.postMessage({ type: 'job', job } satisfies ExportCommand);
  }

  /** Stops listening to the thread and tells the pool it is done (once). */
  private finish(reusable: boolean) {
    if (this.finished) return;
    this.finished = true;
    this.worker.off('message', this.onMessage);
    this.worker.off('error', this.onError);
    this.worker.off('exit', this.onExit);
    this.done(reusable);
  }

  /** A chunk is waiting for the client: it must ask for more within `stallMs`. */
  private waitForClient() {
    this.stall ??= setTimeout(() => {
      this.destroy(new ExportClientStalled(this.stallMs));
    }, this.stallMs);
  }

  override _read() {
    clearTimeout(this.stall);
    this.stall = undefined;
    if (!this.headSent) {
      this.headSent = true;
      this.push(applicationsCsvHead(this.job.columns, { pageVersion: this.job.pageVersion }));
      return;
    }
    if (this.asked || this.ended) return;
    this.asked = true;
    void this.whenReadable().then(() => {
      // Not after the end: the thread may be running its next export, which did not ask.
      if (!this.destroyed && !this.ended) this.worker.postMessage(MORE satisfies ExportCommand);
    });
  }

  private received(message: ExportMessage) {
    if (message.type === 'end') {
      this.ended = true;
      clearTimeout(this.stall);
      this.finish(true);
      if (!this.destroyed) this.push(null);
    } else if (this.destroyed) {
      return;
    } else if (message.type === 'chunk') {
      this.asked = false;
      this.waitForClient();
      this.push(message.text);
    } else if (message.type === 'bytes') {
      this.asked = false;
      this.waitForClient();
      this.push(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength));
    } else {
      this.destroy(new Error(`The export failed: ${message.message}`));
    }
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void) {
    clearTimeout(this.stall);
    // Stops the work at once: a page query in flight is abandoned with its connection. The turn
    // is released when the thread has exited (onExit).
    if (!this.ended) void this.worker.terminate();
    callback(error);
  }
}
