import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationFilter } from '../../shared/admin';
import { applicantPayload } from '../../../tests/factories/application';
import { createTestDatabase } from '../../../tests/support/postgres';
import { ApplicationReader } from './applications';
import { openStore } from './store';
import type { Database as Schema } from './schema';

// An export reads page after page; each page must seek the (received_at, id) index to
// the previous page's last row. Spelt with OR, every page scanned the index from its newest entry
// (SQLite) or gathered and sorted every older row (PostgreSQL). A structural check of the plans.

const FILTERS: ApplicationFilter[] = [{}, { status: 'new' }, { pageId: 'creators', country: 'GB' }, { platform: 'instagram', q: 'ada' }];

describe.each([
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'export-pages-'));
      const file = join(dir, 'applications.db');
      return {
        url: `sqlite:${file}`,
        db: () => new Kysely<Schema>({ dialect: new SqliteDialect({ database: new Database(file) }) }),
        drop: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const database = await createTestDatabase();
      return { ...database, db: () => new Kysely<Schema>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 1 }) }) }) };
    },
  ],
])('export pages on %s', (storeName, createDatabase) => {
  let database: Awaited<ReturnType<typeof createDatabase>>;
  let db: Kysely<Schema>;

  beforeAll(async () => {
    database = await createDatabase();
    const store = await openStore(database.url);
    for (const [index, name] of ['Ada', 'Bea', 'Cy', 'Dee', 'Eve', 'Ada'].entries()) {
      const payload = applicantPayload({ firstName: name, lastName: `L${index}`, email: `p${index}@example.com`, country: 'GB', instagram: `ada${index}` });
      await store.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload });
    }
    await store.close();
    db = database.db();
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  /**
   * The plan's lines (SQLite), or its nodes as JSON text (PostgreSQL, with table scans, bitmap scans
   * and sorts off: on a table this small they cost less, so the check is that a plan seeking the
   * index in order exists).
   */
  async function plan(query: CompiledQuery): Promise<string> {
    if (storeName === 'SQLite') {
      const rows = await db.executeQuery<{ detail: string }>({ ...query, sql: `explain query plan ${query.sql}` } as CompiledQuery<{ detail: string }>);
      return rows.rows.map((row) => row.detail).join('\n');
    }
    return db.connection().execute(async (connection) => {
      for (const setting of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort']) await sql`set ${sql.raw(setting)} = off`.execute(connection);
      const rows = await connection.executeQuery<{ 'QUERY PLAN': unknown }>({ ...query, sql: `explain (format json) ${query.sql}` } as CompiledQuery<{
        'QUERY PLAN': unknown;
      }>);
      return JSON.stringify(rows.rows[0]!['QUERY PLAN']);
    });
  }

  it('seeks an index ending in (received_at, id) for every page, whatever the filters: no scan of the table, no sort', async () => {
    const queries: CompiledQuery[] = [];
    const admin = new ApplicationReader(db, {
      exportPages: {
        read: async (query) => {
          queries.push(query);
          return (await db.executeQuery(query)).rows;
        },
      },
    });
    let exported = 0;
    for (const filter of FILTERS) for await (const batch of admin.exportApplications(filter, 2)) exported += batch.length;
    expect(exported).toBeGreaterThan(6);
    const afterCursor = queries.filter((query) => /\("received_at", "id"\) </.test(query.sql));
    expect(afterCursor.length).toBeGreaterThanOrEqual(FILTERS.length);
    for (const query of queries) {
      const text = await plan(query);
      if (storeName === 'SQLite') {
        // The (received_at, id, status) index, or one that ends in it after a column the filter fixes (country).
        expect(text, query.sql).toMatch(/USING (COVERING )?INDEX applications_(received_at_id_status|country_code)\b/);
        expect(text, query.sql).not.toMatch(/TEMP B-TREE|SCAN applications$/m);
        if (afterCursor.includes(query)) {
          expect(text, query.sql).toMatch(
            /SEARCH applications USING (COVERING )?INDEX applications_(received_at_id_status|country_code) \((country_code=\? AND )?\(received_at,id\)<\(\?,\?\)\)/,
          );
        }
      } else {
        expect(text, query.sql).toMatch(/"Index Name":"applications_(received_at_id_status|country_code)"/);
        expect(text, query.sql).not.toMatch(/"Node Type":"(Sort|Seq Scan|Bitmap Heap Scan)"/);
        if (afterCursor.includes(query)) expect(text, query.sql).toMatch(/"Index Cond":"[^"]*ROW\(received_at, id\) < ROW\(/);
      }
    }
  });
});
