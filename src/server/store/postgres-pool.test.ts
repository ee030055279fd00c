import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { TEST_DATABASE_URL } from '../../../tests/support/postgres';
import { isStatementTimeout, isStoreUnavailable } from './errors';
import { createPostgresPool } from './postgres-pool';

// A statement past the store's time limit is stopped by PostgreSQL itself (statement_timeout), so
// it frees its backend, rather than given up on by the client alone while it runs on for minutes.

const pools: pg.Pool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
});

it('has PostgreSQL cancel a statement that runs past the time limit, and keeps the connection', async () => {
  const pool = await createPostgresPool(TEST_DATABASE_URL, { queryTimeoutMs: 300, max: 1 });
  const watcher = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
  pools.push(pool, watcher);
  const marker = `statement-timeout-${process.pid}-${Date.now()}`;
  const failed = await pool.query(`select pg_sleep(30), '${marker}'`).catch((error: unknown) => error);
  expect(failed).toMatchObject({ code: '57014' });
  expect(isStoreUnavailable(failed)).toBe(true);
  // Answered 503 with its own words: narrow the filters (plugins/problem-details.ts).
  expect(isStatementTimeout(failed)).toBe(true);
  // Nothing of it still runs on the server…
  const running = await watcher.query(`select count(*)::int as n from pg_stat_activity where query like $1 and query not like '%pg_stat_activity%'`, [
    `%${marker}%`,
  ]);
  expect(running.rows[0].n).toBe(0);
  // …and the same connection answers the next statement.
  expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
});
