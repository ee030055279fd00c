/**
 * The export section of `npm run bench` (exports never stall anyone). For each store
 * (SQLite; PostgreSQL when TEST_DATABASE_URL is set) it fills 100 000 applications
 * (BENCH_EXPORT_ROWS) as the inbox section does, starts the real server (on core 1 when the
 * bench is pinned), and measures in the same run:
 * - the database's own dump of the rows and columns the export reads (`sqlite3 -csv`, on the
 *   server's core; PostgreSQL's `COPY … TO STDOUT WITH CSV` through pg-copy-streams), beside the
 *   CSV export through the real HTTP route, alternately, RUNS times each: medians, rows/s, MiB/s
 *   and the export's speed as a fraction of the dump's (target: at least a third), the same
 *   bytes (`Accept-Encoding: identity`); beside them the export as a browser gets it (gzip,
 *   compressed by the export's thread: decision 014);
 * - for BENCH_SECONDS (default 10) without an export, then as long with exports running back to
 *   back: `/healthz` every HEALTH_GAP_MS (p50/p99/max; target p99 under 50 ms) and a submit load of
 *   what the wizard sends (bench/client.ts) at BENCH_EXPORT_SUBMIT_RATE requests/s over 50
 *   connections (p50/p99; target: the p99 at most 20 % or 5 ms above the one without an export);
 *   the exports of this window are downloaded as Chromium asks for them (gzip).
 *   The exports are downloaded by a thread of the bench's own ({@link EXPORT_CLIENT}), off the
 *   event loop that paces and times the other requests.
 * BENCH_EXPORT=off skips the section (bench/run.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { createTestDatabase } from '../tests/support/postgres';
import { hashPassword } from '../src/server/inbox/password';
import { INBOX_COLUMNS } from '../src/server/store/inbox-rows';
import { openStore } from '../src/server/store/store';
import { pacedSubmissions } from './client';
import { fillApplications } from '../tests/factories/fill';
import { percentile } from './inbox';
import { PINNED, start, stop, type ServerProcess } from './server-process';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Seconds of unmeasured submit load before the measured windows (as the submit section's warm-up). */
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 3);
const SUBMIT_RATE = Number(process.env.BENCH_EXPORT_SUBMIT_RATE ?? 500);
const CONNECTIONS = 50;
/** Dumps and exports timed, alternately, per store. */
const RUNS = 5;
/** Pause between one health check's answer and the next request, in ms. */
const HEALTH_GAP_MS = 5;
const USER = { email: 'bench@brand.example', password: 'bench password 1' };
const MiB = 1024 * 1024;

/** What the export reads, as the database would dump it: the same rows, columns and order. */
const DUMP_QUERY = `select ${INBOX_COLUMNS.join(', ')} from applications order by received_at desc, id desc`;

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

interface Timed {
  seconds: number;
  bytes: number;
}

/** `sqlite3 -csv` of {@link DUMP_QUERY}, on the server's core, its output counted here. */
async function dumpSqlite(file: string): Promise<Timed> {
  const command = ['sqlite3', '-csv', file, DUMP_QUERY];
  const [program, ...args] = PINNED ? ['taskset', '-c', '1', ...command] : command;
  const started = performance.now();
  const child = spawn(program!, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let bytes = 0;
  for await (const chunk of child.stdout) bytes += (chunk as Buffer).length;
  const code = await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(child.exitCode)));
  if (code !== 0) throw new Error(`sqlite3 exited with ${String(code)}`);
  return { seconds: (performance.now() - started) / 1000, bytes };
}

/** `COPY (…) TO STDOUT WITH CSV` of {@link DUMP_QUERY} through pg-copy-streams, counted here. */
async function dumpPostgres(url: string): Promise<Timed> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = performance.now();
    let bytes = 0;
    for await (const chunk of client.query(copyTo(`copy (${DUMP_QUERY}) to stdout with csv`))) bytes += (chunk as Buffer).length;
    return { seconds: (performance.now() - started) / 1000, bytes };
  } finally {
    await client.end();
  }
}

