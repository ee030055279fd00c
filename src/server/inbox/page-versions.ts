import type { FilterQuestion } from '../../shared/admin';
import { parseWizardConfig, type WizardConfig } from '../../shared/config';
import { PLATFORM_NAMES } from '../../shared/platforms';
import type { PageRepository } from '../store/pages';
import { answerColumns, answerColumnsByPage, filterQuestions, type AnswerColumn } from './answers';
import { summaryPlan, type SummarisedQuestion, type SummaryPlan } from './summary';

/** Parsed versions (and pages' merged versions) kept in memory: some 200 configurations of a few dozen KB. */
export const VERSION_CACHE_SIZE = 200;

/**
 * A Map of at most `limit` entries that forgets the least recently used one first (a read moves
 * an entry to the end of the Map's insertion order; the first is the eldest). lru-cache is only a
 * dependency of our dependencies, and these few lines are all that is needed of it.
 */
export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();

  /** @param limit - most entries kept (at least 1). */
  constructor(readonly limit: number) {}

  /** The entry of `key`, made the most recently used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** The entry of `key`, left where it is in the order. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Keeps `value` as the most recently used entry; the least recently used goes past `limit`. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > Math.max(1, this.limit)) this.entries.delete(this.entries.keys().next().value as K);
  }

  /** Forgets the entry of `key` (none: nothing happens). */
  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Entries kept now, at most `limit`. */
  get size(): number {
    return this.entries.size;
  }
}

/** One published version of a stored page as the inbox reads it: parsed once, each of its labels worked out on first use (html-to-text). */
export class VersionQuestions {
  private answerColumns?: AnswerColumn[];
  private filterQuestions?: FilterQuestion[];
  private summaryPlan?: SummaryPlan;

  /**
   * @param version - its number.
   * @param config - its configuration, parsed with defaults applied (`parseWizardConfig`).
   */
  constructor(
    readonly version: number,
    readonly config: WizardConfig,
  ) {}

  /** Its answers' labels ({@link answerColumns}): the detail's, and the CSV's columns. */
  get columns(): AnswerColumn[] {
    return (this.answerColumns ??= answerColumns(this.config));
  }

  /** The questions its list filters on ({@link filterQuestions}). */
  get questions(): FilterQuestion[] {
    return (this.filterQuestions ??= filterQuestions(this.config));
  }

  /** What its summary counts ({@link summaryPlan}). */
  get plan(): SummaryPlan {
    return (this.summaryPlan ??= summaryPlan(this.config));
  }
}

/** A stored page's newest version, and the version it serves (an earlier one after a rollback). */
export interface VersionRange {
  last: number;
  served: number;
}

/** A stored page's versions 1 to `last` as one: what its list filters on, its CSV's columns, its summary. */
export interface MergedVersions {
  last: number;
  served: number;
  columns: AnswerColumn[];
  questions: FilterQuestion[];
  plan: SummaryPlan;
}

/**
 * The label of a question that only versions up to `version` asked (docs/decisions/021, "Answers
 * of earlier versions"): `Your favourite colour? (until version 2)`.
 */
export const untilVersion = (label: string, version: number) => `${label} (until version ${version})`;

/** What {@link mergeVersions} merges: a question or an answer column, by its key. */
interface Keyed {
  key: string;
  label: string;
  kind?: string;
  options?: readonly { value: string; label: string }[] | undefined;
}

/**
 * The questions (or answer columns) of several versions of a page as one list, each key once
 * (docs/decisions/021, "Answers of earlier versions"): the newest version's, in its order and with
 * its labels; then, newest version first, each question only earlier versions ask, placed after
 * the question it followed in that version and labelled as that version labels it, marked
 * {@link untilVersion} with the last version that asks it — unless the version served asks it (a
 * rollback serves an earlier version: its questions are asked again). A choice question's options
 * are every version's (the newest label of each; options only earlier versions offer follow) when
 * the versions agree on its kind; otherwise the newest version's kind and options stand.
 * @param versions - each version's number and its list, in any order (none: `[]`).
 * @param served - the version served (default: the newest).
 */
