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

/** A merged question (or answer column) before its mark: the label of the newest version that asks it, and that version. */
export interface Unmarked<T> {
  item: T;
  lastAsked: number;
}

/**
 * One step of {@link mergeVersions}: the questions of `version` (newer than every version of
 * `older`) merged with `older`, the merge of the versions before it: `version`'s questions in its
 * order with its labels, then each question only `older` has, placed after the question it
 * follows there, with its label and `lastAsked` kept. A choice question's options are both lists'
 * (the newer's first) when they agree on its kind; otherwise the newer's stand. Neither input is
 * changed. O(questions²) at worst (a splice per question), never per version: a page's merge is
 * kept and extended by each new version (`PageVersionLabels`).
 */
export function mergeNext<T extends Keyed>(older: readonly Unmarked<T>[], version: number, items: readonly T[]): Unmarked<T>[] {
  const merged: Unmarked<T>[] = [];
  const at = new Map<string, Unmarked<T>>();
  for (const item of items) {
    if (at.has(item.key)) continue;
    const entry = { item: { ...item, ...(item.options ? { options: [...item.options] } : {}) } as T, lastAsked: version };
    merged.push(entry);
    at.set(item.key, entry);
  }
  let previous = -1;
  for (const entry of older) {
    const known = at.get(entry.item.key);
    if (!known) {
      const copy = { item: { ...entry.item, ...(entry.item.options ? { options: [...entry.item.options] } : {}) } as T, lastAsked: entry.lastAsked };
      merged.splice(previous + 1, 0, copy);
      at.set(entry.item.key, copy);
      previous += 1;
      continue;
    }
    previous = merged.indexOf(known);
    if (known.item.options && entry.item.options && known.item.kind === entry.item.kind) {
      const options = known.item.options as { value: string; label: string }[];
      for (const option of entry.item.options) if (!options.some((candidate) => candidate.value === option.value)) options.push(option);
    }
  }
  return merged;
}

/**
 * A merge's questions with their marks: {@link untilVersion} on each that the newest version
 * (`last`) does not ask, unless the version served asks it (`servedKeys`: a rollback serves an
 * earlier version, whose questions are asked again).
 */
export function markVersions<T extends Keyed>(merged: readonly Unmarked<T>[], last: number, servedKeys: ReadonlySet<string>): T[] {
  return merged.map(({ item, lastAsked }) => (lastAsked === last || servedKeys.has(item.key) ? item : { ...item, label: untilVersion(item.label, lastAsked) }));
}

/**
 * The questions (or answer columns) of several versions of a page as one list, each key once
 * (docs/decisions/021, "Answers of earlier versions"): the newest version's, in its order and with
 * its labels; then each question only earlier versions ask, placed after the question it
 * followed in the merge of the versions before, labelled as the last version that asks it labels
 * it, and marked {@link untilVersion} with that version — unless the version served asks it (a
 * rollback serves an earlier version: its questions are asked again). Versions are merged oldest
 * first, one at a time ({@link mergeNext}), so a page's merge is extended by a new version, never
 * made again; marks are applied last ({@link markVersions}).
 * @param versions - each version's number and its list, in any order (none: `[]`).
 * @param served - the version served (default: the newest).
 */
export function mergeVersions<T extends Keyed>(versions: readonly { version: number; items: readonly T[] }[], served?: number): T[] {
  const oldestFirst = [...versions].sort((a, b) => a.version - b.version);
  const merged = oldestFirst.reduce<Unmarked<T>[]>((older, { version, items }) => mergeNext(older, version, items), []);
  const servedKeys = new Set(oldestFirst.find((version) => version.version === served)?.items.map((item) => item.key));
  return markVersions(merged, oldestFirst.at(-1)?.version ?? 0, servedKeys);
}

/** A stored page's versions 1 to `last` merged ({@link mergeNext}), before the marks: kept per page and extended by each new version. */
interface PageMerge {
  last: number;
  /** Versions that parsed (none: the page is labelled as a default page). */
  parsed: number;
  columns: Unmarked<AnswerColumn>[];
  questions: Unmarked<FilterQuestion>[];
  planQuestions: Unmarked<SummarisedQuestion>[];
  /** Every platform any version asks for. */
  platforms: ReadonlySet<string>;
}

const NO_VERSIONS: PageMerge = { last: 0, parsed: 0, columns: [], questions: [], planQuestions: [], platforms: new Set() };

/** How long a merge of many versions holds the event loop before it lets other work run, in ms. */
const MERGE_SLICE_MS = 10;

/** A version's configuration text parsed (defaults applied); undefined when it no longer parses. */
function parseVersion(version: number, text: string): VersionQuestions | undefined {
  const parsed = parseWizardConfig(JSON.parse(text) as unknown);
  return parsed.config ? new VersionQuestions(version, parsed.config) : undefined;
}

/**
 * How the inbox labels answers, filters and CSV columns (docs/decisions/021): the
 * default pages (the configuration files, no versions) as before (`answerColumnsByPage`); a stored
 * page's application by the version it answered (`applications.page_version`); a stored page's
 * list, summary and CSV by every version it published ({@link mergeVersions}).
 *
 * Versions are immutable, so nothing is ever invalidated. An application's version is read and
 * parsed once, then kept (an LRU of {@link VERSION_CACHE_SIZE} versions). A page's merge of its
 * versions is kept per page (as many pages) and extended by each new version, read in one query
 * with the others it lacks; its marks are worked out per version served (as many). A read in
 * flight is shared by the requests that wait for it; a failed read is not kept.
 */