/** Signs the bench's inbox user in; returns the session's cookie header. */
async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/api/admin/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(USER),
  });
  if (response.status !== 204) throw new Error(`sign-in answered ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/**
 * Downloads exports for {@link exportOnce} in a thread of the bench's own (CommonJS, no tsx), so
 * that reading and collecting 17 MB per export never stalls the event loop that paces and times
 * the submissions and health checks: on that loop, its garbage collection delayed them by up to
 * 30 ms (measured with `monitorEventLoopDelay` in the bench process), which the bench counted as
 * the server's latency. Read as fast as it comes with node:http (undici's web streams cost the
 * load generator's core more than the export's bytes). It counts the bytes on the wire, and the
 * rows after gunzip when the export comes compressed.
 * In: `{ id, url, cookie, acceptEncoding }`. Out: `{ id, seconds, bytes, rows }` or `{ id, error }`.
 */
const EXPORT_CLIENT = `
const { get } = require('node:http');
const { parentPort } = require('node:worker_threads');
const { createGunzip } = require('node:zlib');
parentPort.on('message', ({ id, url, cookie, acceptEncoding }) => {
  const started = performance.now();
  get(url + '/api/admin/applications.csv', { headers: { cookie, 'accept-encoding': acceptEncoding } }, (response) => {
    if (response.statusCode !== 200) {
      response.resume();
      parentPort.postMessage({ id, error: 'export answered ' + response.statusCode });
      return;
    }
    let bytes = 0;
    let lines = 0;
    response.on('data', (chunk) => (bytes += chunk.length));
    const text = response.headers['content-encoding'] === 'gzip' ? response.pipe(createGunzip()) : response;
    text.on('data', (chunk) => {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
    });
    text.on('end', () => {
      if (!response.complete) parentPort.postMessage({ id, error: 'the export was cut short' });
      // Answers hold no line breaks here, so line feeds count rows (the header's is not one).
      else parentPort.postMessage({ id, seconds: (performance.now() - started) / 1000, bytes, rows: lines - 1 });
    });
    text.on('error', (error) => parentPort.postMessage({ id, error: String(error) }));
    response.on('error', (error) => parentPort.postMessage({ id, error: String(error) }));
  }).once('error', (error) => parentPort.postMessage({ id, error: String(error) }));
});
`;

let exportClient: Worker | undefined;
let exportRequests = 0;

/** What Chromium sends: a browser downloads the export gzip-compressed (by the export's thread). */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/**
 * One export of every application through the real route, downloaded by {@link EXPORT_CLIENT}.
 * @param acceptEncoding - `identity` for the CSV bytes the dump is compared with; by default what a browser sends.
 */
async function exportOnce(url: string, cookie: string, acceptEncoding = BROWSER_ACCEPT_ENCODING): Promise<Timed & { rows: number }> {
  if (!exportClient) {
    exportClient = new Worker(EXPORT_CLIENT, { eval: true });
    exportClient.unref();
  }
  const client = exportClient;
  const id = ++exportRequests;
  const answer = await new Promise<{ id: number; error?: string } & Timed & { rows: number }>((resolve) => {
    const listener = (message: { id: number; error?: string } & Timed & { rows: number }) => {
      if (message.id !== id) return;
      client.off('message', listener);
      resolve(message);
    };
    client.on('message', listener);
    client.postMessage({ id, url, cookie, acceptEncoding });
  });
  if (answer.error) throw new Error(answer.error);
  return { seconds: answer.seconds, bytes: answer.bytes, rows: answer.rows };
}

interface Window {
  health: { p50: number; p99: number; max: number; count: number; failed: number };
  submits: { requestsPerSecond: number; p50: number; p99: number; non2xx: number };
  exports: number;
}

/**
 * BENCH_SECONDS of the submit load and of health checks, with exports running back to back when
 * `withExports` (the last one is let finish after the window).
 */
async function loadWindow(server: ServerProcess, cookie: string, salt: string, withExports: boolean, seconds = SECONDS): Promise<Window> {
  let running = true;
  const latencies: number[] = [];
  let failed = 0;
  const health = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${server.url}/healthz`).catch(() => undefined);
      latencies.push(performance.now() - started);
      if (response?.status !== 200) failed += 1;
      await response?.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, HEALTH_GAP_MS));
    }
  })();
  let exports = 0;
  const exporting = (async () => {
    while (withExports && running) {
      await exportOnce(server.url, cookie);
      exports += 1;
    }
  })();
  const submits = await pacedSubmissions(server.url, salt, { rate: SUBMIT_RATE, seconds, connections: CONNECTIONS });
  running = false;
  await Promise.all([health, exporting]);
  return {
    health: {
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: Math.round(Math.max(...latencies)),
      count: latencies.length,
      failed,
    },
    submits,
    exports,
  };
}

interface StoreFigures {
  store: string;
  dump: Timed;
  export: Timed & { rows: number };
  /** The same export as a browser downloads it (gzip). */
  gzip: Timed & { rows: number };
  quiet: Window;
  busy: Window;
}

