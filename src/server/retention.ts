import type { FastifyBaseLogger } from 'fastify';
import { DEFAULT_RETENTION, type Retention } from '../shared/retention';
import { systemClock, type Clock } from './clock';
import type { Store } from './store/store';
import { WorkLoops } from './work-loops';

/** How often a server process looks for applications past their time, in ms: hourly (each is erased within an hour of it). */
export const RETENTION_POLL_MS = 3_600_000;

/** Applications erased per page and round (a round is short; the next follows at once while there are more). */
const ROUND = 100;

/** The actor the history names for an erasure the retention policy made. */
export const RETENTION_ACTOR = 'retention policy';

/**
 * Erases what each page keeps no longer (docs/privacy.md, "Retention"; requirements §19): every
 * hour, in every server process (an application erased by one is not found by another), each
 * page's applications past their time under its `retention` — a page no longer served, under
 * the defaults — each as the inbox's erasure does (answers, index, tallies, outbox, e-mail and
 * delivery logs), audited as erased by {@link RETENTION_ACTOR}.
 */
export class RetentionSweeper {
  private readonly loops: WorkLoops;
  private readonly clock: Clock;

  constructor(
    private readonly options: {
      store: Store;
      /** A page's retention, or undefined for a page this server does not serve. */
      retentionOf: (pageId: string) => Retention | undefined;
      log: FastifyBaseLogger;
      clock?: Clock | undefined;
      pollMs?: number | undefined;
    },
  ) {
    this.clock = options.clock ?? systemClock;
    this.loops = new WorkLoops('retention', options.log, options.pollMs ?? RETENTION_POLL_MS);
  }

  start(): void {
    this.loops.start([{ job: () => this.sweep().then((erased) => erased > 0), timed: true }]);
  }

  stop(): Promise<void> {
    return this.loops.stop();
  }

  /**
   * One round: up to {@link ROUND} applications of each page past their time, erased.
   * @returns how many it erased.
   * @throws the store's error (the next round tries again).
   */
  async sweep(): Promise<number> {
    const { store } = this.options;
    let erased = 0;
    for (const pageId of await store.applications.pageIdsWithApplications()) {
      const retention = this.options.retentionOf(pageId) ?? DEFAULT_RETENTION;
      for (const id of await store.applications.expired(pageId, retention, this.clock(), ROUND))
        if (await store.applications.eraseApplication(id, RETENTION_ACTOR)) erased++;
    }
    if (erased > 0) this.options.log.info({ erased }, 'applications past their retention erased');
    return erased;
  }
}
