/**
 * `npm run bench`: measures what users do on this machine in one run, each figure beside a
 * baseline measured in the same run (issues 5 and 12). The submit section:
 * - a bare Fastify route that parses the same body and stores nothing (the baseline);
 * - the real server (`src/server/server.ts`) on SQLite (WAL, synchronous=FULL) and, when
 *   TEST_DATABASE_URL is set, PostgreSQL, each on an empty table and on one holding a million
 *   applications (BENCH_ROWS; bench/stored.ts keeps filled templates in .bench-cache/), under
 *   what the wizard sends (bench/client.ts: a new applicant, Idempotency-Key and the page's XSRF
 *   pair per request), 50 connections, autocannon: requests/s, p50 and p99 latency in ms, RSS;
 * - PostgreSQL served by one process and by two (BENCH_PROCESSES=off skips it).
 * Then the inbox section (bench/inbox.ts: list and search at 100 000 applications;
 * BENCH_INBOX=off skips it), the export section (bench/export.ts: the CSV export against the
 * databases' own dumps, and health checks and submissions while it runs; BENCH_EXPORT=off skips
 * it), the page section (bench/page.ts: Lighthouse and bundle bytes; BENCH_PAGE=off skips it)
 * and the interactions section (bench/interactions.ts: Event Timing of Welcome → step 1, opening
 * the selects and typing in one, in Chromium with the CPU 4× slower, beside a React-only page;
 * BENCH_INTERACTIONS=off skips it).
 * BENCH_SUBMIT=off skips the submit section.
 * BENCH_SECONDS sets each measurement's duration (default 10), BENCH_WARM_UP_SECONDS the load
 * before it (default 3).
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { BENCH_BODY_BYTES, wizardSubmissions } from './client';
import { benchExport } from './export';
import { benchInbox } from './inbox';
import { benchInteractions } from './interactions';
import { benchPage } from './page';
import { PINNED, start, stop, type ServerProcess } from './server-process';
import { filledPostgres, filledSqlite, type BenchDatabase } from './stored';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;

function rssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

interface Figures {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  peakRssMiB?: number;
}

let runs = 0;

/**
 * `connections` clients submitting for `seconds` what the wizard sends ({@link wizardSubmissions}:
 * a new applicant and `Idempotency-Key` per request, the page's XSRF pair).
 */
async function measure(name: string, target: ServerProcess, seconds = SECONDS): Promise<Figures> {
  const submissions = await wizardSubmissions(target.url, `r${process.pid.toString(36)}x${(runs++).toString(36)}`);
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssKiB(target.child.pid!))), 250);
  const result = await autocannon({ ...submissions, connections: CONNECTIONS, duration: seconds });
  clearInterval(sampler);
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
    peakRssMiB: Math.round(peak / 1024),
  };
}

/** Runs `measure` on each of several servers at once, `connections` split between them; the figures combined. */
async function measureTogether(name: string, targets: ServerProcess[], seconds = SECONDS): Promise<Figures> {
  const each = await Promise.all(
    targets.map(async (target) => {
      const submissions = await wizardSubmissions(target.url, `t${process.pid.toString(36)}x${(runs++).toString(36)}`);
      return autocannon({ ...submissions, connections: CONNECTIONS / targets.length, duration: seconds });
    }),
  );
  return {
    name,
    requestsPerSecond: Math.round(each.reduce((sum, result) => sum + result.requests.average, 0)),
    // The slower server's percentiles: what an applicant may meet.
    p50: Math.max(...each.map((result) => result.latency.p50)),
    p99: Math.max(...each.map((result) => result.latency.p99)),
    non2xx: each.reduce((sum, result) => sum + result.non2xx + result.errors, 0),
  };
}

/** Stored applications in the "at scale" measurements (issue 12: a million). */
const FULL_ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
/** Seconds of load before each measurement (the JIT, the database's caches). */
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 3);

/** Starts the server on `database`, warms it up, measures, stops it. */
async function measureServer(name: string, url: string): Promise<Figures> {
  const server = await start('src/server/server.ts', { DATABASE_URL: url });
  try {
    await measure('warm-up', server, WARM_UP_SECONDS);
    return await measure(name, server);
  } finally {
    await stop(server);
  }
}

