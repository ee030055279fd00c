import { execFile } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import { isStatementTimeout, isStoreUnavailable } from './errors';
import { sqliteReads } from './sqlite-reader';
import { openStore } from './store';

// The inbox's reads on a SQLite file run in threads of their own, so a long one (a
// hostile filter, a summary of many applications) never holds the event loop that answers
// applicants, and one past the store's time limit is stopped.

/** A read that keeps SQLite busy for a while: counting to `n` (~0.1 s per million here). */
const counting = (n: number) => sql<{ n: number }>`with recursive c(x) as (select 1 union all select x + 1 from c where x < ${n}) select count(*) as n from c`;

let database: ExecDatabase;
let file: string;
beforeAll(async () => {
  database = await sqliteExecDatabase('sqlite-reader-');
  file = database.url.slice('sqlite:'.length);
  // The store migrates the file; a reader opens it read-only.
  await (await openStore(database.url)).close();
});
afterAll(async () => {
  await database?.drop();
});

it('reads in a thread while the event loop goes on', async () => {
  const reads = sqliteReads({ file, timeoutMs: 60_000 });
  try {
    await counting(10).execute(reads.db);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const { rows } = await counting(8_000_000).execute(reads.db);
    const took = performance.now() - started;
    delay.disable();
    expect(rows).toEqual([{ n: 8_000_000 }]);
    // The read took a while; the event loop never waited for it (on this thread it waits it all).
    expect(took).toBeGreaterThan(300);
    expect(delay.max / 1e6).toBeLessThan(took / 3);
  } finally {
    await reads.db.destroy();
  }
});

it('stops a read past the time limit (503 for the routes) and reads again after', async () => {
  const reads = sqliteReads({ file, timeoutMs: 200 });
  try {
    const failed = await counting(1_000_000_000)
      .execute(reads.db)
      .catch((error: unknown) => error);
    expect(failed).toMatchObject({ code: 'ETIMEDOUT' });
    expect(isStoreUnavailable(failed)).toBe(true);
    // Answered 503 with its own words: narrow the filters (plugins/problem-details.ts).
    expect(isStatementTimeout(failed)).toBe(true);
    expect((await counting(3).execute(reads.db)).rows).toEqual([{ n: 3 }]);
  } finally {
    await reads.db.destroy();
  }
});

it('runs reads only, and waits out a pause', async () => {
  let resume!: () => void;
  let paused: Promise<void> | undefined;
  const reads = sqliteReads({ file, timeoutMs: 10_000, paused: () => paused });
  try {
    await expect(sql`insert into saved_views (id) values ('x')`.execute(reads.db)).rejects.toThrow(/reads only/);
    paused = new Promise<void>((resolve) => (resume = resolve));
    let done = false;
    const read = counting(3)
      .execute(reads.db)
      .then((result) => {
        done = true;
        return result;
      });
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    const pause = paused!;
    paused = undefined;
    resume();
    await pause;
    expect((await read).rows).toEqual([{ n: 3 }]);
    await reads.pool.idle();
  } finally {
    await reads.db.destroy();
  }
});

it('keeps a process alive while it reads or closes, and lets it end once idle', async () => {
  // A script whose only work is a read, then closing: with its thread not holding the process, it
  // ended at the first await, silently, before the rows came.
  const reader = fileURLToPath(new URL('./sqlite-reader.ts', import.meta.url));
  const script = `
    const { sql } = await import('kysely');
    const { sqliteReads } = await import(${JSON.stringify(reader)});
    const reads = sqliteReads({ file: ${JSON.stringify(file)}, timeoutMs: 10000 });
    const { rows } = await sql\`select count(*) as n from applications\`.execute(reads.db);
    console.log('read', rows[0].n);
    await reads.db.destroy();
    console.log('closed');
  `;
  // Its threads from the source, through tsx, as `npm run dev:server` starts them (worker-thread.ts): the
  // rest of the project runs the compiled ones (WORKER_THREADS_FROM_BUILD).
  const env = { ...process.env, WORKER_THREADS_FROM_BUILD: undefined };
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 60_000, env });
  expect(stdout).toBe('read 0\nclosed\n');
});

it('reads with the statistics the store gathered since its threads opened, once told to reload', async () => {
  const own = await sqliteExecDatabase('sqlite-reader-stats-');
  try {
    await (await openStore(own.url)).close();
    const ownFile = own.url.slice('sqlite:'.length);
    // A thousand applications' answers, after the file opened: no statistics yet.
    const rows = Array.from({ length: 1000 }, (_, i) =>
      ['howFamiliar', 'dreamCampaign', 'howOften'].map((key) => `('a${i}', 'creators', '${key}', 'v${i % 7}')`).join(','),
    ).join(',');
    await own.exec(`insert into application_answers (application_id, page_id, key, value) values ${rows}`);
    const reads = sqliteReads({ file: ownFile, timeoutMs: 10_000 });
    try {
      const plan = async () =>
        (
          await sql<{ detail: string }>`explain query plan select 1 from application_answers where key = 'dreamCampaign' and application_id = 'a1'`.execute(
            reads.db,
          )
        ).rows
          .map((row) => row.detail)
          .join(' ');
      expect(await plan()).toContain('application_answers_key_value');
      await own.exec('analyze');
      // Open connections keep the statistics they opened with…
      expect(await plan()).toContain('application_answers_key_value');
      reads.pool.reloadStatistics();
      // …until they open again.
      expect(await plan()).toContain('application_answers_application_id');
    } finally {
      await reads.db.destroy();
    }
  } finally {
    await own.drop();
  }
});

it('lets a pause wait for the reads running, not for the reads queued behind them', async () => {
  let resume!: () => void;
  let paused: Promise<void> | undefined;
  const reads = sqliteReads({ file, timeoutMs: 60_000, threads: 1, paused: () => paused });
  try {
    await counting(3).execute(reads.db);
    const finished: string[] = [];
    const read = (name: string) =>
      counting(2_000_000)
        .execute(reads.db)
        .then(() => finished.push(name));
    const running = read('running');
    const queued = [read('queued 1'), read('queued 2')];
    await new Promise((resolve) => setImmediate(resolve));
    // An erasure's scrub comes: it waits for the read running only.
    paused = new Promise<void>((resolve) => (resume = resolve));
    await reads.pool.idle();
    await running;
    expect(finished).toEqual(['running']);
    const pause = paused;
    paused = undefined;
    resume();
    await pause;
    await Promise.all(queued);
    expect(finished).toEqual(['running', 'queued 1', 'queued 2']);
  } finally {
    await reads.db.destroy();
  }
});
