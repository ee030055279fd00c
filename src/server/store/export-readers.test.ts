import type { CompiledQuery } from 'kysely';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../tests/support/postgres';
import type { ApplicationRow } from './inbox-rows';
import { isStoreUnavailable } from './errors';
import { postgresExportReader } from './export-readers';
import { createPostgresPool } from './postgres-pool';

// docs/decisions/014: an export's thread reads PostgreSQL through a pool of one without
// pg's query_timeout; its reader times each page itself, as the store's pool would have.

const query = (sql: string) => ({ sql, parameters: [], query: { kind: 'RawNode' } }) as unknown as CompiledQuery<ApplicationRow>;
const ROW = `select 'id' as id, 'creators' as page_id, '2026-11-24T05:00:00.000Z' as received_at, 'new' as status, '' as note,
  'Ada' as first_name, 'Lovelace' as last_name, 'ada@example.com' as email, 'GB' as country_code, '{}' as payload,
  2 as page_version`;

describe('PostgreSQL export reader', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = await createPostgresPool(database.url, { max: 1 });
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  it('reads a page as rows in the inbox columns order', async () => {
    const read = postgresExportReader(pool, { timeoutMs: 5000 });
    expect(await read(query(ROW))).toEqual([
      {
        id: 'id',
        page_id: 'creators',
        received_at: '2026-11-24T05:00:00.000Z',
        status: 'new',
        note: '',
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        country_code: 'GB',
        payload: '{}',
        page_version: 2,
      },
    ]);
  });

  it('fails a page unanswered within its timeout as the store being unavailable, drops its connection, and reads the next page on a new one', async () => {
    const read = postgresExportReader(pool, { timeoutMs: 200 });
    const [{ pid: before }] = (await pool.query<{ pid: number }>('select pg_backend_pid() as pid')).rows as [{ pid: number }];
    const started = performance.now();
    const failed = await read(query('select pg_sleep(5)')).catch((error: unknown) => error);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toBe('Query read timeout');
    expect(isStoreUnavailable(failed)).toBe(true);
    // The pool of one is not left holding the connection that still owes the sleeping answer.
    const [{ pid: after }] = (await pool.query<{ pid: number }>('select pg_backend_pid() as pid')).rows as [{ pid: number }];
    expect(after).not.toBe(before);
    expect(await read(query(ROW))).toHaveLength(1);
  });
});
