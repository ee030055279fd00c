import type { Kysely } from 'kysely';
import { ANSWER_INDEX_BATCH, ANSWER_INDEX_DELAY_MS } from './answer-index';
import { isStoreUnavailable } from './errors';
import type { ApplicationsTable, ChildRows, Database, SavedApplication } from './schema';
import { eventLoopTurn } from '../event-loop';

/**
 * How long after the store was found unreachable new submissions are refused at once, in ms: the
 * `Retry-After` the route sends (5 s), so a client that waits as asked meets a store tried again.
 */
export const FAIL_FAST_MS = 5_000;

/** Most applications written in one transaction (group commit). */
export const MAX_BATCH = 200;

/** Writes one batch of rows atomically (see the SQLite and PostgreSQL batch writers). */
export type BatchWrite = (rows: ApplicationsTable[], children: ChildRows[]) => Promise<SavedApplication[]>;

/**
 * The answer index's follow-up (answer-index.ts): writes the derived rows of at most `limit`
 * queued applications in one transaction; resolves with how many it took.
 */
export type IndexWrite = (limit: number) => Promise<number>;

/** How a {@link GroupCommit} runs its follow-up. */
export interface GroupCommitOptions {
  /**
   * The follow-up runs in a loop of its own, beside the batches, rather than between two of them
   * (PostgreSQL: each takes a connection of the pool, and the database works on both at once;
   * SQLite has one writer, so there the two take turns). Default false.
   */
  indexBeside?: boolean;
}

interface Pending {
  children: ChildRows;
  row: ApplicationsTable;
  resolve: (saved: SavedApplication) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: the submissions that arrive while one transaction is being
 * written are written together in the next one — one multi-row insert and one
 * commit (one fsync) per batch — and each is acknowledged only after its
 * batch is durable. Under load this turns N fsyncs into one; alone, a
 * submission waits for nothing but its own commit.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private writing = false;
  /** Set while {@link exclusive} runs: no batch starts before it settles. */
  private paused: Promise<void> | undefined;
  /** The batch being written, settled either way. */
  private inFlight: Promise<void> | undefined;
  /** The drain writing the queue, resolved once it is empty. */
  private draining: Promise<void> | undefined;
  /** The store's last "unreachable" error and until when batches fail fast with it. */
  private unreachable: { error: unknown; until: number } | undefined;

  /** Applications stored by this process since its last follow-up began (an estimate: another process may index them). */
  private unindexed = 0;
  /** Set when the follow-up should run before the next batch: enough queued, its delay passed, or a read waits for it. */
  private indexWanted = false;
  /** The follow-up's timer: it runs {@link ANSWER_INDEX_DELAY_MS} after the first application it has not indexed. */
  private indexTimer: NodeJS.Timeout | undefined;
  /**
   * Reads waiting for the follow-up ({@link indexed}), each with how many of this process's
   * applications were still to index when it asked: resolved once follow-ups have taken that many,
   * or one found the queue empty, or one failed.
   */
  private indexWaiters: { remaining: number; resolve: () => void }[] = [];
  /** How many of this process's applications the running follow-up set out to take (0 when none runs). */
  private indexCounted = 0;
  /** With a connection of its own ({@link GroupCommitOptions.indexBeside}): its loop, while it runs. */
  private indexing: Promise<void> | undefined;
  /** The follow-up's run under way beside the batches, while one is. */
  private indexRun: Promise<void> | undefined;