export class PageVersionLabels {
  private readonly versions: LruMap<string, Promise<VersionQuestions | undefined>>;
  private readonly merges: LruMap<string, { last: number; merge: Promise<PageMerge> }>;
  private readonly merged: LruMap<string, Promise<MergedVersions | undefined>>;
  private columnsByPage: { revision: number; of: (pageId?: string) => AnswerColumn[] };

  /**
   * @param defaults - the default pages' configurations by page id (every server's file pages:
   *   `app.filePages.all`, a Map changed in place).
   * @param store - the stored pages' versions.
   * @param limit - versions (and pages' merges) kept in memory.
   * @param revision - counts the changes to `defaults`: their columns are worked out again when it moves.
   */
  constructor(
    private readonly defaults: ReadonlyMap<string, WizardConfig>,
    private readonly store: Pick<PageRepository, 'version' | 'versionConfigs' | 'versionRange'>,
    limit = VERSION_CACHE_SIZE,
    private readonly revision: () => number = () => 0,
  ) {
    this.versions = new LruMap(limit);
    this.merges = new LruMap(limit);
    this.merged = new LruMap(limit);
    this.columnsByPage = { revision: revision(), of: answerColumnsByPage(defaults) };
  }

  /** A default page's answer columns (none named: every default page's), as `defaults` are now. */
  private defaultColumns(pageId?: string): AnswerColumn[] {
    const revision = this.revision();
    if (revision !== this.columnsByPage.revision) this.columnsByPage = { revision, of: answerColumnsByPage(this.defaults) };
    return this.columnsByPage.of(pageId);
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
        return parseVersion(version, text);
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
   * Versions 1 to `last` of page `pageId` merged, before the marks. Kept per page: a page asked
   * with a newer `last` (a publish) reads and merges only the versions after the kept one, in one
   * read of the store; a read in flight is shared; a failed read is not kept. Asked with an older
   * `last` than the kept one (a read that raced a publish), the merge is made afresh, not kept.
   */
  private pageMerge(pageId: string, last: number): Promise<PageMerge> {
    const kept = this.merges.get(pageId);
    if (kept?.last === last) return kept.merge;
    const base = kept && kept.last < last ? kept.merge.catch(() => NO_VERSIONS) : Promise.resolve(NO_VERSIONS);
    const merge = base.then((from) => this.extend(pageId, from, last));
    if (!kept || kept.last < last) {
      const entry = { last, merge };
      this.merges.set(pageId, entry);
      merge.catch(() => {
        if (this.merges.peek(pageId) === entry) this.merges.delete(pageId);
      });
    }
    return merge;
  }

  /** `from` extended with versions `from.last + 1` to `last` (one read), yielding to other work every {@link MERGE_SLICE_MS}. */
  private async extend(pageId: string, from: PageMerge, last: number): Promise<PageMerge> {
    const rows = await this.store.versionConfigs(pageId, from.last + 1, last);
    let merge = from;
    let slice = performance.now();
    for (const row of rows) {
      const version = parseVersion(row.version, row.config);
      if (version) {
        merge = {
          last: version.version,
          parsed: merge.parsed + 1,
          columns: mergeNext(merge.columns, version.version, version.columns),
          questions: mergeNext(merge.questions, version.version, version.questions),
          planQuestions: mergeNext(merge.planQuestions, version.version, version.plan.questions),
          platforms: new Set([...merge.platforms, ...version.plan.platforms]),
        };
      }
      if (performance.now() - slice > MERGE_SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
    }
    return { ...merge, last };
  }

  /**
   * Versions 1 to `range.last` of the stored page `pageId` as one, `range.served` the version it
   * serves ({@link mergeVersions}); undefined when none of them parses. After the page's first
   * read, a publish reads only the new version, and a rollback only the version served (for its
   * marks): a read does not grow with the number of versions.
   * @throws the store's error when it cannot be reached (nothing kept).
   */
  async page(pageId: string, range: VersionRange): Promise<MergedVersions | undefined> {
    const { last, served } = range;
    const key = `${pageId}\u0000${last}\u0000${served}`;
    let entry = this.merged.get(key);
    if (!entry) {
      const read = (async () => {
        const merge = await this.pageMerge(pageId, last);
        if (merge.parsed === 0) return undefined;
        const servedVersion = served === last ? undefined : await this.version(pageId, served);
        const keys = (items: readonly { key: string }[] | undefined) => new Set(items?.map((item) => item.key));
        return {
          last,
          served,
          columns: markVersions(merge.columns, last, keys(servedVersion?.columns)),
          questions: markVersions(merge.questions, last, keys(servedVersion?.questions)),
          plan: {
            questions: markVersions(merge.planQuestions, last, keys(servedVersion?.plan.questions)),
            platforms: PLATFORM_NAMES.filter((platform) => merge.platforms.has(platform)),
          },
        };
      })();
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
