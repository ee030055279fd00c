import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { applicantPayload } from '../../../tests/factories/application';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import { InboxChanges, SharedReads } from './shared-reads';
import { openStore, type Store } from './store';
import { SummaryRepository, type SummaryRequest } from './summary';
import { talliesServe } from './tallies';
import type { ApplicationFilter } from '../../shared/admin';

// Summaries asked at once share one read, unless this process or another changed something since
// the one running was asked (docs/decisions/020, "Summaries asked at once share one read").

/** A promise and what settles it. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((settle, fail) => ((resolve = settle), (reject = fail)));
  return { promise, resolve, reject };
}

describe('SharedReads', () => {
  it('answers the same read asked meanwhile by the one running, and runs it again once it has settled', async () => {
    const reads = new SharedReads<number>(new InboxChanges());
    const first = deferred<number>();
    const run = vi.fn(() => first.promise);
    const a = reads.read('k', run);
    const b = reads.read('k', run);
    const other = reads.read('other', () => Promise.resolve(2));
    first.resolve(1);
    expect([await a, await b, await other]).toEqual([1, 1, 2]);
    expect(run).toHaveBeenCalledTimes(1);
    expect(await reads.read('k', () => Promise.resolve(3))).toBe(3);
  });

  it('runs a read of its own for a caller that comes after a change, and shares it from then on', async () => {
    const changes = new InboxChanges();
    const reads = new SharedReads<string>(changes);
    const before = deferred<string>();
    const a = reads.read('k', () => before.promise);
    await changes.after(Promise.resolve());
    const after = deferred<string>();
    const b = reads.read('k', () => after.promise);
    const c = reads.read('k', () => Promise.resolve('never run'));
    before.resolve('before');
    after.resolve('after');
    expect([await a, await b, await c]).toEqual(['before', 'after', 'after']);
  });

  it('gives its failure to every caller that shared it, and then runs again', async () => {
    const reads = new SharedReads<string>(new InboxChanges());
    const failing = deferred<string>();
    const a = reads.read('k', () => failing.promise);
    const b = reads.read('k', () => Promise.resolve('never run'));
    failing.reject(new Error('the store is down'));
    await expect(a).rejects.toThrow('the store is down');
    await expect(b).rejects.toThrow('the store is down');
    expect(await reads.read('k', () => Promise.resolve('again'))).toBe('again');
  });

  it('records a change when a write fails as when it commits, and makes it known to other processes unless told not to', async () => {
    let others = 0;
    const changes = new InboxChanges({ now: () => Promise.resolve(others), record: () => Promise.resolve(void (others += 1)) });
    expect(await changes.version()).toBe('0/0');
    await changes.after(Promise.resolve());
    await expect(changes.after(Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    await changes.after(Promise.resolve(), { shared: false });
    expect(await changes.version()).toBe('3/2');
  });

  it('runs a read of its own once another process has changed something', async () => {
    let others = 0;
    const reads = new SharedReads<string>(new InboxChanges({ now: () => Promise.resolve(others), record: () => Promise.resolve() }));
    const before = deferred<string>();
    const a = reads.read('k', () => before.promise);
    // Let the read get its token and begin.
    await new Promise((resolve) => setImmediate(resolve));
    others += 1;
    const b = reads.read('k', () => Promise.resolve('after'));
    before.resolve('before');
    expect([await a, await b]).toEqual(['before', 'after']);
  });
});

const REQUEST: SummaryRequest = {
  platforms: ['instagram', 'tiktok'],
  questions: [
    { key: 'howFamiliar', kind: 'choice', options: ['Super-Fan', 'Unfamiliar'] },
    { key: 'dreamCampaign', kind: 'text', options: [] },
  ],
};

describe.each([
  ['SQLite', () => sqliteExecDatabase('shared-reads-')],
  ['PostgreSQL', postgresExecDatabase],
])('summaries asked at once on %s', (_name, createDatabase: () => Promise<ExecDatabase>) => {
  let database: ExecDatabase;
  let store: Store;
  /** Whether the statements run are counted, and how many (the summaries' own). */
  let counting = false;
  let statements = 0;
  const ids: string[] = [];

  beforeAll(async () => {
    database = await createDatabase();
    // The summaries' statements; not the look at the changes' token each one asked takes first.
    store = await openStore(database.url, { onQuery: (statement) => void (counting && !statement.includes('inbox_changes') && (statements += 1)) });
    for (const [first, fields] of [
      ['Ada', { howFamiliar: 'Super-Fan', dreamCampaign: 'A castle of putty' }],
      ['Kai', { howFamiliar: 'Unfamiliar', dreamCampaign: 'A putty video' }],
      ['Lena', { howFamiliar: 'Super-Fan', dreamCampaign: 'Stop motion' }],
    ] as const) {
      const payload = applicantPayload({
        firstName: first,
        lastName: 'Tester',
        email: `${first.toLowerCase()}@example.com`,
        instagram: first.toLowerCase(),
        fields,
      });
      ids.push((await store.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload })).id);
    }
  }, 60_000);

  afterEach(() => {
    vi.restoreAllMocks();
  });

  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  /** The statements `run` makes the store run. */
  async function statementsOf(run: () => Promise<unknown>) {
    statements = 0;
    counting = true;
    try {
      await run();
      return statements;
    } finally {
      counting = false;
    }
  }

  it('runs eight of the same summary asked at once as one, each caller with a copy of its own', async () => {
    // A filter the tallies do not serve: the matched applications' rows are read.
    const filter = { pageId: 'creators', contains: ['dreamCampaign:putty'] };
    // Once before: the answer index's follow-up of the applications stored runs with the first read.
    await store.summary.summarize(filter, REQUEST);
    let alone: unknown;
    const one = await statementsOf(async () => (alone = await store.summary.summarize(filter, REQUEST)));
    expect(one).toBeGreaterThan(0);
    let results: { matched: number }[] = [];
    // The read held until every caller has its token of the changes: on a loaded machine the read
    // could end before the last caller's token came back (on PostgreSQL a query each, behind the
    // read's own on the pool), and that caller would rightly run its own. "At once" made sure.
    const tokens = vi.fn();
    const version = InboxChanges.prototype.version;
    vi.spyOn(InboxChanges.prototype, 'version').mockImplementation(async function (this: InboxChanges) {
      const token = await version.call(this);
      tokens();
      return token;
    });
    // `count`: the summary's private read, which a shared read runs once.
    const summaries = SummaryRepository.prototype as unknown as { count: (...args: unknown[]) => Promise<unknown> };
    const count = summaries.count;
    vi.spyOn(summaries, 'count').mockImplementation(async function (this: SummaryRepository, ...args: unknown[]) {
      await vi.waitFor(() => expect(tokens).toHaveBeenCalledTimes(8));
      return count.apply(this, args);
    });
    const eight = await statementsOf(async () => (results = await Promise.all(Array.from({ length: 8 }, () => store.summary.summarize(filter, REQUEST)))));
    vi.restoreAllMocks();
    // One read; eight without sharing.
    expect(eight).toBe(one);
    for (const result of results) expect(result).toEqual(alone);
    expect(results[0]?.matched).toBe(2);
    results[0]!.matched = 99;
    expect(results[1]?.matched).toBe(2);
    // Another filter, or another request, is a read of its own.
    const two = await statementsOf(() =>
      Promise.all([store.summary.summarize(filter, REQUEST), store.summary.summarize({ ...filter, status: 'new' }, REQUEST)]),
    );
    expect(two).toBeGreaterThan(one);
  });

  it('answers a summary asked after a decision with one that sees it, while the same summary asked before runs', async () => {
    const filter = { pageId: 'creators', status: 'shortlisted' as const, contains: ['dreamCampaign:putty'] };
    // The summary asked first is held before its statements run (as a slow read would be).
    const gate = deferred<void>();
    const indexed = store.applications.indexed.bind(store.applications);
    vi.spyOn(store.applications, 'indexed').mockImplementationOnce(async () => {
      await gate.promise;
      return indexed();
    });
    const before = store.summary.summarize(filter, REQUEST);
    const sharedBefore = store.summary.summarize(filter, REQUEST);
    // The decision is answered: a summary asked from now on must count it.
    expect(await store.applications.setStatuses([ids[0]!], 'shortlisted', 'reviewer@example.com')).toBe(1);
    const after = await store.summary.summarize(filter, REQUEST);
    expect(after.matched).toBe(1);
    expect(after.questions[0]?.options).toEqual([1, 0]);
    gate.resolve();
    // The one asked before reads after the gate, so it sees the decision too; the one asked with it shares it.
    expect(await sharedBefore).toEqual(await before);
  });

  /**
   * Runs `change` (another process's, answered) while a summary of `filter` on `here` asked before
   * it has read its rows and is held before it ends; then asks the same summary on `here`.
   * @returns the summary asked before the change and the one asked after, as their matched counts.
   */
  async function aroundChange(here: Store, filter: ApplicationFilter, change: () => Promise<unknown>) {
    const gate = deferred<void>();
    const statementsRead = deferred<void>();
    const summary = here.summary as unknown as Record<'counted' | 'tallied', (...args: unknown[]) => Promise<unknown>>;
    const method = talliesServe(filter) ? 'tallied' : 'counted';
    const original = summary[method].bind(here.summary);
    vi.spyOn(summary, method).mockImplementationOnce(async (...args: unknown[]) => {
      const rows = await original(...args);
      statementsRead.resolve();
      await gate.promise;
      return rows;
    });
    const asked = here.summary.summarize(filter, REQUEST);
    await statementsRead.promise;
    expect(await change()).toBeTruthy();
    // The summary asked after takes its token of the changes (on PostgreSQL a query) and then joins
    // the one held or runs its own: the held one ends only once that is done.
    const tokenRead = deferred<void>();
    const changes = here.applications.changes;
    const version = changes.version.bind(changes);
    vi.spyOn(changes, 'version').mockImplementationOnce(async () => {
      const token = await version();
      setImmediate(() => tokenRead.resolve());
      return token;
    });
    const askedAfter = here.summary.summarize(filter, REQUEST);
    await tokenRead.promise;
    gate.resolve();
    return [(await asked).matched, (await askedAfter).matched];
  }

  it("answers a summary asked after another process's decision or erasure with one that sees it", async () => {
    // Another server process on the same database (PostgreSQL behind a balancer; on SQLite, the admin command).
    const other = await openStore(database.url);
    try {
      const declined = { pageId: 'creators', status: 'declined' as const };
      expect(await aroundChange(store, declined, () => other.applications.setStatuses([ids[1]!], 'declined', 'reviewer@example.com'))).toEqual([0, 1]);
      vi.restoreAllMocks();
      expect(await aroundChange(store, { ...declined, platform: 'instagram' }, () => other.applications.eraseApplication(ids[1]!, 'dpo@example.com'))).toEqual([
        1, 0,
      ]);
    } finally {
      await other.close();
    }
  });

  it("counts the first change another process makes on a new database (a sequence's first value reads as none's)", async () => {
    const fresh = await createDatabase();
    const here = await openStore(fresh.url);
    const other = await openStore(fresh.url);
    try {
      const payload = applicantPayload({
        firstName: 'Noa',
        lastName: 'Tester',
        email: 'noa@example.com',
        instagram: 'noa',
        fields: { howFamiliar: 'Super-Fan' },
      });
      const { id } = await here.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload });
      const accepted = { pageId: 'creators', status: 'accepted' as const };
      // Its answer index's follow-up done first: it would be a change of this process's own.
      await here.summary.summarize(accepted, REQUEST);
      expect(await aroundChange(here, accepted, () => other.applications.setStatuses([id], 'accepted', 'reviewer@example.com'))).toEqual([0, 1]);
    } finally {
      await here.close();
      await other.close();
      await fresh.drop();
    }
  });
});
