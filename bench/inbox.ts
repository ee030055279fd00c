/**
 * The inbox section of `npm run bench`: fills a store with 100 000
 * applications (BENCH_INBOX_ROWS), then prints the p50/p95 of list and search
 * queries in ms on SQLite and, when TEST_DATABASE_URL is set, PostgreSQL
 * (target: p95 under 50 ms for every list, sort and filter, decision 020, beside the plain newest-first
 * list measured in the same run), and the CSV export of every row through the real
 * HTTP route: time and the server's peak heap growth (streamed: constant memory). Then the
 * summary view's aggregates (target p95 under 50 ms) for the same filters and under
 * free-text `contains` texts, alone and eight at once.
 * Every application carries every survey answer of the default page, varied.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { defaultConfig } from '../tests/factories/application';
import { fillApplications } from '../tests/factories/fill';
import { createTestDatabase } from '../tests/support/postgres';
import { buildApp } from '../src/server/app';
import { hashPassword } from '../src/server/inbox/password';
import { openStore, type Store } from '../src/server/store/store';
import { summaryPlan, summaryRequest } from '../src/server/inbox/summary';
import type { ApplicationFilter } from '../src/shared/admin';
import type { ListOrder } from '../src/server/store/application-filters';
import type { ListPosition } from '../src/server/store/applications';

const ROWS = Number(process.env.BENCH_INBOX_ROWS ?? 100_000);
const RUNS = 40;
/** The `p`-th percentile of `samples` (nearest rank), rounded to 0.1. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10;
}

async function time(run: () => Promise<unknown>) {
  const samples: number[] = [];
  await run();
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

async function queries(store: Store) {
  const list = (filter: ApplicationFilter, after?: ListPosition, order?: ListOrder) =>
    store.applications.listApplications(filter, { limit: 51, withDuplicates: true, ...(after ? { after } : {}), ...(order ? { order } : {}) });
  const deep = (await list({})).at(-1)!;
  /** The second page of a sort: its first page's last row as the cursor. */
  const second = async (order: ListOrder, filter: ApplicationFilter = {}) => {
    const last = (await list(filter, undefined, order)).at(-2)!;
    return () => list(filter, { receivedAt: last.receivedAt, id: last.id, ...(last.sortValue === undefined ? {} : { value: last.sortValue }) }, order);
  };
  const byFollowers: ListOrder = { sort: 'followers', dir: 'desc' };
  return [
    ['list, newest 50', () => list({})],
    ['list, next page (cursor)', () => list({}, deep)],
    ['list, status = shortlisted', () => list({ status: 'shortlisted' })],
    ['list, platform + country', () => list({ platform: 'tiktok', country: 'JP' })],
    ['search, common name ("lena")', () => list({ q: 'lena' })],
    ['search, one e-mail', () => list({ q: `creator${Math.floor(ROWS / 2)}@example.com` })],
    ['search, one handle', () => list({ q: `insta${Math.floor(ROWS / 3) * 3 + 1}` })],
    ['search, no match', () => list({ q: 'nobody-at-all' })],
    ['detail (one application)', () => store.applications.getApplication(deep.id)],
    ['sort: total followers, most first', () => list({}, undefined, byFollowers)],
    ['sort: total followers, next page', await second(byFollowers)],
    ['sort: total followers, fewest first', () => list({}, undefined, { sort: 'followers', dir: 'asc' })],
    ['sort: largest platform', () => list({}, undefined, { sort: 'topPlatform', dir: 'desc' })],
    ['sort: name A–Z, next page', await second({ sort: 'name', dir: 'asc' })],
    ['sort: country Z–A', () => list({}, undefined, { sort: 'country', dir: 'desc' })],
    ['sort: followers + status = shortlisted', () => list({ status: 'shortlisted' }, undefined, byFollowers)],
    ['sort: followers + country = JP', () => list({ country: 'JP' }, undefined, byFollowers)],
    ['answer: Super-Fan', () => list({ answer: ['howFamiliar:Super-Fan'] })],
    ['answers: Super-Fan + Thinking Putty', () => list({ answer: ['howFamiliar:Super-Fan', 'whichProducts:Thinking Putty'] })],
    ['answer: rare (never plays, 0.1 %)', () => list({ answer: ['howOften:Never'] })],
    ['answer: none match', () => list({ answer: ['howFamiliar:Nobody'] })],
    ['answer + sort by followers', () => list({ answer: ['howFamiliar:Super-Fan', 'whichProducts:Thinking Putty'] }, undefined, byFollowers)],
    ['answer, rare + sort by followers', () => list({ answer: ['howOften:Never'] }, undefined, byFollowers)],
    ['free text contains (common, "castle")', () => list({ contains: ['dreamCampaign:castle'] })],
    ['free text contains (one, "#4242")', () => list({ contains: ['dreamCampaign:#4242 '] })],
    ['counts per status', () => store.applications.countApplications({})],
    ['counts per status, one answer', () => store.applications.countApplications({ answer: ['howFamiliar:Super-Fan'] })],
    ['counts per status, two answers', () => store.applications.countApplications({ answer: ['howFamiliar:Super-Fan', 'whichProducts:Thinking Putty'] })],
    ['counts per status, answer + country', () => store.applications.countApplications({ answer: ['howFamiliar:Super-Fan'], country: 'JP' })],
    ['counts per status, platform + country', () => store.applications.countApplications({ platform: 'tiktok', country: 'JP' })],
    ['counts per status, search ("lena")', () => store.applications.countApplications({ q: 'lena' })],
    ['counts per status, contains (common, "castle")', () => store.applications.countApplications({ contains: ['dreamCampaign:castle'] })],
    [
      'counts per status, last 7 days (every row)',
      () => store.applications.countApplications({ from: new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10) }),
    ],
  ] as const;
}