export function mergeVersions<T extends Keyed>(versions: readonly { version: number; items: readonly T[] }[], served?: number): T[] {
  const newestFirst = [...versions].sort((a, b) => b.version - a.version);
  const latest = newestFirst[0]?.version;
  const asked = new Set(newestFirst.find((version) => version.version === served)?.items.map((item) => item.key));
  const merged: T[] = [];
  const at = new Map<string, T>();
  for (const { version, items } of newestFirst) {
    let previous = -1;
    for (const item of items) {
      const known = at.get(item.key);
      if (!known) {
        const current = version === latest || asked.has(item.key);
        const copy = { ...item, label: current ? item.label : untilVersion(item.label, version), ...(item.options ? { options: [...item.options] } : {}) } as T;
        merged.splice(previous + 1, 0, copy);
        at.set(item.key, copy);
        previous += 1;
        continue;
      }
      previous = merged.indexOf(known);
      if (known.options && item.options && known.kind === item.kind) {
        const options = known.options as { value: string; label: string }[];
        for (const option of item.options) if (!options.some((candidate) => candidate.value === option.value)) options.push(option);
      }
    }
  }
  return merged;
}

/** Versions' summary plans as one: their questions merged ({@link mergeVersions}), every platform any of them asks for, in SPEC §3 order. */
function mergePlans(versions: readonly VersionQuestions[], served: number): SummaryPlan {
  const questions = mergeVersions<SummarisedQuestion>(
    versions.map((version) => ({ version: version.version, items: version.plan.questions })),
    served,
  );
  const asked = new Set(versions.flatMap((version) => version.plan.platforms));
  return { questions, platforms: PLATFORM_NAMES.filter((platform) => asked.has(platform)) };
}

/**
 * How the inbox labels answers, filters and CSV columns (issue 17, docs/decisions/021): the
 * default pages (the configuration files, no versions) as before (`answerColumnsByPage`); a stored
 * page's application by the version it answered (`applications.page_version`); a stored page's
 * list, summary and CSV by every version it published ({@link mergeVersions}).
 *
 * Versions are immutable, so each is read from the store and parsed once, then kept (an LRU of
 * {@link VERSION_CACHE_SIZE} versions, and as many merged pages, keyed by page, last version and
 * version served: a new version or a rollback makes a new key, nothing is ever invalidated). A read in flight is shared by the
 * requests that wait for it; a failed read is not kept.
 */
export class PageVersionLabels {
  private readonly versions: LruMap<string, Promise<VersionQuestions | undefined>>;
  private readonly merged: LruMap<string, Promise<MergedVersions | undefined>>;
  private readonly defaultColumns: (pageId?: string) => AnswerColumn[];

  /**
   * @param defaults - the default pages' configurations by page id (`app.pages`).
   * @param store - the stored pages' versions.
   * @param limit - versions (and merged pages) kept in memory.
   */
  constructor(
    private readonly defaults: ReadonlyMap<string, WizardConfig>,
    private readonly store: Pick<PageRepository, 'version' | 'versionRange'>,
    limit = VERSION_CACHE_SIZE,
  ) {
    this.versions = new LruMap(limit);
    this.merged = new LruMap(limit);
    this.defaultColumns = answerColumnsByPage(defaults);
  }

  /** Versions parsed and kept now (for tests). */
  get cached(): number {
    return this.versions.size;
  }

  /**
   * Version `version` of the stored page `pageId`, parsed with defaults applied (as the server
   * serves it); undefined when there is no such version, or when it no longer parses (a later,
   * stricter schema): its answers are then labelled as a default page's.
   * @throws the store's error when it cannot be reached (nothing kept).
   */
  async version(pageId: string, version: number): Promise<VersionQuestions | undefined> {
    const key = `${pageId}\u0000${version}`;
    let entry = this.versions.get(key);
    if (!entry) {
      const read = this.store.version(pageId, version).then((text) => {
        // Not kept: a version that is not stored yet may be published later.
        if (text === undefined) {
          if (this.versions.peek(key) === read) this.versions.delete(key);
          return undefined;
        }
        const parsed = parseWizardConfig(JSON.parse(text) as unknown);
        return parsed.config ? new VersionQuestions(version, parsed.config) : undefined;
      });
      entry = read;
      this.versions.set(key, read);
      read.catch(() => {
        if (this.versions.peek(key) === read) this.versions.delete(key);
      });
    }
    return entry;
  }

