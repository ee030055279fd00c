import type { WizardConfig } from '../shared/config';
import type { Clock } from './clock';
import type { PageRepository } from './store/pages';

/** How long the other servers' file pages read from the store are used before they are read again, in ms: 5 s. */
export const FILE_PAGES_REFRESH_MS = 5_000;

/**
 * The pages read from configuration files by every server on the database (docs/decisions/034,
 * "Two servers on one database"): this server's own (`WIZARD_CONFIG`), which it records in the
 * store as it starts, and those other servers recorded, read from the store at most every
 * {@link FILE_PAGES_REFRESH_MS}. The inbox labels a file page's answers, lists it and counts its
 * summary from here, whichever server took its applications; this server's own file always wins
 * over another's record of the same id.
 */
export class FilePages {
  /** Every file page by id, this server's first: one Map, updated in place (readers may keep it). */
  readonly all: Map<string, WizardConfig>;
  /** Which of {@link all} are another server's. */
  readonly elsewhere = new Set<string>();
  /** Counts the changes to {@link all}: what is worked out from it is worked out again when it moves. */
  revision = 0;
  private readAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | undefined;

  /**
   * @param own - this server's file pages by id (`app.pages`).
   * @param store - where file pages are recorded.
   */
  constructor(
    private readonly own: ReadonlyMap<string, WizardConfig>,
    private readonly store: Pick<PageRepository, 'recordFilePages' | 'filePages'>,
    private readonly clock: Clock,
  ) {
    this.all = new Map(own);
  }

  /**
   * Records this server's file pages in the store, then reads the others'.
   * @throws the store's error.
   */
  async start(): Promise<void> {
    await this.store.recordFilePages([...this.own.values()].map((config) => ({ pageId: config.pageId, config: JSON.stringify(config) })));
    await this.read();
  }

  /**
   * Reads the other servers' file pages again when the last read is older than
   * {@link FILE_PAGES_REFRESH_MS} (a read under way is shared). A failed read keeps what was known.
   */
  async refresh(): Promise<void> {
    if (this.clock() - this.readAt < FILE_PAGES_REFRESH_MS) return;
    this.reading ??= this.read()
      .catch(() => undefined)
      .finally(() => (this.reading = undefined));
    await this.reading;
  }

  private async read(): Promise<void> {
    const recorded = await this.store.filePages();
    this.readAt = this.clock();
    const others = new Map<string, WizardConfig>();
    for (const { pageId, config } of recorded) {
      if (this.own.has(pageId)) continue;
      try {
        others.set(pageId, JSON.parse(config) as WizardConfig);
      } catch {
        // A record no server can have made: left out.
      }
    }
    const unchanged = others.size === this.elsewhere.size && [...others].every(([id, config]) => JSON.stringify(this.all.get(id)) === JSON.stringify(config));
    if (unchanged) return;
    for (const id of this.elsewhere) this.all.delete(id);
    this.elsewhere.clear();
    for (const [id, config] of others) {
      this.all.set(id, config);
      this.elsewhere.add(id);
    }
    this.revision += 1;
  }
}