/** The summary's aggregates of the default page for a few of the list's filters. */
function summaries(store: Store) {
  const request = summaryRequest(summaryPlan(defaultConfig()));
  const summary = (filter: ApplicationFilter) => store.summary.summarize({ pageId: 'creators', ...filter }, request);
  return [
    ['summary, every application', () => summary({})],
    ['summary, status = shortlisted', () => summary({ status: 'shortlisted' })],
    ['summary, platform + country', () => summary({ platform: 'tiktok', country: 'JP' })],
    ['summary, last 7 days', () => summary({ from: new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10) })],
    ['summary, search ("lena")', () => summary({ q: 'lena' })],
    // A free-text question's `contains` (a quarter of the applications write "putty", one "#4242 ").
    ['summary, contains (common, "putty")', () => summary({ contains: ['dreamCampaign:putty'] })],
    ['summary, contains (one, "#4242")', () => summary({ contains: ['dreamCampaign:#4242 '] })],
    ['summary, contains + status = shortlisted', () => summary({ contains: ['dreamCampaign:putty'], status: 'shortlisted' })],
    ['summary, contains + answer (Super-Fan)', () => summary({ contains: ['dreamCampaign:castle'], answer: ['howFamiliar:Super-Fan'] })],
    ['summary, contains + country', () => summary({ contains: ['dreamCampaign:putty'], country: 'JP' })],
  ] as const;
}

/** Summaries asked at once, as a team opening a shared view: each one's time, and how many failed. */
const AT_ONCE = 8;

/**
 * The summary under a common `contains` text, {@link AT_ONCE} at a time (the inbox's reads have two
 * threads on SQLite and four connections on PostgreSQL): p50/p95 of each summary's time from the
 * moment all were asked, over {@link RUNS} ÷ 4 rounds, and the failures (a store refusing or
 * timing out is a 503).
 */
async function parallelSummaries(store: Store) {
  const request = summaryRequest(summaryPlan(defaultConfig()));
  const samples: number[] = [];
  let failed = 0;
  for (let round = 0; round <= RUNS / 4; round++) {
    const started = performance.now();
    const results = await Promise.allSettled(
      Array.from({ length: AT_ONCE }, async () => {
        await store.summary.summarize({ pageId: 'creators', contains: ['dreamCampaign:putty'] }, request);
        return performance.now() - started;
      }),
    );
    // The first round warms up.
    if (round === 0) continue;
    for (const result of results) {
      if (result.status === 'fulfilled') samples.push(result.value);
      else failed += 1;
    }
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), failed };
}

