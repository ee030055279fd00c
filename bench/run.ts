/**
 * `npm run bench`: measures what users do on this machine in one run, each figure beside a
 * baseline measured in the same run. The submit section:
 * - a bare Fastify route that parses the same body and stores nothing (the baseline);
 * - the real server (`src/server/server.ts`) on SQLite (WAL, synchronous=FULL) and, when
 *   TEST_DATABASE_URL is set, PostgreSQL, each on an empty table and on one holding a million
 *   applications (BENCH_ROWS; bench/stored.ts keeps filled templates in .bench-cache/), under
 *   what the wizard sends (bench/client.ts: a new applicant, Idempotency-Key and the page's XSRF
 *   pair per request), 50 connections, autocannon: requests/s, p50 and p99 latency in ms, RSS;
 * - PostgreSQL served by one process and by two (BENCH_PROCESSES=off skips it).
 * Then the outbox section (bench/outbox.ts: 10 000 applications at 200 a second with two webhook
 * endpoints and confirmations e-mailed, every event's time from commit to receipt;
 * BENCH_OUTBOX=off skips it), the inbox section (bench/inbox.ts: list and search at 100 000 applications;
 * BENCH_INBOX=off skips it), the export section (bench/export.ts: the CSV export against the
 * databases' own dumps, and health checks and submissions while it runs; BENCH_EXPORT=off skips
 * it), the person section (bench/person.ts: a person's export and erasure from the command line at a
 * million applications; BENCH_PERSON=off skips it), the page section (bench/page.ts: Lighthouse and bundle bytes; BENCH_PAGE=off skips it)
 * and the interactions section (bench/interactions.ts: Event Timing of Welcome → step 1, opening
 * the selects and typing in one, in Chromium with the CPU 4× slower, beside a React-only page;
 * BENCH_INTERACTIONS=off skips it), and the start-up section (bench/start.ts: spawn to ready and idle
 * memory of the compiled server against a bare Fastify one; BENCH_START=off skips it), and the
 * page-route section (bench/page-route.ts: `GET /` with 20 stored pages served by host name
 * against today's one page; BENCH_PAGE_ROUTE=off skips it).
 * The servers run as production runs them: compiled to JavaScript (`npm run build`, which
 * `prebench` runs), not through tsx.
 * BENCH_SUBMIT=off skips the submit section; BENCH_SUBMIT=processes runs only its one-against-two
 * processes part.
 * BENCH_VERSUS=<commit> also measures, in the same turns, the server that commit built on stores starting
 * empty (bench/server-process.ts, `versusServer`): what a change cost the submit path, beside it.
 * BENCH_SECONDS sets each measurement's duration (default 10), BENCH_ROUNDS how many times each
 * set-up is measured in turns (default 3), BENCH_WARM_UP_SECONDS the load before (default 3).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteExecDatabase } from '../tests/support/databases';
import { createTestDatabase } from '../tests/support/postgres';
import autocannon from 'autocannon';
import { BENCH_BODY_BYTES, wizardSubmissions } from './client';
import { benchExport } from './export';
import { benchInbox } from './inbox';
import { benchInteractions } from './interactions';
import { benchPage } from './page';
import { benchPerson } from './person';
import { benchPageRoute } from './page-route';
import { benchOutbox } from './outbox';
import { PINNED, start, stop, withEveryCore, type ServerProcess } from './server-process';
import { median } from './statistics';
import { benchStart } from './start';
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
  const submissions = await wizardSubmissions(target.url, `r${process.pid.toString(36)}x${(runs++).toString(36)}`, seconds);
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
      const submissions = await wizardSubmissions(target.url, `t${process.pid.toString(36)}x${(runs++).toString(36)}`, seconds);
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

/** Stored applications in the "at scale" measurements (a million). */
const FULL_ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
/** Seconds of load before each measurement (the JIT, the database's caches). */
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 3);

/**
 * Rounds of the submit section: every set-up is measured once per round, in turns, so a machine
 * that slows down or speeds up meanwhile (other work, the page cache) moves every set-up alike;
 * each figure is the median of its rounds.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** The median of each figure over a set-up's rounds (non-2xx summed, RSS the peak). */
function medianOf(rounds: Figures[]): Figures {
  return {
    name: rounds[0]!.name,
    requestsPerSecond: median(rounds.map((round) => round.requestsPerSecond)),
    p50: median(rounds.map((round) => round.p50)),
    p99: median(rounds.map((round) => round.p99)),
    non2xx: rounds.reduce((sum, round) => sum + round.non2xx, 0),
    ...(rounds[0]!.peakRssMiB === undefined ? {} : { peakRssMiB: Math.max(...rounds.map((round) => round.peakRssMiB ?? 0)) }),
  };
}

