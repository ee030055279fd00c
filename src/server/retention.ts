import type { FastifyBaseLogger } from 'fastify';
import type { WizardConfig } from '../shared/config';
import { DEFAULT_RETENTION, RetentionSchema, type Retention } from '../shared/retention';
import type { PageRepository } from './store/pages';
import { systemClock, type Clock } from './clock';
import type { Store } from './store/store';
import { WorkLoops } from './work-loops';
import { eventLoopTurn } from './event-loop';

/**
 * Page `pageId`'s retention as it was set, whether or not this process serves the page: from the
 * configuration `known` gives (the default page's file, or the version this process serves), else
 * a stored page's from the version it serves, read from the store (its configuration as published,
 * not as this process's environment would take it today); the defaults only for a page with
 * neither (a default page renamed, or a page deleted). A process started without a setting the
 * page needs (an allowed origin, say) must never shorten what the page keeps: erasure cannot be
 * undone.
 * @param known - the configuration this process has for a page, if any: read without a query.
 */
export async function pageRetention(
  known: (pageId: string) => WizardConfig | undefined,
  pages: Pick<PageRepository, 'versionRange' | 'version'>,
  pageId: string,
): Promise<Retention> {
  const own = known(pageId);
  if (own) return own.retention;
  const served = (await pages.versionRange(pageId)).get(pageId)?.served;
  const text = served === undefined ? undefined : await pages.version(pageId, served);
  if (text === undefined) return { ...DEFAULT_RETENTION };
  let stored: unknown;
  try {
    stored = (JSON.parse(text) as { retention?: unknown }).retention;
  } catch {
    stored = undefined;
  }
  const parsed = RetentionSchema.safeParse(stored);
  return parsed.success ? parsed.data : { ...DEFAULT_RETENTION };
}

/** How often a server process looks for applications past their time, in ms: hourly (each is erased within an hour of it). */
export const RETENTION_POLL_MS = 3_600_000;

/** Applications erased per page and round (a round is short; the next follows at once while there are more). */
const ROUND = 100;

/** The actor the history names for an erasure the retention policy made. */
export const RETENTION_ACTOR = 'retention policy';

/**
 * Erases what each page keeps no longer (docs/privacy.md, "Retention"; requirements §19): every
 * hour, in every server process (an application erased by one is not found by another), each
 * page's applications past their time under its `retention` ({@link pageRetention}), each as the
 * inbox's erasure does (answers, index, tallies, outbox, e-mail and
 * delivery logs), audited as erased by {@link RETENTION_ACTOR}; and every minor's application
 * held 7 days without a parent's or guardian's answer (requirements §20).
 */
export class RetentionSweeper {
  private readonly loops: WorkLoops;
  private readonly clock: Clock;

  constructor(
    private readonly options: {
      store: Store;
      /** A page's retention ({@link pageRetention}). */
      retentionOf: (pageId: string) => Promise<Retention>;
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
   * One round: up to {@link ROUND} applications of each page past their time, minors' applications
   * unanswered for 7 days, and drafts kept for another device past their 7 days, erased.
   * @returns how many it erased (drafts counted).
   * @throws the store's error (the next round tries again).
   */
  async sweep(): Promise<number> {
    const { store } = this.options;
    let erased = 0;
    for (const pageId of await store.applications.pageIdsWithApplications()) {
      const retention = await this.options.retentionOf(pageId);
      for (const id of await store.applications.expired(pageId, retention, this.clock(), ROUND)) {
        if (await store.applications.eraseApplication(id, RETENTION_ACTOR)) erased++;
        // Each erasure is a transaction that settles without I/O on SQLite: requests are served between them.
        await eventLoopTurn();
      }
    }
    // Minors' applications no parent or guardian answered within 7 days (requirements §20): erased, as a refusal does.
    for (const id of await store.guardians.expired(new Date(this.clock()).toISOString(), ROUND)) {
      if (await store.guardians.erase(id)) erased++;
      await eventLoopTurn();
    }
    if (erased > 0) this.options.log.info({ erased }, 'applications past their retention erased');
    // Drafts kept for another device whose 7 days are over (requirements §22), with their e-mail's content.
    let drafts = 0;
    for (const id of await store.resumeDrafts.expired(new Date(this.clock()).toISOString(), ROUND)) {
      if (await store.resumeDrafts.erase(id)) drafts++;
      await eventLoopTurn();
    }
    if (drafts > 0) this.options.log.info({ drafts }, 'drafts kept for another device past their 7 days erased');
    // And the links asked for more than 24 hours ago (their proofs and mailboxes' counts: decision 034).
    await store.resumeDrafts.forgetSends(new Date(this.clock()).toISOString());
    erased += drafts;
    return erased;
  }
}