  /**
   * Versions 1 to `range.last` of the stored page `pageId` as one, `range.served` the version it
   * serves ({@link mergeVersions}); undefined when none of them parses.
   * @throws the store's error when it cannot be reached (nothing kept).
   */
  async page(pageId: string, range: VersionRange): Promise<MergedVersions | undefined> {
    const { last, served } = range;
    const key = `${pageId}\u0000${last}\u0000${served}`;
    let entry = this.merged.get(key);
    if (!entry) {
      const read = Promise.all(Array.from({ length: last }, (_, index) => this.version(pageId, index + 1))).then((all) => {
        const versions = all.filter((version): version is VersionQuestions => version !== undefined);
        if (versions.length === 0) return undefined;
        const lists = <T>(of: (version: VersionQuestions) => T[]) => versions.map((version) => ({ version: version.version, items: of(version) }));
        return {
          last,
          served,
          columns: mergeVersions(lists((version) => version.columns), served),
          questions: mergeVersions(lists((version) => version.questions), served),
          plan: mergePlans(versions, served),
        };
      });
      entry = read;
      this.merged.set(key, read);
      read.catch(() => {
        if (this.merged.peek(key) === read) this.merged.delete(key);
      });
    }
    return entry;
  }

  /** The last and the served version of each stored page that has one (one read of the store): what {@link page} is asked with. */
  async versionRange(pageId?: string): Promise<Map<string, VersionRange>> {
    return this.store.versionRange(pageId);
  }

  /**
   * The labels of one application's answers: a stored page's by the version it answered; the
   * default page's (or a version that no longer parses) as before, by its page's configuration.
   */
  async answerColumns(row: { pageId: string; pageVersion?: number | undefined }): Promise<AnswerColumn[]> {
    if (row.pageVersion !== undefined && !this.defaults.has(row.pageId)) {
      const version = await this.version(row.pageId, row.pageVersion);
      if (version) return version.columns;
    }
    return this.defaultColumns(row.pageId);
  }

  /**
   * The answer columns of a CSV export and whether it has a `Page version` column. A default
   * page's: its columns as before, no version column. A stored page's: every version's columns
   * ({@link mergeVersions}), and the version column. Every page's (no `pageId`): the default
   * pages' columns, then each stored page's not named yet, and the version column when a stored
   * page has a version — with no stored page, the export of before.
   */
  async exportColumns(pageId?: string): Promise<{ columns: AnswerColumn[]; pageVersion: boolean }> {
    if (pageId !== undefined && this.defaults.has(pageId)) return { columns: this.defaultColumns(pageId), pageVersion: false };
    const ranges = await this.versionRange(pageId);
    if (pageId !== undefined) {
      const merged = ranges.has(pageId) ? await this.page(pageId, ranges.get(pageId)!) : undefined;
      return merged ? { columns: merged.columns, pageVersion: true } : { columns: this.defaultColumns(pageId), pageVersion: false };
    }
    const columns = [...this.defaultColumns()];
    const named = new Set(columns.map((column) => column.key));
    for (const [id, range] of [...ranges].sort(([a], [b]) => (a < b ? -1 : 1))) {
      for (const column of (await this.page(id, range))?.columns ?? []) {
        if (named.has(column.key)) continue;
        named.add(column.key);
        columns.push(column);
      }
    }
    return { columns, pageVersion: ranges.size > 0 };
  }

  /** What the summary of the stored page `pageId` counts: every version's questions and platforms; undefined for a page never published. */
  async summaryPlan(pageId: string): Promise<SummaryPlan | undefined> {
    const range = (await this.versionRange(pageId)).get(pageId);
    return range === undefined ? undefined : (await this.page(pageId, range))?.plan;
  }
}
