import { statSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../worker-thread';

/**
 * How often the checkpoint thread copies the write-ahead log's committed pages into the database
 * file, in ms: 250 (docs/decisions/022, "Checkpoints in a thread of their own": measured against 1 000
 * pages a commit, SQLite's own mark, and against rarer checkpoints).
 */
export const CHECKPOINT_INTERVAL_MS = 250;

/**
 * SQLite's own checkpoint mark, in pages (`wal_autocheckpoint`'s default): the thread starts once
 * the write-ahead log reaches it, so a store that writes little (a test, a quiet page) never
 * starts one (a thread costs about 80 ms of CPU to start).
 */
export const CHECKPOINT_THREAD_FROM_PAGES = 1000;

/** A message to the checkpoint thread (`sqlite-checkpoint.worker.ts`). */
export type CheckpointRequest = 'pause' | 'resume' | 'close';

/**
 * The SQLite file's checkpoints, in a thread of their own (docs/decisions/022, "Checkpoints in a
 * thread of their own"). By default SQLite checkpoints in the commit that takes the write-ahead
 * log past 1 000 pages: that commit copies the pages into the database file and waits for its
 * fsync, on the thread that committed (the event loop, with one core: the submit path's follow-up
 * and batches). Here a thread with a connection of its own runs `wal_checkpoint(PASSIVE)` every
 * {@link CHECKPOINT_INTERVAL_MS} (which never waits for a reader or a writer, nor makes them wait),
 * and the store's writing connections checkpoint only past `CHECKPOINT_BACKSTOP_PAGES`
 * (`leaveCheckpointsToThread`, sqlite-file.ts).
 *
 * Started once a batch of applications leaves the log at {@link CHECKPOINT_THREAD_FROM_PAGES} or
 * more ({@link written}); until then the log grows as SQLite's own mark lets it. An erasure's
 * scrub, which needs every connection of the file idle, runs {@link whilePaused}. A checkpoint
 * that fails (the disk full, another process checkpointing) is tried again at the next interval;
 * a thread that ends is started again after the next batch.
 */
export class SqliteCheckpoints {
  private worker: Worker | undefined;
  /** Runs of {@link whilePaused} going on, and the promise the thread's answer to its pause settles. */
  private pauses = 0;
  private paused: Promise<void> | undefined;
  private closed = false;

  /**
   * @param file - the database file, migrated.
   * @param pageBytes - the file's page size, in bytes (`PRAGMA page_size`).
   * @param started - called when a thread starts (the store then leaves its own connection's checkpoints to it).
   * @param intervalMs - see {@link CHECKPOINT_INTERVAL_MS}.
   */
  constructor(
    private readonly file: string,
    private readonly pageBytes: number,
    private readonly started: () => void = () => undefined,
    private readonly intervalMs = CHECKPOINT_INTERVAL_MS,
  ) {}

  /**
   * After a batch of applications: starts the thread when none runs (nor the store closed) and
   * the log holds {@link CHECKPOINT_THREAD_FROM_PAGES} pages or more. One `stat` of the log a
   * batch until then; nothing once the thread runs.
   */
  written(): void {
    if (this.worker || this.closed) return;
    let logBytes = 0;
    try {
      logBytes = statSync(`${this.file}-wal`).size;
    } catch {
      // No log (yet): nothing to copy.
    }
    if (logBytes >= CHECKPOINT_THREAD_FROM_PAGES * this.pageBytes) this.start();
  }

  /** Starts the thread. */
  private start(): void {
    const worker = startWorker('sqlite-checkpoint.worker', import.meta.url, {
      workerData: { file: this.file, intervalMs: this.intervalMs, paused: this.pauses > 0 },
    });
    this.worker = worker;
    const ended = () => {
      if (this.worker === worker) this.worker = undefined;
    };
    // A thread that cannot open the file, or ends: the backstop checkpoints meanwhile.
    worker.on('error', ended);
    worker.on('exit', ended);
    this.started();
  }

  /**
   * Runs `run` with no checkpoint of the thread's going on, nor starting before it settles (an
   * erasure's scrub: its `wal_checkpoint(TRUNCATE)` needs every other connection of the file idle).
   * @returns what `run` returns; its error, thrown.
   */
  async whilePaused<T>(run: () => Promise<T>): Promise<T> {
    this.pauses++;
    try {
      if (this.pauses === 1) this.paused = this.pause();
      await this.paused;
      return await run();
    } finally {
      if (--this.pauses === 0) {
        this.paused = undefined;
        this.worker?.postMessage('resume' satisfies CheckpointRequest);
      }
    }
  }

  /** Asks the thread to pause; resolves once it said so (between two checkpoints), or ended. */
  private pause(): Promise<void> {
    const worker = this.worker;
    if (!worker) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        worker.off('message', answered);
        worker.off('exit', done);
        resolve();
      };
      const answered = (message: unknown) => {
        if (message === 'paused') done();
      };
      worker.on('message', answered);
      worker.once('exit', done);
      worker.postMessage('pause' satisfies CheckpointRequest);
    });
  }

  /** Ends the thread (after the checkpoint it may be running) and waits for it; no thread starts after. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage('close' satisfies CheckpointRequest);
    await exited;
  }
}
