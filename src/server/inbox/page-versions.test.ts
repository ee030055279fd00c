import { describe, expect, it } from 'vitest';
import type { FilterQuestion } from '../../shared/admin';
import { LruMap, PageVersionLabels, mergeVersions } from './page-versions';
import { rawDefaultConfig } from '../../../tests/factories/application';

const choice = (key: string, label: string, values: string[]): FilterQuestion => ({
  key,
  label,
  kind: 'choice',
  options: values.map((value) => ({ value, label: value })),
});

describe('mergeVersions (the questions of every version of a page)', () => {
  it("keeps the newest version's order and labels, and places an earlier version's question after the one it followed, marked", () => {
    const merged = mergeVersions([
      { version: 1, items: [choice('a', 'A one', ['x']), choice('gone', 'Gone', ['y']), choice('b', 'B one', ['z'])] },
      { version: 2, items: [choice('a', 'A two', ['x']), choice('b', 'B two', ['z']), choice('new', 'New', ['n'])] },
    ]);
    expect(merged.map((question) => [question.key, question.label])).toEqual([
      ['a', 'A two'],
      ['gone', 'Gone (until version 1)'],
      ['b', 'B two'],
      ['new', 'New'],
    ]);
  });

  it('marks a question with the last version that asks it, labelled as that version labels it', () => {
    const merged = mergeVersions([
      { version: 3, items: [choice('a', 'A', [])] },
      { version: 1, items: [choice('a', 'A', []), choice('old', 'Old one', [])] },
      { version: 2, items: [choice('a', 'A', []), choice('old', 'Old two', [])] },
    ]);
    expect(merged.find((question) => question.key === 'old')?.label).toBe('Old two (until version 2)');
  });

  it("leaves unmarked what the version served asks (a rollback), and merges a choice's options", () => {
    const versions = [
      { version: 1, items: [choice('a', 'A one', ['x', 'gone']), choice('old', 'Old', ['o'])] },
      { version: 2, items: [choice('a', 'A two', ['x', 'w'])] },
    ];
    const rolledBack = mergeVersions(versions, 1);
    expect(rolledBack.map((question) => question.label)).toEqual(['A two', 'Old']);
    expect(rolledBack[0]!.options?.map((option) => option.value)).toEqual(['x', 'w', 'gone']);
    // The inputs are left as they were.
    expect(versions[1]!.items[0]!.options).toHaveLength(2);
    // A question whose kind changed keeps the newest kind and its options only.
    const kinds = mergeVersions([
      { version: 1, items: [choice('a', 'A', ['x'])] },
      { version: 2, items: [{ key: 'a', label: 'A', kind: 'text' } satisfies FilterQuestion] },
    ]);
    expect(kinds).toEqual([{ key: 'a', label: 'A', kind: 'text' }]);
    expect(mergeVersions([])).toEqual([]);
  });
});

describe('LruMap', () => {
  it('forgets the least recently used entry past its limit', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    expect(map.get('a')).toBe(1);
    map.set('c', 3);
    expect([map.peek('a'), map.peek('b'), map.peek('c')]).toEqual([1, undefined, 3]);
    expect(map.size).toBe(2);
  });
});