/** Warms every set-up up, then measures them in turns for {@link ROUNDS} rounds; medians, in order. */
async function inTurns(setups: { name: string; measure: (name: string, seconds?: number) => Promise<Figures> }[]): Promise<Figures[]> {
  for (const setup of setups) await setup.measure('warm-up', WARM_UP_SECONDS);
  const rounds = setups.map((): Figures[] => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, setup] of setups.entries()) rounds[index]!.push(await setup.measure(setup.name));
  }
  return rounds.map(medianOf);
}

/**
 * Submits at scale (decision 013): the submit path on a store starting empty and on one holding
 * {@link FULL_ROWS} applications, SQLite and PostgreSQL, beside the bare route, all measured in
 * turns; then PostgreSQL served by one process and by two.
 */
async function run() {
  console.log(
    `submit-path benchmark: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per set-up in turns after ${WARM_UP_SECONDS} s of warm-up, medians; ` +
      `~${BENCH_BODY_BYTES} byte applications, each a new applicant under a new Idempotency-Key with the page's XSRF pair, node ${process.version}, ` +
      (PINNED ? 'servers on core 1, load generator on core 0\n' : 'servers and load generator share the cores\n'),
  );
  const stores: [string, (rows: number) => Promise<BenchDatabase>][] = [['SQLite (WAL, synchronous=FULL)', filledSqlite]];
  if (process.env.TEST_DATABASE_URL) stores.push(['PostgreSQL', filledPostgres]);
  else console.log('(TEST_DATABASE_URL not set: PostgreSQL not measured)\n');

  const databases: BenchDatabase[] = [];
  const servers: ServerProcess[] = [];
  const setups: { name: string; measure: (name: string, seconds?: number) => Promise<Figures> }[] = [];
  try {
    const bare = await start('bench/bare-server.ts', {});
    servers.push(bare);
    setups.push({ name: 'bare Fastify route (parse, store nothing)', measure: (name, seconds) => measure(name, bare, seconds) });
    for (const [storeName, filled] of stores) {
      for (const [label, count] of [
        ['starting empty', 0],
        [`${FULL_ROWS.toLocaleString('en')} applications`, FULL_ROWS],
      ] as const) {
        const database = await filled(count);
        databases.push(database);
        const server = await start('src/server/server.ts', { DATABASE_URL: database.url });
        servers.push(server);
        setups.push({ name: `submit, ${storeName}, ${label}`, measure: (name, seconds) => measure(name, server, seconds) });
      }
    }
    // BENCH_VERSUS: the same empty stores served by the server another commit built, in the same
    // turns; by this build with the default page's confirmation e-mail turned off, which tells
    // the outbox's cost (the commit before it) from the e-mail's (docs/performance.md); and by this
    // build without the bot check (BOT_CHECK=off), which tells its cost.
    const versus = process.env.BENCH_VERSUS;
    const ours = setups.length;
    if (versus) {
      const noConfirmation = join(mkdtempSync(join(tmpdir(), 'bench-config-')), 'wizard.json');
      const config = JSON.parse(readFileSync('config/wizard.json', 'utf8')) as Record<string, unknown>;
      writeFileSync(noConfirmation, JSON.stringify({ ...config, emails: { confirmation: { enabled: false } } }));
      // Nothing in them, no schema either: each server migrates its store as its own version does.
      for (const [storeName, empty] of [
        ['SQLite (WAL, synchronous=FULL)', () => sqliteExecDatabase('bench-versus-')],
        ...(process.env.TEST_DATABASE_URL ? ([['PostgreSQL', createTestDatabase]] as const) : []),
      ] as const) {
        for (const [label, script, env] of [
          ['this build, no confirmation e-mail', 'src/server/server.ts', { WIZARD_CONFIG: noConfirmation }],
          [`built from ${versus}`, `versus:${versus}`, {}],
          // The bot check's own cost (docs/decisions/032): this build without it (its applicants then ask for no challenge: there is none).
          ['this build, no bot check', 'src/server/server.ts', { BOT_CHECK: 'off' }],
        ] as const) {
          const database: BenchDatabase = await empty();
          databases.push(database);
          const server = await start(script, { DATABASE_URL: database.url, ...env });
          servers.push(server);
          setups.push({ name: `submit, ${storeName}, starting empty, ${label}`, measure: (name, seconds) => measure(name, server, seconds) });
        }
      }
    }
    const figures = await inTurns(setups);
    const baseline = figures[0]!.requestsPerSecond;
    console.log('| route | req/s | vs bare | vs starting empty | p50 ms | p99 ms | non-2xx | peak server RSS MiB |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const [index, row] of figures.entries()) {
      const ratio = `${Math.round((row.requestsPerSecond / baseline) * 100)} %`;
      // Each store's full table follows its empty one.
      const vsEmpty =
        index > 0 && index < ours && index % 2 === 0 ? `${Math.round((row.requestsPerSecond / figures[index - 1]!.requestsPerSecond) * 100)} %` : '';
      console.log(`| ${row.name} | ${row.requestsPerSecond} | ${ratio} | ${vsEmpty} | ${row.p50} | ${row.p99} | ${row.non2xx} | ${row.peakRssMiB} |`);
    }
    if (versus) {
      console.log(`\nThis build (with and without the confirmation e-mail) against ${versus}'s, each store starting empty, in the same turns:\n`);
      console.log(
        `| store | this build req/s | no confirmation e-mail req/s | no bot check req/s | ${versus} req/s | no e-mail vs ${versus} | this build vs ${versus} | this build vs no bot check |`,
      );
      console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
      for (let at = 0; ours + 3 * at < figures.length; at++) {
        const mine = figures[1 + 2 * at]!.requestsPerSecond;
        const quiet = figures[ours + 3 * at]!.requestsPerSecond;
        const theirs = figures[ours + 3 * at + 1]!.requestsPerSecond;
        const unchecked = figures[ours + 3 * at + 2]!.requestsPerSecond;
        const share = (value: number, of = theirs) => `${Math.round((value / of) * 100)} %`;
        console.log(
          `| ${at === 0 ? 'SQLite' : 'PostgreSQL'} | ${mine} | ${quiet} | ${unchecked} | ${theirs} | ${share(quiet)} | ${share(mine)} | ${share(mine, unchecked)} |`,
        );
      }
    }
  } finally {
    for (const server of servers) await stop(server);
    for (const database of databases) await database.drop();
  }

  if (process.env.TEST_DATABASE_URL && process.env.BENCH_PROCESSES !== 'off') await benchProcesses();
}

