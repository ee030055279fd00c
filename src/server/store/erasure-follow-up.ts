import { sql, type Kysely, type Transaction } from 'kysely';
import { startWorker } from '../worker-thread';
import type { Database } from './schema';
import { ERASED_SINCE_SCRUB } from './sqlite-file';

/**
 * What a store does on disk after an erasure, beyond deleting the rows in the erasure's
 * transaction (docs/decisions/005): on SQLite a scrub of the files, on PostgreSQL a
 * VACUUM of the tables the application was stored in. Both run in the background, after a
 * delay that lets erasures close together share one run; the request never waits for them.
 */
export interface ErasureFollowUp {
  /** Runs inside the erasure's transaction (SQLite: marks the file, so a crash before the scrub is caught at the next start). */
  inTransaction(trx: Transaction<Database>): Promise<void>;
  /** Called once the erasure committed: schedules the follow-up. Returns at once; never throws. */
  erased(): void;
  /** Runs a scheduled follow-up now rather than after its delay; resolves when none is scheduled or running. Never rejects. */
  flush(): Promise<void>;
}

/** When a follow-up runs after an erasure, in ms. */
export interface FollowUpTiming {
  /** After the erasure that scheduled it (erasures in the meantime join the same run). */
  delayMs: number;
  /** At least this long after the previous run started (a SQLite scrub at 100 000 applications pauses writes 2 to 6 s). */
  minIntervalMs: number;
}

/**
 * 5 s after an erasure (an editor erasing several in a row shares one run), at most one run a
 * minute: what an erasure leaves on disk is gone within about a minute (docs/decisions/005).
 */
export const DEFAULT_FOLLOW_UP_TIMING: FollowUpTiming = { delayMs: 5_000, minIntervalMs: 60_000 };

/** Runs of a task scheduled by events, at most one at a time, debounced by {@link FollowUpTiming}. */
class ScheduledRuns {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** An event arrived while a run was under way: run again after it. */
  private again = false;
  private lastStart = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly task: () => Promise<void>,
    private readonly timing: FollowUpTiming,
  ) {}

  schedule() {
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) return;
    const wait = Math.max(this.timing.delayMs, this.lastStart + this.timing.minIntervalMs - Date.now());
    // Unref'd: a pending run never keeps the process alive; the store's close() runs it.
    this.timer = setTimeout(() => void this.run(), wait).unref();
  }

  private run(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.lastStart = Date.now();
    const run = this.task()
      .catch(() => undefined)
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.schedule();
        }
      });
    this.running = run;
    return run;
  }

  async flush() {
    for (;;) {
      if (this.running) await this.running;
      else if (this.timer) await this.run();
      else return;
    }
  }
}

/**
 * The SQLite follow-up: the erasure's transaction marks the file ({@link ERASED_SINCE_SCRUB});
 * later, in a thread of its own, `scrubDatabase` (sqlite-file.ts) VACUUMs it, truncates
 * its `-wal` and marks it scrubbed. While that runs, `exclusive` keeps the store's own
 * connections idle: no submission batch and no Kysely query starts (they wait, they do not fail),
 * so the checkpoint is not made busy by this process and no main-thread connection sleeps in
 * SQLite's busy handler. A scrub that fails (disk full, a checkpoint kept busy by another
 * process) leaves the mark, and is tried again after the next erasure or at the next start.
 */
export class SqliteErasureScrub implements ErasureFollowUp {
  private readonly runs: ScheduledRuns;

  /**
   * @param file - the database file.
   * @param exclusive - runs a function while the store's connections stay idle.
   */
  constructor(file: string, exclusive: <T>(run: () => Promise<T>) => Promise<T>, timing = DEFAULT_FOLLOW_UP_TIMING) {
    let failures = 0;
    this.runs = new ScheduledRuns(async () => {
      const scrubbed = await exclusive(() => scrubInThread(file)).then(
        (result) => result,
        () => false,
      );
      failures = scrubbed ? 0 : failures + 1;
      // One more try a run later; past it the mark waits for the next erasure or start.
      if (!scrubbed && failures < 2) this.runs.schedule();
    }, timing);
  }

  async inTransaction(trx: Transaction<Database>) {
    await sql.raw(`pragma user_version = ${ERASED_SINCE_SCRUB}`).execute(trx);
  }

  erased() {
    this.runs.schedule();
  }

  flush() {
    return this.runs.flush();
  }
}

/** Runs `scrubDatabase(file)` in a new thread; resolves with its result (false when it threw). */
function scrubInThread(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const worker = startWorker('sqlite-scrub.worker', import.meta.url, { workerData: { file } });
    let scrubbed = false;
    worker.once('message', (message: { scrubbed: boolean }) => (scrubbed = message.scrubbed));
    worker.once('error', () => undefined);
    worker.once('exit', () => resolve(scrubbed));
  });
}

/**
 * The PostgreSQL follow-up: a plain `VACUUM (ANALYZE)` of `applications`, `application_handles`,
 * `application_answers`, `application_notes`, `application_tags`, `application_tallies`,
 * `email_messages`, `webhook_deliveries`, `outbox_events` and `guardian_requests` (their indexes
 * and TOAST tables with them), so that nothing points at the erased rows' dead tuples any more and
 * later rows reuse their space (their bytes stay until then), and the planner's statistics
 * (`pg_statistic`'s most common values and histograms, which sample column values: e-mails,
 * names) are taken again from the rows left. It takes no lock that
 * blocks reads or writes; `skip_locked` skips a table another VACUUM is working on (another
 * server process, or autovacuum) instead of waiting. An error is dropped: the erasure has
 * committed, and autovacuum (or the next erasure) vacuums later. What PostgreSQL keeps even so:
 * docs/decisions/005.
 */
export class PostgresErasureVacuum implements ErasureFollowUp {
  private readonly runs: ScheduledRuns;

  /** @param db - the store's Kysely database on PostgreSQL (a pool: the VACUUM takes one connection while it runs). */
  constructor(db: Kysely<Database>, timing = DEFAULT_FOLLOW_UP_TIMING) {
    this.runs = new ScheduledRuns(async () => {
      await sql`vacuum (skip_locked, analyze) applications, application_handles, application_answers, application_notes, application_tags, application_tallies, email_messages, webhook_deliveries, outbox_events, guardian_requests`.execute(
        db,
      );
    }, timing);
  }

  async inTransaction() {}

  erased() {
    this.runs.schedule();
  }

  flush() {
    return this.runs.flush();
  }
}