  /**
   * @param db - the store's database: {@link exclusive} holds its connection.
   * @param writeBatch - the database's one insert path for a batch.
   * @param writeIndex - the answer index's follow-up, run between batches (answer-index.ts), or
   *   beside them with `options.indexBeside`.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly writeBatch: BatchWrite,
    private readonly writeIndex?: IndexWrite,
    private readonly options: GroupCommitOptions = {},
  ) {
    // What an earlier process queued and did not index (it ended between a submit and its
    // follow-up): before the first read or batch, or after the follow-up's delay, whichever comes
    // first (a short-lived command that closes the store first leaves it to the server).
    if (writeIndex) {
      this.indexWanted = true;
      this.scheduleIndex();
    }
  }

  /**
   * Resolves once the answer index holds every application this process stored before the call
   * (at once when it does): the inbox's reads wait for it, so a filter, a search or a count finds
   * an application as soon as its submit was answered. Never rejects: a follow-up that failed
   * leaves its applications queued for the next, and the read goes on without them.
   */
  indexed(): Promise<void> {
    if (!this.writeIndex) return Promise.resolve();
    // The running follow-up may leave some of what it set out to take: they are waited for too.
    const remaining = this.unindexed + this.indexCounted;
    if (remaining === 0 && !this.indexWanted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.indexWaiters.push({ remaining, resolve });
      this.wantIndex();
    });
  }

  /**
   * Asks for a follow-up before the next batch, and starts the writing loop when it is idle; with
   * {@link GroupCommitOptions.indexBeside}, starts the follow-up's own loop when it is idle.
   */
  wantIndex() {
    if (!this.writeIndex) return;
    clearTimeout(this.indexTimer);
    this.indexTimer = undefined;
    this.indexWanted = true;
    if (this.options.indexBeside) this.indexing ??= this.indexAlongside();
    else if (!this.writing) this.draining = this.drain();
  }

  /**
   * The follow-up's own loop ({@link GroupCommitOptions.indexBeside}): runs while one is wanted,
   * beside the batches, with the event loop served between two runs.
   */
  private async indexAlongside() {
    try {
      while (this.indexWanted) {
        while (this.paused) await this.paused;
        this.indexRun = this.runIndex();
        await this.indexRun;
        this.indexRun = undefined;
        if (this.indexWanted) await eventLoopTurn();
      }
    } finally {
      this.indexing = undefined;
    }
  }

  /** Runs the follow-up once (every queued application when they fit in one run); answers the reads waiting for it. */
  private async runIndex() {
    this.indexWanted = false;
    // The store was found unreachable a moment ago: tried again after the follow-up's delay, not now.
    if (this.unreachable && Date.now() < this.unreachable.until) {
      this.scheduleIndex();
      for (const waiter of this.indexWaiters.splice(0)) waiter.resolve();
      return;
    }
    const waiting = this.indexWaiters;
    this.indexWaiters = [];
    const counted = this.unindexed;
    this.unindexed = 0;
    this.indexCounted = counted;
    let taken = 0;
    let more = false;
    try {
      // As many as this process stored since the last run, up to one full batch's worth: under
      // batches of MAX_BATCH, one run between two batches keeps the queue from growing.
      const limit = Math.min(MAX_BATCH, Math.max(ANSWER_INDEX_BATCH, counted));
      taken = await this.writeIndex!(limit);
      // More queued than one run takes: another run after the next batch.
      more = taken === limit;
      if (more) {
        this.indexWanted = true;
        // Still to take: what this run left of this process's own.
        this.unindexed += Math.max(0, counted - taken);
      }
    } catch (error) {
      // Left queued: the next run (the timer, or the next read) takes them again. A store found
      // unreachable fails the batches waiting behind at once, as a batch's own error would.
      if (isStoreUnavailable(error)) this.markUnreachable(error);
      this.unindexed += counted;
      this.scheduleIndex();
    }
    this.indexCounted = 0;
    for (const waiter of waiting) {
      waiter.remaining -= taken;
      if (more && waiter.remaining > 0) this.indexWaiters.push(waiter);
      else waiter.resolve();
    }
  }

  /** Counts applications stored now for the follow-up: it runs at once past a transaction's worth, else after its delay. */
  private stored(created: number) {
    if (!this.writeIndex || created === 0) return;
    this.unindexed += created;
    if (this.unindexed < ANSWER_INDEX_BATCH) this.scheduleIndex();
    else if (this.options.indexBeside) this.wantIndex();
    else this.indexWanted = true;
  }

  private scheduleIndex() {
    this.indexTimer ??= setTimeout(() => {
      this.indexTimer = undefined;
      this.wantIndex();
    }, ANSWER_INDEX_DELAY_MS).unref();
  }

  /**
   * Queues a row and its handles and answers for the next batch; resolves once that batch is durable.
   * @throws the store's error when it refuses this row or cannot be reached.
   */
  add(row: ApplicationsTable, children: ChildRows): Promise<SavedApplication> {
    return new Promise<SavedApplication>((resolve, reject) => {
      this.queue.push({ row, children, resolve, reject });
      if (!this.writing) this.draining = this.drain();
    });
  }

  /** Resolves once every queued row has been written and answered (a shutdown under load). */
  async settled(): Promise<void> {
    await this.draining;
    // The follow-up of what was stored, before the connections close (else the next start does it).
    if (this.writeIndex && this.unindexed > 0) this.wantIndex();
    await this.draining;
    await this.indexing;
    clearTimeout(this.indexTimer);
    this.indexTimer = undefined;
  }

  /**
   * Resolves when no {@link exclusive} run is going on (SQLite: an export may then read its next
   * page, since an erasure's scrub needs every connection of the file idle).
   */
  async whenIdle(): Promise<void> {
    while (this.paused) await this.paused;
  }

  /** While an {@link exclusive} run goes on, the promise that settles with it; else undefined (checked and acted on in one step). */
  pausedUntil(): Promise<void> | undefined {
    return this.paused;
  }

  /**
   * Runs `run` while this store's connections stay idle: the batch being written finishes, no
   * other starts (submissions queue and are written after), and Kysely's one SQLite connection is
   * held, so every query waits for it (asynchronously: nothing sleeps on the event loop).
   */
  async exclusive<T>(run: () => Promise<T>): Promise<T> {
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    this.paused = paused;
    try {
      await this.inFlight;
      // A follow-up beside the batches finishes its run; its loop waits for the pause before the next.
      await this.indexRun;
      return await this.db.connection().execute(() => run());
    } finally {
      if (this.paused === paused) this.paused = undefined;
      resume();
    }
  }

  /** A follow-up is wanted, and this loop runs it (not {@link GroupCommitOptions.indexBeside}). */
  private get indexBetweenBatches(): boolean {
    return this.indexWanted && !this.options.indexBeside;
  }

  /** Writes batches until the queue is empty; one batch at a time. */
  private async drain() {
    this.writing = true;
    // Let the submissions arriving in this tick join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    let indexedLast = false;
    while (this.queue.length > 0 || this.indexBetweenBatches) {
      while (this.paused) await this.paused;
      // A follow-up beside the batches that falls a batch behind is waited for: what the inbox
      // reads stays within a few batches of what was answered.
      if (this.indexRun && this.unindexed >= MAX_BATCH) await this.indexRun;
      // The follow-up between two batches, when wanted: a waiting batch never waits for more than one.
      indexedLast = this.indexBetweenBatches && (!indexedLast || this.queue.length === 0);
      const settled = indexedLast ? this.runIndex() : this.settle(this.queue.splice(0, MAX_BATCH));
      // A scrub waits for the whole batch, its one-by-one retries included.
      this.inFlight = settled;
      await settled;
      // A backlog of the follow-up (what an earlier run left queued) is taken a run at a time with
      // the event loop served between runs: on SQLite a run settles without any I/O, so runs back
      // to back would hold every request until the backlog was gone (as the outbox's dispatch did:
      // work-loops.ts). Batches are not held: they run after requests have been read anyway.
      if (indexedLast && this.indexWanted) await eventLoopTurn();
    }
    this.writing = false;
  }

  /**
   * Writes a batch and answers each of its submissions; never rejects. While the store was found
   * unreachable less than {@link FAIL_FAST_MS} ago, the batch is refused at once with that error:
   * a silent database would otherwise hold each new batch for a query timeout.
   */
  private async settle(batch: Pending[]) {
    if (this.unreachable && Date.now() < this.unreachable.until) {
      for (const pending of batch) pending.reject(this.unreachable.error);
      return;
    }
    try {
      const results = await this.writeBatch(
        batch.map((pending) => pending.row),
        batch.map((pending) => pending.children),
      );
      this.unreachable = undefined;
      this.stored(results.filter((result) => result.created).length);
      batch.forEach((pending, index) => pending.resolve(results[index]!));
    } catch (error) {
      if (isStoreUnavailable(error)) {
        // Not a row's fault: the rows one by one would only wait for the same error each.
        this.markUnreachable(error);
        for (const pending of batch) pending.reject(error);
      } else if (batch.length === 1) batch[0]!.reject(error);
      else await this.writeOneByOne(batch);
    }
  }

  /** Refuses new batches at once for {@link FAIL_FAST_MS} with the store's "unreachable" error. */
  private markUnreachable(error: unknown) {
    this.unreachable = { error, until: Date.now() + FAIL_FAST_MS };
  }

  /**
   * After a batch failed: its rows are written one by one, so a row the store refuses
   * fails alone and the others are stored. When the store itself is unreachable, the rest are
   * failed at once rather than each waiting for its own connection error.
   */
  private async writeOneByOne(batch: Pending[]) {
    for (const [index, pending] of batch.entries()) {
      try {
        const [result] = await this.writeBatch([pending.row], [pending.children]);
        this.stored(result!.created ? 1 : 0);
        pending.resolve(result!);
      } catch (error) {
        pending.reject(error);
        if (isStoreUnavailable(error)) {
          this.markUnreachable(error);
          for (const rest of batch.slice(index + 1)) rest.reject(error);
          return;
        }
      }
    }
  }
}
