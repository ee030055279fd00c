/**
 * `npm run bench`: measures the submit path on this machine in one run and
 * compares it with a baseline measured in the same run (issue 5):
 * - the real server (`src/server/server.ts`, durable SQLite: WAL + synchronous=FULL) under a valid
 *   ~1 KB application, 50 connections, autocannon: requests/s, p50 and p99 latency in ms, server RSS;
 * - the same against PostgreSQL when TEST_DATABASE_URL is set;
 * - a bare Fastify route that parses the same body and stores nothing, and the ratio.
 * Then the inbox section (bench/inbox.ts: list and search at 100 000 applications, CSV export;
 * BENCH_INBOX=off skips it) and the page section (bench/page.ts: Lighthouse and bundle bytes;
 * BENCH_PAGE=off skips it), and the start-up section (bench/start.ts: spawn to ready and idle
 * memory of the compiled server against a bare Fastify one; BENCH_START=off skips it).
 * The servers run as production runs them: compiled to JavaScript (`npm run build`, which
 * `prebench` runs), not through tsx.
 * BENCH_SECONDS sets each measurement's duration (default 10).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { validPayload } from '../tests/factories/application';
import { createTestDatabase } from '../tests/support/postgres';
import { benchInbox } from './inbox';
import { benchPage } from './page';
import { benchServerCommand, benchStart } from './start';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;

/**
 * On a machine with two cores or more, the load generator (this process) runs
 * on core 0 and the server under test on core 1, so they do not take turns on
 * the same cores and the figures measure the server, not the scheduler.
 * Without `taskset` both share every core (the figures then say so).
 */
const PINNED = availableParallelism() >= 2 && spawnSync('taskset', ['-cp', '0', String(process.pid)]).status === 0;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function start(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  // As production runs it (issue 12): the compiled server, and the bare baseline compiled alike.
  const launch = await benchServerCommand(script);
  const command = [process.execPath, ...launch.args];
  const [file, ...args] = PINNED ? ['taskset', '-c', '1', ...command] : command;
  const child = spawn(file!, args, {
    cwd: ROOT,
    env: { ...process.env, ...launch.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      await fetch(`${url}/api/syncPage/creators`, { method: 'OPTIONS' });
      return { child, url };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${script} did not start`);
}

/** The ~1 KB valid application the bench sends. */
function benchBody(): string {
  const payload = validPayload();
  const body = JSON.stringify({ ...payload, fields: { ...payload.fields, dreamCampaign: 'A'.repeat(1024 - JSON.stringify(payload).length + (payload.fields?.dreamCampaign?.length ?? 0)) } });
  return body;
}

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

/** The anti-forgery pair as the wizard has it: the cookie `GET /` sets, echoed in the header (none for the bare route). */
async function xsrfHeaders(url: string): Promise<Record<string, string>> {
  const page = await fetch(`${url}/`, { redirect: 'manual' });
  const cookie = page.headers.getSetCookie().find((line) => line.startsWith('XSRF-TOKEN='))?.split(';')[0];
  return cookie ? { cookie, 'x-xsrf-token': decodeURIComponent(cookie.slice('XSRF-TOKEN='.length)) } : {};
}

async function measure(name: string, target: { child: ChildProcess; url: string }): Promise<Figures> {
  const body = benchBody();
  const xsrf = await xsrfHeaders(target.url);
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssKiB(target.child.pid!))), 250);
  const result = await autocannon({
    url: `${target.url}/api/syncPage/creators`,
    method: 'PUT',
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { 'content-type': 'application/json', ...xsrf },
    body,
  });
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

async function run() {
  console.log(
    `submit-path benchmark: ${CONNECTIONS} connections, ${SECONDS} s each, ~${benchBody().length} byte application, node ${process.version}, ` +
      (PINNED ? 'server on core 1, load generator on core 0\n' : 'server and load generator share the cores\n'),
  );
  const rows: Figures[] = [];

  const bare = await start('bench/bare-server.ts', {});
  await measure('warm-up', bare);
  rows.push(await measure('bare Fastify route (parse, store nothing)', bare));
  bare.child.kill();

  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  const sqlite = await start('src/server/server.ts', { DATABASE_URL: `sqlite:${join(dir, 'applications.db')}` });
  // Every server gets the bare route's warm-up: steady state against steady state (the JIT, the
  // page cache; the store holds some 100 000 applications by the time it is measured).
  await measure('warm-up', sqlite);
  rows.push(await measure('submit, SQLite (WAL, synchronous=FULL)', sqlite));
  sqlite.child.kill();
  rmSync(dir, { recursive: true, force: true });

  if (process.env.TEST_DATABASE_URL) {
    const database = await createTestDatabase();
    const postgres = await start('src/server/server.ts', { DATABASE_URL: database.url });
    await measure('warm-up', postgres);
    rows.push(await measure('submit, PostgreSQL', postgres));
    postgres.child.kill();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await database.drop();
  } else {
    console.log('(TEST_DATABASE_URL not set: PostgreSQL not measured)\n');
  }

  const baseline = rows[0]!.requestsPerSecond;
  console.log('| route | req/s | vs bare | p50 ms | p99 ms | non-2xx | peak server RSS MiB |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    const ratio = `${Math.round((row.requestsPerSecond / baseline) * 100)} %`;
    console.log(`| ${row.name} | ${row.requestsPerSecond} | ${ratio} | ${row.p50} | ${row.p99} | ${row.non2xx} | ${row.peakRssMiB} |`);
  }
}

await run();
if (process.env.BENCH_INBOX !== 'off') await benchInbox();
if (process.env.BENCH_PAGE !== 'off') await benchPage();
if (process.env.BENCH_START !== 'off') await benchStart();
