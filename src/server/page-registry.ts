import { parseWizardConfig, type WizardConfig } from '../shared/config';
import type { PageStatus } from '../shared/pages';
import type { PageRepository, PublishedPageRecord } from './store/pages';

/** A stored page this process serves: the configuration of its published version, and when it takes applications. */
export interface ServedPage {
  id: string;
  status: PageStatus;
  version: number;
  config: WizardConfig;
  opensAt: string | null;
  closesAt: string | null;
  maxApplications: number | null;
  hosts: string[];
  /**
   * Applications stored for the page: when loaded, its slots taken with a cap, else the tallies;
   * then raised by what this process stores (for a page with a cap, the store's count).
   */
  applications: number;
  /** `opensAt` and `closesAt` in ms, read once (the page route asks on every request). */
  opensAtMs: number | null;
  closesAtMs: number | null;
}

/** How the registry tells the other server processes that a page changed (PostgreSQL `NOTIFY`; none on SQLite). */
export type AnnounceChange = (id: string) => Promise<void>;

/**
 * The stored pages with a published version, kept in this process's memory
 * (docs/decisions/021), so that neither a submit nor `GET /` reads a table to find its page: loaded
 * at start, by id and by host name. A change made through this process's admin API is
 * {@link PageRegistry.changed}: read again here and announced to the other processes
 * (`announce`: PostgreSQL `NOTIFY`), which {@link PageRegistry.reload} it on the notification.
 */
export class PageRegistry {
  private readonly pages = new Map<string, ServedPage>();
  private readonly hosts = new Map<string, ServedPage>();
  /**
   * Reads of the store, numbered as they start; a page keeps the number of the read it came from,
   * so a slower earlier read (two notifications of one page close together, a full load beside a
   * page's reload) never puts back what a later one replaced.
   */
  private reads = 0;
  private readonly readOf = new Map<string, number>();

  /**
   * @param servable - whether a version's configuration may be served (besides parsing): the
   *   server's own rules of the moment (`SUBMIT_ORIGINS_ALLOWED`); default every one.
   * @param served - told of each version this process starts serving (at start, after a publish
   *   or a rollback), before {@link load} or {@link reload} resolves: the store records which of
   *   its questions it counts per value (store/tallies.ts). It never rejects.
   */
  constructor(
    private readonly repository: Pick<PageRepository, 'published'>,
    private readonly announce?: AnnounceChange,
    private readonly servable: (config: WizardConfig) => boolean = () => true,
    private readonly served?: (page: ServedPage) => Promise<void>,
  ) {}

  /** Reads every page with a published version (at start, and after notifications may have been missed). */
  async load(): Promise<void> {
    const read = ++this.reads;
    const records = await this.repository.published();
    const found = new Set(records.map((record) => record.id));
    for (const id of this.pages.keys()) if (!found.has(id)) void this.apply(id, read, undefined);
    await Promise.all(records.map((record) => this.apply(record.id, read, record)));
  }

  /** Reads page `id` again after a change (a notification): gone from memory when it has no version to serve. */
  async reload(id: string): Promise<void> {
    const read = ++this.reads;
    const [record] = await this.repository.published(id);
    await this.apply(id, read, record);
  }

  /**
   * Page `id` changed through this process (committed): read again here, then announced to the
   * other processes. An announcement that fails (the database went away after the change) is
   * not the change's failure: the others read every page again when their listening connection
   * comes back.
   */
  async changed(id: string): Promise<void> {
    await this.reload(id);
    await this.announce?.(id).catch(() => undefined);
  }

  /** Serves `record` as page `id` (none: serves it no more); a version new to this process is {@link served}. */
  private async apply(id: string, read: number, record: PublishedPageRecord | undefined): Promise<void> {
    if ((this.readOf.get(id) ?? 0) > read) return;
    this.readOf.set(id, read);
    const previous = this.pages.get(id);
    if (previous) {
      this.pages.delete(id);
      for (const host of previous.hosts) if (this.hosts.get(host) === previous) this.hosts.delete(host);
    }
    if (!record) return;
    // The same version as before keeps its parsed configuration (and so whatever the page route
    // made of it): a version is immutable.
    const config = previous?.version === record.publishedVersion ? previous.config : parse(record.config);
    // Stored after its checks at publish, defaults applied: it parses as it did then. A version
    // that no longer parses (a later, stricter schema), or that the server's rules now refuse, is
    // not served rather than served wrong.
    if (!config || !this.servable(config)) return;
    const page: ServedPage = {
      id: record.id,
      status: record.status,
      version: record.publishedVersion,
      config,
      opensAt: record.opensAt,
      closesAt: record.closesAt,
      maxApplications: record.maxApplications,
      hosts: record.hosts,
      applications: record.applications,
      opensAtMs: record.opensAt === null ? null : Date.parse(record.opensAt),
      closesAtMs: record.closesAt === null ? null : Date.parse(record.closesAt),
    };
    this.pages.set(id, page);
    for (const host of page.hosts) this.hosts.set(host, page);
    if (previous?.version !== page.version) await this.served?.(page);
  }

  /** The served page `id`, or undefined (unknown, or never published). */
  get(id: string): ServedPage | undefined {
    return this.pages.get(id);
  }

  /**
   * The served page whose host names include `host` (lower case, without port or trailing dot:
   * as the pages API stores them), or undefined.
   */
  byHost(host: string): ServedPage | undefined {
    return this.hosts.get(host);
  }

  /**
   * Counts an application this process stored for page `id`. For a page with a cap, `slot` is
   * what the store said once the application took its slot (the page's `taken` and cap, exact
   * across processes: migration 013); the one that takes the last slot tells the other processes
   * (`announce`), so they close the page without asking the store.
   */
  counted(id: string, slot?: { taken: number; max: number | null }): void {
    const page = this.pages.get(id);
    if (!page) return;
    page.applications = slot ? Math.max(page.applications, slot.taken) : page.applications + 1;
    if (slot && slot.max !== null && slot.taken >= slot.max) void this.announce?.(id).catch(() => undefined);
  }

  /**
   * The store found no slot left on page `id` (another process took the last): closed here from
   * now without asking the store again, until the page changes.
   */
  full(id: string): void {
    const page = this.pages.get(id);
    if (page?.maxApplications != null) page.applications = Math.max(page.applications, page.maxApplications);
  }

  /**
   * Whether `page` takes no applications at `now` (ms): status `closed`, before `opensAt`, at
   * or after `closesAt`, or at `maxApplications` (docs/decisions/021).
   */
  isClosed(page: ServedPage, now: number): boolean {
    if (page.status !== 'published') return true;
    if (page.opensAtMs !== null && now < page.opensAtMs) return true;
    if (page.closesAtMs !== null && now >= page.closesAtMs) return true;
    return page.maxApplications !== null && page.applications >= page.maxApplications;
  }
}

function parse(json: string): WizardConfig | undefined {
  return parseWizardConfig(JSON.parse(json) as unknown).config;
}
