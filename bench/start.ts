/**
 * The start-up section of `npm run bench` (BENCH_START=off skips it): what `npm start`
 * runs (the compiled server, tests/support/server-process.ts) against a bare Fastify server
 * (bench/bare-server.ts) compiled the same way, in the same run, started in turn:
 * - ready: ms from spawn to the first 200 from `/readyz` (polled every 5 ms), and the CPU time the
 *   process spent until then (less moved by other load on the machine), medians of
 *   BENCH_START_RUNS starts (default 10);
 * - idle RSS: the process's resident memory in MiB 2 s after ready, and again 2 s after a warm-up
 *   of 300 requests (100 `GET /` and 200 submits as the wizard sends them: an Idempotency-Key, the
 *   XSRF pair, a distinct applicant each; the bare server gets 300 PUTs), medians.
 * Servers: SQLite on a fresh file each start; SQLite on an existing file (migrated, 2 000
 * applications); PostgreSQL (TEST_DATABASE_URL, an existing database) when set. The servers use
 * every core (not the bench's pinning): production runs them that way, and the SQLite writer
 * thread exists only with two cores or more.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applicantPayload, completeForDefaultPage } from '../tests/factories/application';
import { createTestDatabase } from '../tests/support/postgres';
import { ROOT } from '../tests/support/server-process';
import { benchServerCommand, compileBareServer, freePort } from './server-process';
import { median } from './statistics';

const RUNS = Number(process.env.BENCH_START_RUNS ?? 10);
const WARM_UP_PAGES = 100;
const WARM_UP_SUBMITS = 200;
const IDLE_MS = 2000;

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
/** utime + stime of a process from /proc (clock ticks of 10 ms), in ms. */
const processCpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `npm run bench` pins itself to core 0; its servers here get every core back, as production has. */
const ALL_CORES = spawnSync('taskset', ['-V']).status === 0 ? ['taskset', '-c', `0-${cpus().length - 1}`] : [];

interface Variant {
  name: string;
  script: string;
  /** The environment of one start (a fresh file each time, or the same one). */
  env: () => Record<string, string>;
  bare?: boolean;
  /** An existing store: filled with 2 000 applications before the starts are timed. */
  existing?: boolean;
}

interface Sample {
  readyMs: number;
  /** CPU time the process spent until ready (user + system), in ms: less moved by other load than the wall clock. */
  cpuMs: number;
  idleMiB: number;
  warmMiB: number;
}

/** 300 requests, 10 at a time: the wizard's page and submits (or the bare route's PUT). @returns how many were not 2xx. */
async function warmUp(url: string, bare: boolean): Promise<number> {
  const page = await fetch(`${url}/`, { redirect: 'manual' });
  await page.arrayBuffer();
  const cookie = page.headers
    .getSetCookie()
    .find((line) => line.startsWith('XSRF-TOKEN='))
    ?.split(';')[0];
  const xsrf: Record<string, string> = cookie ? { cookie, 'x-xsrf-token': decodeURIComponent(cookie.slice('XSRF-TOKEN='.length)) } : {};
  const requests: (() => Promise<Response>)[] = [];
  for (let i = 0; i < (bare ? 0 : WARM_UP_PAGES); i++) requests.push(() => fetch(`${url}/`, { headers: { 'accept-encoding': 'br, gzip' } }));
  for (let i = 0; i < WARM_UP_SUBMITS + (bare ? WARM_UP_PAGES : 0); i++) {
    const id = randomUUID();
    const payload = completeForDefaultPage(
      applicantPayload({ firstName: 'Ada', lastName: `Start${i}`, email: `start-${id}@example.com`, instagram: `start.${id.slice(0, 8)}` }),
    );
    requests.push(() =>
      fetch(`${url}/api/syncPage/creators`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...xsrf },
        body: JSON.stringify(payload),
      }),
    );
  }
  let next = 0;
  const failed: number[] = [];
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < requests.length) {
        const response = await requests[next++]!();
        await response.arrayBuffer();
        if (!response.ok) failed.push(response.status);
      }
    }),
  );
  if (failed.length > 0) console.warn(`warm-up: ${failed.length} answers were not 2xx (${[...new Set(failed)].join(', ')})`);
  return failed.length;
}