async function benchStore(name: string, database: { url: string; drop: () => Promise<void> }, dump: () => Promise<Timed>): Promise<StoreFigures> {
  const store = await openStore(database.url);
  const filled = await fillApplications(store, ROWS);
  await store.users.createUser(USER.email, await hashPassword(USER.password), 'viewer');
  await store.close();
  if (name === 'PostgreSQL') {
    // Planner statistics, as autovacuum gathers them within a minute of a bulk change.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query('analyze');
    await client.end();
  }
  console.log(`${name}: filled ${ROWS} applications in ${filled} s`);
  const server = await start('src/server/server.ts', { DATABASE_URL: database.url });
  try {
    const cookie = await signIn(server.url);
    // Warm-up of all three (the JIT, the page cache), then each timed RUNS times, in turns: the
    // dump, the export's CSV as it is (the same rows and bytes as the dump's: the target's
    // ratio), and the export as a browser gets it, gzip-compressed by the export's thread.
    await dump();
    await exportOnce(server.url, cookie, 'identity');
    await exportOnce(server.url, cookie);
    const dumps: Timed[] = [];
    const exports: (Timed & { rows: number })[] = [];
    const gzipped: (Timed & { rows: number })[] = [];
    for (let run = 0; run < RUNS; run++) {
      dumps.push(await dump());
      exports.push(await exportOnce(server.url, cookie, 'identity'));
      gzipped.push(await exportOnce(server.url, cookie));
    }
    const byTime = (a: Timed, b: Timed) => a.seconds - b.seconds;
    const median = <T extends Timed>(timed: T[]) => [...timed].sort(byTime)[Math.floor(RUNS / 2)]!;
    console.log(
      `${name}: dump ${dumps.map((d) => round(d.seconds)).join(', ')} s; export ${exports.map((e) => round(e.seconds)).join(', ')} s ` +
        `(speed ratio per pair: ${dumps.map((d, i) => round(d.seconds / exports[i]!.seconds)).join(', ')}); ` +
        `gzip export ${gzipped.map((e) => round(e.seconds)).join(', ')} s`,
    );
    // The submit path warmed up too (the JIT, the store's statements), unmeasured: its first
    // requests would otherwise set the baseline's p99.
    await loadWindow(server, cookie, `w${name[0]}`, false, WARM_UP_SECONDS);
    const quiet = await loadWindow(server, cookie, `q${name[0]}`, false);
    const busy = await loadWindow(server, cookie, `b${name[0]}`, true);
    return { store: name, dump: median(dumps), export: median(exports), gzip: median(gzipped), quiet, busy };
  } finally {
    await stop(server);
    await database.drop();
  }
}

/** Runs the export benchmark and prints its tables. */
export async function benchExport() {
  console.log(
    `\nexport benchmark: ${ROWS} applications, ${RUNS} dumps and exports per store (medians); ${SECONDS} s windows of /healthz every ${HEALTH_GAP_MS} ms ` +
      `and ${SUBMIT_RATE} submissions/s over ${CONNECTIONS} connections, without and with exports running; ` +
      (PINNED ? 'server and dumps on core 1, clients on core 0\n' : 'server and clients share the cores\n'),
  );
  const results: StoreFigures[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'bench-export-'));
  const file = join(dir, 'applications.db');
  results.push(await benchStore('SQLite', { url: `sqlite:${file}`, drop: async () => rmSync(dir, { recursive: true, force: true }) }, () => dumpSqlite(file)));
  if (process.env.TEST_DATABASE_URL) {
    const database = await createTestDatabase();
    results.push(await benchStore('PostgreSQL', database, () => dumpPostgres(database.url)));
  } else {
    console.log('(TEST_DATABASE_URL not set: PostgreSQL not measured)\n');
  }

  console.log(
    '\n| store | database dump s | dump MiB/s | export s | export rows/s | export MiB/s | export speed ÷ dump speed | target ≥ 0.33 | gzip export s | gzip MiB | gzip ÷ dump speed |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|');
  for (const { store, dump, export: csv, gzip } of results) {
    const ratio = dump.seconds / csv.seconds;
    console.log(
      `| ${store} | ${round(dump.seconds)} | ${round(dump.bytes / MiB / dump.seconds, 1)} | ${round(csv.seconds)} | ${Math.round(csv.rows / csv.seconds)} | ` +
        `${round(csv.bytes / MiB / csv.seconds, 1)} | ${round(ratio)} | ${ratio >= 1 / 3 ? 'met' : 'NOT met'} | ` +
        `${round(gzip.seconds)} | ${round(gzip.bytes / MiB, 1)} | ${round(dump.seconds / gzip.seconds)} |`,
    );
  }
  console.log('\n| store | while | exports | /healthz p50 ms | p99 ms | max ms | failed | submits/s | submit p50 ms | submit p99 ms | non-2xx | targets |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const { store, quiet, busy } of results) {
    for (const [label, window] of [
      ['no export', quiet],
      ['exports running', busy],
    ] as const) {
      const h = window.health;
      const s = window.submits;
      const verdict =
        window === quiet
          ? 'baseline'
          : [
              h.p99 < 50 ? 'health p99 < 50 ms: met' : 'health p99 < 50 ms: NOT met',
              s.p99 <= Math.max(quiet.submits.p99 * 1.2, quiet.submits.p99 + 5) ? 'submit p99 kept: met' : 'submit p99 kept: NOT met',
            ].join('; ');
      console.log(
        `| ${store} | ${label} | ${window.exports} | ${h.p50} | ${h.p99} | ${h.max} | ${h.failed} | ${s.requestsPerSecond} | ${s.p50} | ${s.p99} | ${s.non2xx} | ${verdict} |`,
      );
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchExport();