/**
 * Issue 12, "submits at scale": the submit path on an empty store and on one holding
 * {@link FULL_ROWS} applications, SQLite and PostgreSQL, beside the bare route; then PostgreSQL
 * served by one process and by two (every process on either core, the load split between them).
 */
async function run() {
  console.log(
    `submit-path benchmark: ${CONNECTIONS} connections, ${SECONDS} s each after ${WARM_UP_SECONDS} s of warm-up, ~${BENCH_BODY_BYTES} byte applications, ` +
      `each a new applicant under a new Idempotency-Key with the page's XSRF pair, node ${process.version}, ` +
      (PINNED ? 'server on core 1, load generator on core 0\n' : 'server and load generator share the cores\n'),
  );
  const rows: (Figures & { vsEmpty?: number })[] = [];

  const bare = await start('bench/bare-server.ts', {});
  await measure('warm-up', bare);
  rows.push(await measure('bare Fastify route (parse, store nothing)', bare));
  await stop(bare);

  const stores: [string, (rows: number) => Promise<BenchDatabase>][] = [['SQLite (WAL, synchronous=FULL)', filledSqlite]];
  if (process.env.TEST_DATABASE_URL) stores.push(['PostgreSQL', filledPostgres]);
  else console.log('(TEST_DATABASE_URL not set: PostgreSQL not measured)\n');
  for (const [storeName, filled] of stores) {
    const empty = await filled(0);
    const atEmpty = await measureServer(`submit, ${storeName}, empty table`, empty.url);
    await empty.drop();
    rows.push(atEmpty);
    const full = await filled(FULL_ROWS);
    const atFull = await measureServer(`submit, ${storeName}, ${FULL_ROWS.toLocaleString('en')} applications`, full.url);
    await full.drop();
    rows.push({ ...atFull, vsEmpty: atFull.requestsPerSecond / atEmpty.requestsPerSecond });
  }

  const baseline = rows[0]!.requestsPerSecond;
  console.log('| route | req/s | vs bare | vs empty table | p50 ms | p99 ms | non-2xx | peak server RSS MiB |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    const ratio = `${Math.round((row.requestsPerSecond / baseline) * 100)} %`;
    const vsEmpty = row.vsEmpty === undefined ? '' : `${Math.round(row.vsEmpty * 100)} %`;
    console.log(`| ${row.name} | ${row.requestsPerSecond} | ${ratio} | ${vsEmpty} | ${row.p50} | ${row.p99} | ${row.non2xx} | ${row.peakRssMiB} |`);
  }

  if (process.env.TEST_DATABASE_URL && process.env.BENCH_PROCESSES !== 'off') await benchProcesses();
}

/**
 * PostgreSQL at {@link FULL_ROWS} applications, one server process against two on the same
 * database (DESIGN: several stateless processes share one PostgreSQL). Each process may run on
 * either core here, so both set-ups have the same machine; the load generator stays on core 0.
 */
async function benchProcesses() {
  const figures: Figures[] = [];
  for (const count of [1, 2]) {
    const database = await filledPostgres(FULL_ROWS);
    const servers = [];
    for (let i = 0; i < count; i++) servers.push(await start('src/server/server.ts', { DATABASE_URL: database.url }, { pinned: false }));
    try {
      await measureTogether('warm-up', servers, WARM_UP_SECONDS);
      figures.push(await measureTogether(`PostgreSQL, ${count} server process${count > 1 ? 'es' : ''}`, servers));
    } finally {
      for (const server of servers) await stop(server);
      await database.drop();
    }
  }
  console.log(`\nPostgreSQL at ${FULL_ROWS.toLocaleString('en')} applications, one server process against two (processes on either core):\n`);
  console.log('| set-up | req/s | vs one process | p50 ms | p99 ms | non-2xx |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const row of figures) {
    console.log(`| ${row.name} | ${row.requestsPerSecond} | ${Math.round((row.requestsPerSecond / figures[0]!.requestsPerSecond) * 100)} % | ${row.p50} | ${row.p99} | ${row.non2xx} |`);
  }
}

if (process.env.BENCH_SUBMIT !== 'off') await run();
if (process.env.BENCH_INBOX !== 'off') await benchInbox();
if (process.env.BENCH_EXPORT !== 'off') await benchExport();
if (process.env.BENCH_PAGE !== 'off') await benchPage();
if (process.env.BENCH_INTERACTIONS !== 'off') await benchInteractions();