/**
 * PostgreSQL at {@link FULL_ROWS} applications, one server process against two on the same
 * database (docs/requirements.md §10: several stateless processes share one PostgreSQL), measured in turns: the
 * load on one process, then split between two. Each process may run on either core here, so both
 * set-ups have the same machine; the load generator stays on core 0.
 */
async function benchProcesses() {
  const database = await filledPostgres(FULL_ROWS);
  const servers: ServerProcess[] = [];
  try {
    for (let i = 0; i < 2; i++) servers.push(await start('src/server/server.ts', { DATABASE_URL: database.url }, { pinned: false }));
    const figures = await inTurns([
      { name: 'PostgreSQL, 1 server process', measure: (name, seconds) => measureTogether(name, servers.slice(0, 1), seconds) },
      { name: 'PostgreSQL, 2 server processes', measure: (name, seconds) => measureTogether(name, servers, seconds) },
    ]);
    console.log(`\nPostgreSQL at ${FULL_ROWS.toLocaleString('en')} applications, one server process against two (processes on either core):\n`);
    console.log('| set-up | req/s | vs one process | p50 ms | p99 ms | non-2xx |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const row of figures) {
      console.log(
        `| ${row.name} | ${row.requestsPerSecond} | ${Math.round((row.requestsPerSecond / figures[0]!.requestsPerSecond) * 100)} % | ${row.p50} | ${row.p99} | ${row.non2xx} |`,
      );
    }
  } finally {
    for (const server of servers) await stop(server);
    await database.drop();
  }
}

if (process.env.BENCH_SUBMIT === 'processes') await benchProcesses();
else if (process.env.BENCH_SUBMIT !== 'off') await run();
if (process.env.BENCH_OUTBOX !== 'off') await benchOutbox();
if (process.env.BENCH_INBOX !== 'off') await benchInbox();
if (process.env.BENCH_EXPORT !== 'off') await benchExport();
if (process.env.BENCH_PERSON !== 'off') await benchPerson();
if (process.env.BENCH_PAGE !== 'off') await withEveryCore(benchPage);
if (process.env.BENCH_INTERACTIONS !== 'off') await withEveryCore(benchInteractions);
if (process.env.BENCH_START !== 'off') await benchStart();
if (process.env.BENCH_PAGE_ROUTE !== 'off') await benchPageRoute();
