import type { FastifyBaseLogger } from 'fastify';
import { eventLoopTurn } from './event-loop';

/** One loop's job: does a piece of work; resolves true when there may be more at once (it goes on without waiting). */
export type LoopJob = () => Promise<boolean>;

/**
 * Background loops that take work from the store (the outbox's dispatch, webhook deliveries,
 * e-mail): each runs its job until it finds nothing, then waits. A loop started `timed` looks
 * again after `pollMs` (work another process made, a retry's time come); the others wait to be
 * woken by {@link WorkLoops.poke}, which a timed loop's find does, and so does a change this
 * process committed: an idle process asks its store one query per timed loop per poll, however
 * many loops it runs. Between two jobs of a loop that finds more, the process's other work
 * (requests, timers) gets its turn. Nothing a job throws stops its loop: the store unreachable is
 * said once, at warn, until a job reaches it again.
 */
export class WorkLoops {
  private running = false;
  private readonly waiting = new Set<() => void>();
  private loops: Promise<void>[] = [];
  private failing = false;

  /**
   * @param what - what the loops do, for the log ("webhook delivery").
   * @param pollMs - a timed loop's wait when idle, in ms.
   */
  constructor(
    private readonly what: string,
    private readonly log: FastifyBaseLogger,
    private readonly pollMs: number,
  ) {}

  /** Starts a loop per job; `timed` ones poll, the others wait for a poke. */
  start(jobs: readonly { job: LoopJob; timed: boolean }[]): void {
    if (this.running) return;
    this.running = true;
    this.loops = jobs.map(({ job, timed }) => this.loop(job, timed));
  }

  /**
   * Wakes one idle loop now: there is work (committed by this process, or found by a loop). A loop
   * that finds work wakes another, so as much work as there is draws in as many loops, and a single
   * piece of work costs one query, not one per loop.
   */
  poke(): void {
    const [wake] = this.waiting;
    wake?.();
  }

  /** Stops the loops; resolves when the jobs under way have ended. */
  async stop(): Promise<void> {
    this.running = false;
    for (const wake of [...this.waiting]) wake();
    await Promise.all(this.loops);
  }

  private async loop(job: LoopJob, timed: boolean): Promise<void> {
    while (this.running) {
      let more = false;
      try {
        more = await job();
        if (this.failing) {
          this.log.info(`${this.what} reaches the store again`);
          this.failing = false;
        }
      } catch (error) {
        // The store unreachable (an outage the submit path reports as 503): said once, until a job
        // reaches it again; nothing is lost meanwhile (the work waits in the store).
        if (!this.failing) this.log.warn({ err: error }, `${this.what} cannot reach the store; trying again at each poll`);
        this.failing = true;
      }
      if (more && this.running) {
        // Work found: another loop may share what is left. But first the event loop's turn: on
        // SQLite a job's queries settle without any I/O (better-sqlite3 is synchronous), so a loop
        // draining a backlog (the outbox after a restore, retention rounds) would otherwise run
        // job after job as microtasks, and no request, timer or socket of the process would be
        // served until it ran dry (measured: a server opened on 100 000 undispatched events did
        // not listen for 20 s).
        this.poke();
        await eventLoopTurn();
        continue;
      }
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiting.delete(done);
          resolve();
        };
        // An untimed loop still looks now and then (every 30 polls), should a poke be missed.
        const timer = setTimeout(done, timed ? this.pollMs : this.pollMs * 30);
        this.waiting.add(done);
      });
    }
  }
}