async function startOnce(variant: Variant): Promise<Sample> {
  const port = await freePort();
  const { args, env } = await benchServerCommand(variant.script);
  const [file, ...rest] = [...ALL_CORES, process.execPath, ...args];
  const started = performance.now();
  const child: ChildProcess = spawn(file!, rest, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000', ...variant.env() },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${variant.name}: exited with ${child.exitCode}`);
      try {
        const response = await fetch(`${url}/readyz`);
        await response.arrayBuffer();
        if (response.status === 200) break;
      } catch {
        // not listening yet
      }
      await sleep(5);
    }
    const readyMs = performance.now() - started;
    const cpuMs = processCpuMs(child.pid!);
    await sleep(IDLE_MS);
    const idleMiB = rssMiB(child.pid!);
    await warmUp(url, variant.bare ?? false);
    await sleep(IDLE_MS);
    return { readyMs, cpuMs, idleMiB, warmMiB: rssMiB(child.pid!) };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

/** Runs the start-up section and prints its table (markdown). */
export async function benchStart(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-start-'));
  let fresh = 0;
  const existing = `sqlite:${join(dir, 'existing.db')}`;
  const variants: Variant[] = [
    { name: 'bare Fastify (compiled the same way)', script: 'bench/bare-server.ts', env: () => ({}), bare: true },
    { name: '`npm start`, SQLite, fresh file', script: 'src/server/server.ts', env: () => ({ DATABASE_URL: `sqlite:${join(dir, `fresh-${fresh++}.db`)}` }) },
    // As before decision 012: the TypeScript source through tsx, every package loaded at start.
    {
      name: 'before: source through tsx, SQLite, fresh file',
      script: 'tsx:src/server/server.ts',
      env: () => ({ DATABASE_URL: `sqlite:${join(dir, `fresh-${fresh++}.db`)}` }),
    },
    { name: '`npm start`, SQLite, existing file', script: 'src/server/server.ts', env: () => ({ DATABASE_URL: existing }), existing: true },
  ];
  const database = process.env.TEST_DATABASE_URL ? await createTestDatabase() : undefined;
  if (database)
    variants.push({
      name: '`npm start`, PostgreSQL, existing database',
      script: 'src/server/server.ts',
      env: () => ({ DATABASE_URL: database.url }),
      existing: true,
    });
  try {
    await compileBareServer();
    // The existing file and database: migrated, and 2 000 applications stored.
    for (const variant of variants.filter((candidate) => candidate.existing)) {
      const port = await freePort();
      const { args, env } = await benchServerCommand(variant.script);
      const child = spawn(process.execPath, args, {
        cwd: ROOT,
        env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000', ...variant.env() },
        stdio: 'ignore',
      });
      const url = `http://127.0.0.1:${port}`;
      while ((await fetch(`${url}/readyz`).catch(() => undefined))?.status !== 200) await sleep(20);
      for (let i = 0; i < 10; i++) await warmUp(url, false);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    const samples = new Map(variants.map((variant) => [variant, [] as Sample[]]));
    // In turn, so that the machine's moments of load spread over every server alike.
    for (let run = 0; run < RUNS; run++) for (const variant of variants) samples.get(variant)!.push(await startOnce(variant));

    console.log(`\nstart-up: ${RUNS} starts each, medians; node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}\n`);
    console.log('| server | ready ms (spawn → 200 /readyz) | CPU ms to ready | idle RSS MiB | RSS after warm-up MiB |');
    console.log('|---|---:|---:|---:|---:|');
    for (const [variant, list] of samples) {
      const ready = median(list.map((sample) => sample.readyMs));
      const idle = median(list.map((sample) => sample.idleMiB));
      const warm = median(list.map((sample) => sample.warmMiB));
      const cpu = median(list.map((sample) => sample.cpuMs));
      console.log(`| ${variant.name} | ${Math.round(ready)} | ${Math.round(cpu)} | ${idle.toFixed(0)} | ${warm.toFixed(0)} |`);
    }
    const all = [...samples.values()].map((list) => list.map((sample) => Math.round(sample.readyMs)).join(' '));
    console.log(`\n(every start's ready ms, in the table's order: ${all.join(' / ')})`);
  } finally {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await benchStart();