async function exportCsv(store: Store, query: string) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-inbox-'));
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'dist', 'index.html'), '<html lang="en"><title>x</title><!--wizard-config--></html>');
  const app = await buildApp({ config: defaultConfig(), store, distDir: join(dir, 'dist') });
  await store.users.createUser('bench@brand.example', await hashPassword('bench password 1'), 'viewer').catch(() => undefined);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const signIn = await fetch(`${address}/api/admin/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@brand.example', password: 'bench password 1' }),
  });
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  global.gc?.();
  const baseHeap = process.memoryUsage().heapUsed;
  let peakHeap = baseHeap;
  // With --expose-gc (npm run bench), each sample is the live heap after a collection: what the
  // export holds, not garbage waiting for the collector.
  const sampler = setInterval(() => {
    global.gc?.();
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 100);
  const started = performance.now();
  const response = await fetch(`${address}/api/admin/applications.csv${query}`, { headers: { cookie, 'accept-encoding': 'identity' } });
  let bytes = 0;
  let records = -1; // the header line
  for await (const chunk of response.body!) {
    bytes += (chunk as Uint8Array).length;
    for (const byte of chunk as Uint8Array) if (byte === 10) records += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  await app.close();
  rmSync(dir, { recursive: true, force: true });
  // Answers hold no line breaks here, so line feeds count records.
  return {
    lines: records,
    seconds: Math.round(seconds * 10) / 10,
    mib: Math.round((bytes / 1048576) * 10) / 10,
    heapGrowthMiB: Math.round((peakHeap - baseHeap) / 1048576),
  };
}

/** Runs the inbox benchmark and prints its tables. */
export async function benchInbox() {
  console.log(`\ninbox benchmark: ${ROWS} applications, ${RUNS} runs per query, limit 50 (+1 to know if there is a next page), duplicates marked\n`);
  const stores: [string, () => Promise<{ url: string; drop: () => Promise<void> }>][] = [
    [
      'SQLite',
      async () => {
        const dir = mkdtempSync(join(tmpdir(), 'bench-inbox-db-'));
        return { url: `sqlite:${join(dir, 'applications.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
      },
    ],
  ];
  if (process.env.TEST_DATABASE_URL) stores.push(['PostgreSQL', createTestDatabase]);
  else console.log('(TEST_DATABASE_URL not set: PostgreSQL not measured)\n');

  const results: { store: string; name: string; p50: number; p95: number }[] = [];
  const summaryResults: typeof results = [];
  for (const [name, create] of stores) {
    const database = await create();
    const filling = await openStore(database.url);
    const seconds = await fillApplications(filling, ROWS);
    console.log(`${name}: filled ${ROWS} applications in ${seconds} s`);
    // Measured as a running server reads: with planner statistics. SQLite: the store gathers them
    // when it opens (and every 10 minutes); opened again, as after a restart.
    await filling.close();
    if (name === 'PostgreSQL') {
      // As autovacuum does within a minute of a bulk change: without statistics PostgreSQL guesses
      // the freshly filled table is small and scans it; without a vacuum its index-only scans
      // visit the table for every row.
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      await client.query('vacuum analyze');
      await client.end();
    }
    const store = await openStore(database.url);
    for (const [query, run] of await queries(store)) results.push({ store: name, name: query, ...(await time(run)) });
    for (const [query, run] of summaries(store)) summaryResults.push({ store: name, name: query, ...(await time(run)) });
    const parallel = await parallelSummaries(store);
    summaryResults.push({
      store: name,
      name: `summary, contains (common), ${AT_ONCE} at once (${parallel.failed} failed)`,
      p50: parallel.p50,
      p95: parallel.p95,
    });
    if (name === 'SQLite') {
      // The same export of a tenth of the rows and of all of them: streamed, the heap does not grow with the rows.
      for (const query of ['?status=shortlisted', '']) {
        const csv = await exportCsv(store, query);
        console.log(
          `${name}: CSV export of ${csv.lines} rows: ${csv.mib} MiB in ${csv.seconds} s, ${global.gc ? 'live' : 'server'} heap growth at most ${csv.heapGrowthMiB} MiB`,
        );
      }
    }
    await store.close();
    await database.drop();
  }
  console.log('\n| store | query | p50 ms | p95 ms | target p95 < 50 ms |');
  console.log('|---|---|---:|---:|---|');
  for (const row of results) console.log(`| ${row.store} | ${row.name} | ${row.p50} | ${row.p95} | ${row.p95 < 50 ? 'met' : 'NOT met'} |`);
  console.log('\n| store | summary | p50 ms | p95 ms | target p95 < 50 ms |');
  console.log('|---|---|---:|---:|---|');
  for (const row of summaryResults) console.log(`| ${row.store} | ${row.name} | ${row.p50} | ${row.p95} | ${row.p95 < 50 ? 'met' : 'NOT met'} |`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchInbox();
