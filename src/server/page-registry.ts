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
  /** Applications stored for the page: the tallies when loaded, plus those this process stored since. */
  applications: number;
}

/**
 * The stored pages with a published version, kept in this process's memory (issue 17;
 * docs/decisions/021), so that a submit reads no table to find its page: loaded at start, and
 * reloaded page by page when this process changes one (the admin pages API calls
 * {@link PageRegistry.reload}). Other processes on PostgreSQL are not told yet (the later
 * `LISTEN`/`NOTIFY` work calls `reload` on their notification).
 */
export class PageRegistry {
  private readonly pages = new Map<string, ServedPage>();

  constructor(private readonly repository: Pick<PageRepository, 'published'>) {}

  /** Reads every page with a published version (at start). */
  async load(): Promise<void> {
    const records = await this.repository.published();
    this.pages.clear();
    for (const record of records) this.put(record);
  }

  /** Reads page `id` again after a change: gone from memory when it has no version to serve. */
  async reload(id: string): Promise<void> {
    const [record] = await this.repository.published(id);
    this.pages.delete(id);
    if (record) this.put(record);
  }

  private put(record: PublishedPageRecord) {
    // Stored after its checks at publish, defaults applied: it parses as it did then. A version
    // that no longer parses (a later, stricter schema) is not served rather than served wrong.
    const parsed = parseWizardConfig(JSON.parse(record.config) as unknown);
    if (!parsed.config) return;
    this.pages.set(record.id, {
      id: record.id,
      status: record.status,
      version: record.publishedVersion,
      config: parsed.config,
      opensAt: record.opensAt,
      closesAt: record.closesAt,
      maxApplications: record.maxApplications,
      hosts: record.hosts,
      applications: record.applications,
    });
  }

  /** The served page `id`, or undefined (unknown, or never published). */
  get(id: string): ServedPage | undefined {
    return this.pages.get(id);
  }

  /** Counts an application this process stored for page `id` (the cap reads it). */
  counted(id: string): void {
    const page = this.pages.get(id);
    if (page) page.applications += 1;
  }

  /**
   * Whether `page` takes no applications at `now` (ms): status `closed`, before `opensAt`, at
   * or after `closesAt`, or at `maxApplications` (docs/decisions/021).
   */
  isClosed(page: ServedPage, now: number): boolean {
    if (page.status !== 'published') return true;
    if (page.opensAt !== null && now < Date.parse(page.opensAt)) return true;
    if (page.closesAt !== null && now >= Date.parse(page.closesAt)) return true;
    return page.maxApplications !== null && page.applications >= page.maxApplications;
  }
}
