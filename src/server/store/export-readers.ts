import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { applicationRowFromValues, type ExportPageReader } from './admin-store';

/**
 * Rows per page query of a PostgreSQL export (issue 12): 50 round trips for 100 000 rows, and at
 * most two pages (this one and the next, asked for ahead) held at a time, some 4 MiB at 1 KB an
 * application. Pages of 5 000 cost a third more CPU than 2 000 (their rows lived long enough to be
 * collected as old objects) and 500 waited on round trips.
 */
export const POSTGRES_EXPORT_ROWS_PER_QUERY = 2000;

/**
 * SQLite: the page queries of exports (issue 12) on `db`, a connection of their own (read-only:
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
 * PostgreSQL: one page query of an export (issue 12) through `pool`, its rows read as arrays
 * (pg's `rowMode: 'array'`) and made objects by the inbox's store, as the SQLite reader does: one
 * object a row instead of two. The pool's query timeout applies to each page.
 */
export function postgresExportReader(pool: pg.Pool): ExportPageReader {
  return async (query) => {
    const result = await pool.query<string[]>({ text: query.sql, values: query.parameters as unknown[], rowMode: 'array' });
    return result.rows.map(applicationRowFromValues);
  };
}
