import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { applicationRowFromValues, type ExportPageReader } from './inbox-rows';

/**
 * Rows per page query of a PostgreSQL export: 50 round trips for 100 000 rows, and at
 * most two pages (this one and the next, asked for ahead) held at a time, some 4 MiB at 1 KB an
 * application. Pages of 5 000 cost a third more CPU than 2 000 (their rows lived long enough to be
 * collected as old objects) and 500 waited on round trips.
 */
export const POSTGRES_EXPORT_ROWS_PER_QUERY = 2000;

/**
 * Rows per page query of a PostgreSQL export in a thread of its own (docs/decisions/014):
 * 200 round trips for 100 000 rows, each next page asked for ahead. Measured there (a fresh V8 heap
 * per export, pages timed by {@link postgresExportReader}): pages of 2 000 rows outlived two
 * scavenges while they were formatted and were promoted to the old generation, some 50 MB per
 * 100 000 rows; pages of 500 or 1 000 were not (4 MB), and took a fifth less CPU.
 */
export const POSTGRES_THREAD_EXPORT_ROWS_PER_QUERY = 500;

/**
 * SQLite: the page queries of exports on `db`, a connection of their own (read-only:
 * `openReadOnlyDatabase`), with a prepared statement kept per query text, rows read as arrays (a
 * third less time than better-sqlite3's own objects) and made objects by the inbox's store.
 * Synchronous and short (one page); the statement is done with when it returns, so no read stays
 * open between pages.
 */
export function sqliteExportReader(db: BetterSqlite3.Database): ExportPageReader {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return async (query) => {
    let statement = statements.get(query.sql);
    if (!statement) statements.set(query.sql, (statement = db.prepare(query.sql).raw(true)));
    return (statement.all(query.parameters as unknown[]) as string[][]).map(applicationRowFromValues);
  };
}

/**
 * PostgreSQL: one page query of an export through `pool`, its rows read as arrays
 * (pg's `rowMode: 'array'`) and made objects by the inbox's store, as the SQLite reader does: one
 * object a row instead of two.
 * @param options.timeoutMs - a page unanswered this long fails with `Query read timeout` (as the
 *   store being unavailable, `isStoreUnavailable`) and its connection is destroyed, as the
 *   store's pool does with pg's `query_timeout`. For a pool without `query_timeout`:
 *   an export's thread (docs/decisions/014) times its pages here because, measured, pg's
 *   `query_timeout` made every page's rows outlive two scavenges — some 55 MB promoted to the old
 *   generation per 100 000 rows, collected by mark-compacts whose marking runs on V8's helper
 *   threads at normal priority — and this timer does not.
 */
export function postgresExportReader(pool: pg.Pool, options: { timeoutMs?: number | undefined } = {}): ExportPageReader {
  const { timeoutMs } = options;
  return async (query) => {
    const config: pg.QueryArrayConfig = { text: query.sql, values: query.parameters as unknown[], rowMode: 'array' };
    if (!timeoutMs) return (await pool.query<string[]>(config)).rows.map(applicationRowFromValues);
    const client = await pool.connect();
    let timer: NodeJS.Timeout | undefined;
    let failed: Error | undefined;
    try {
      const rows = await new Promise<string[][]>((resolve, reject) => {
        timer = setTimeout(() => {
          failed = new Error('Query read timeout');
          reject(failed);
          // Its answer is still owed on the connection: the connection goes, not to the next page.
          (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
        }, timeoutMs);
        client.query<string[]>(config, (error, result) => (error ? reject(error) : resolve(result.rows)));
      });
      return rows.map(applicationRowFromValues);
    } catch (error) {
      failed ??= error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      clearTimeout(timer);
      // A connection that failed is dropped by the pool rather than handed out again.
      client.release(failed);
    }
  };
}