describe('PageVersionLabels', () => {
  /** A store of versions that counts its reads. */
  const versionStore = (versions: Record<number, unknown>) => {
    const reads: number[] = [];
    const ranges: [number, number][] = [];
    return {
      reads,
      ranges,
      version: async (_id: string, version: number) => {
        reads.push(version);
        return versions[version] === undefined ? undefined : JSON.stringify(versions[version]);
      },
      versionConfigs: async (_id: string, from: number, to: number) => {
        ranges.push([from, to]);
        return Object.entries(versions)
          .map(([version, config]) => ({ version: Number(version), config: JSON.stringify(config) }))
          .filter(({ version }) => version >= from && version <= to);
      },
      versionRange: async () => new Map([['camp', { last: 2, served: 2 }]]),
    };
  };
  const config = (title: string) => ({ ...rawDefaultConfig(), pageId: 'camp', title });

  it('reads and parses each version once, shares a read in flight, and keeps at most its limit', async () => {
    const store = versionStore({ 1: config('One'), 2: config('Two'), 3: config('Three') });
    const labels = new PageVersionLabels(new Map(), store, 2);
    const [first, again] = await Promise.all([labels.version('camp', 1), labels.version('camp', 1)]);
    expect(first?.config.title).toBe('One');
    expect(again).toBe(first);
    await labels.version('camp', 2);
    await labels.version('camp', 1);
    expect(store.reads).toEqual([1, 2]);
    await labels.version('camp', 3);
    expect(labels.cached).toBe(2);
    // Version 2 was the least recently used: read again.
    await labels.version('camp', 2);
    expect(store.reads).toEqual([1, 2, 3, 2]);
  });

  it('keeps no missing version (it may be published later) and no failed read; a version that no longer parses is labelled as a default page', async () => {
    const store = versionStore({ 2: { title: 'not a page' } });
    const labels = new PageVersionLabels(new Map(), store);
    expect(await labels.version('camp', 1)).toBeUndefined();
    expect(labels.cached).toBe(0);
    expect(await labels.version('camp', 2)).toBeUndefined();
    expect(labels.cached).toBe(1);
    const failing = new PageVersionLabels(new Map(), {
      version: () => Promise.reject(new Error('store down')),
      versionConfigs: () => Promise.reject(new Error('store down')),
      versionRange: store.versionRange,
    });
    await expect(failing.version('camp', 1)).rejects.toThrow('store down');
    expect(failing.cached).toBe(0);
    await expect(failing.page('camp', { last: 2, served: 2 })).rejects.toThrow('store down');
  });

  it("reads a page's versions once, in one range, then only a new version, and for a rollback only the version served (fourth attack, F2)", async () => {
    const withQuestion = (title: string, key: string) => {
      const raw = config(title);
      raw.steps[2].blocks.push({ component: 'textField', data: { path: `fields.${key}`, label: `${title}: ${key}?` } });
      return raw;
    };
    const versions: Record<number, unknown> = {};
    for (let version = 1; version <= 300; version += 1) versions[version] = withQuestion(`V${version}`, `q${version}`);
    const store = versionStore(versions);
    // A version LRU far smaller than the page's versions: a page's merge does not live in it.
    const labels = new PageVersionLabels(new Map(), store, 2);
    const first = await labels.page('camp', { last: 299, served: 299 });
    expect(store.ranges).toEqual([[1, 299]]);
    expect(store.reads).toEqual([]);
    const published = await labels.page('camp', { last: 300, served: 300 });
    expect(store.ranges).toEqual([
      [1, 299],
      [300, 300],
    ]);
    const rolledBack = await labels.page('camp', { last: 300, served: 7 });
    expect(store.ranges).toHaveLength(2);
    expect(store.reads).toEqual([7]);
    await labels.page('camp', { last: 300, served: 300 });
    expect([store.ranges.length, store.reads.length]).toEqual([2, 1]);

    // The same lists as merging every version at once.
    const all = await Promise.all(Array.from({ length: 300 }, (_, index) => labels.version('camp', index + 1)));
    const lists = (last: number) => all.slice(0, last).map((version) => ({ version: version!.version, items: version!.questions }));
    expect(first!.questions).toEqual(mergeVersions(lists(299), 299));
    expect(published!.questions).toEqual(mergeVersions(lists(300), 300));
    expect(rolledBack!.questions).toEqual(mergeVersions(lists(300), 7));
    expect(rolledBack!.questions.find((question) => question.key === 'q7')?.label).toBe('V7: q7?');
    expect(rolledBack!.questions.find((question) => question.key === 'q8')?.label).toBe('V8: q8? (until version 8)');
  });
});
