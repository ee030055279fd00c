import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchPayload } from '../../../bench/client';
import { defaultConfig } from '../../../tests/factories/application';
import { createTestDatabase } from '../../../tests/support/postgres';
import { TEST_SECRET, xsrfPair } from '../../../tests/support/xsrf';
import { buildApp } from '../app';
import { openStore, type Store } from './store';

// Issue 12: every statement the submit path runs must find its rows through an index, so a
// submission costs the same at a million stored applications as at none. The statements are not
// listed by hand: the store reports each one it runs while real submissions go through the app
// (new, replayed, conflicting, limited), and each is explained on the database it ran on.

/** A statement the store ran, with its parameters (SQLite's submit writer inlines them). */
interface Ran {
  sql: string;
  parameters: readonly unknown[];
}

/** Transaction control and the like: nothing to plan. */
const NOT_A_QUERY = /^\s*(begin|commit|rollback|savepoint|release|pragma)\b/i;

/** Sends what the wizard sends: new applicants, then a replay and a conflicting reuse of a key. */
async function submitLikeTheWizard(app: Awaited<ReturnType<typeof buildApp>>) {
  const { headers } = xsrfPair();
  const put = (payload: unknown, key: string) =>
    app.inject({ method: 'PUT', url: '/api/syncPage/creators', headers: { ...headers, 'idempotency-key': key }, payload: payload as object });
  const keys = Array.from({ length: 40 }, () => randomUUID());
  const answers = await Promise.all(keys.map((key, n) => put(benchPayload(n, 'plans'), key)));
  expect(answers.map((answer) => answer.statusCode)).toEqual(keys.map(() => 201));
  expect((await put(benchPayload(0, 'plans'), keys[0]!)).statusCode).toBe(200);
  expect((await put(benchPayload(1, 'plans'), keys[0]!)).statusCode).toBe(422);
}

describe.each([
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'plans-'));
      const file = join(dir, 'applications.db');
      return {
        url: `sqlite:${file}`,
        drop: async () => rmSync(dir, { recursive: true, force: true }),
        /** SQLite's plan, one line per step (`SEARCH t USING INDEX …` or `SCAN t …`). */
        explain: async ({ sql, parameters }: Ran) => {
          const db = new Database(file, { readonly: true });
          try {
            const steps = db.prepare(`explain query plan ${sql}`).all(...(parameters as unknown[])) as { detail: string }[];
            return steps.map((step) => step.detail).filter((detail) => /^SCAN\b/.test(detail));
          } finally {
            db.close();
          }
        },
      };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const database = await createTestDatabase();
      return {
        ...database,
        /**
         * PostgreSQL's plan with sequential scans priced out (`enable_seqscan = off`), so the
         * answer is whether an index can serve the query at any table size, not whether a scan is
         * cheaper on the test's few rows; and an index scan must constrain the index's leading
         * column (PostgreSQL 15 has no skip scan: a condition on a later column alone reads the
         * whole index, issue 12's slow submits).
         */
        explain: async ({ sql, parameters }: Ran) => {
          const client = new pg.Client({ connectionString: database.url });
          await client.connect();
          try {
            await client.query('set enable_seqscan = off');
            const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`explain (format json) ${sql}`, parameters as unknown[]);
            const problems: string[] = [];
            const walk = async (node: PlanNode) => {
              if (node['Node Type'] === 'Seq Scan') problems.push(`Seq Scan on ${node['Relation Name']}`);
              if (node['Index Name']) {
                const leading = await client.query<{ column: string }>(
                  `select a.attname as column from pg_index i
                   join pg_class c on c.oid = i.indexrelid
                   join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
                   where c.relname = $1`,
                  [node['Index Name']],
                );
                const column = leading.rows[0]?.column ?? '?';
                const condition = node['Index Cond'] ?? '';
                if (!new RegExp(`\\(${column} `).test(condition)) problems.push(`${node['Node Type']} of all of ${node['Index Name']} (${condition || 'no condition'})`);
              }
              for (const child of node.Plans ?? []) await walk(child);
            };
            await walk(rows[0]!['QUERY PLAN'][0].Plan);
            return problems;
          } finally {
            await client.end();
          }
        },
      };
    },
  ],
])('the submit path on %s', (_name, createDatabase) => {
  let database: Awaited<ReturnType<typeof createDatabase>>;
  let store: Store;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let dir: string;
  let capturing = false;
  const ran: Ran[] = [];

  beforeAll(async () => {
    database = await createDatabase();
    store = await openStore(database.url, { onQuery: (sql, parameters) => capturing && ran.push({ sql, parameters }) });
    dir = mkdtempSync(join(tmpdir(), 'plans-dist-'));
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'index.html'), '<html lang="en"><head><title>t</title></head><body><!--wizard-config--></body></html>');
    app = await buildApp({ config: defaultConfig(), store, distDir: join(dir, 'dist'), rateLimitPerMinute: 1000, secret: TEST_SECRET });
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds every row it reads or checks through an index (no sequential or whole-index scan)', async () => {
    capturing = true;
    await submitLikeTheWizard(app);
    // The shared rate-limit table's sweep runs in the background after a count: wait for it.
    if (store.rateLimits) await expect.poll(() => ran.some((query) => /delete from rate_limits/.test(query.sql))).toBe(true);
    capturing = false;

    const statements = new Map<string, Ran>();
    for (const query of ran) if (!NOT_A_QUERY.test(query.sql)) statements.set(query.sql, query);
    // The submit path's own writes were seen: the application, its handles, the key's first row.
    const texts = [...statements.keys()].join('\n');
    expect(texts).toMatch(/insert into "?applications"?/i);
    expect(texts).toMatch(/insert into "?application_handles"?/i);
    expect(texts).toMatch(/idempotency_key"? (=|in)/i);
    // PostgreSQL: the shared rate limit's count too (SQLite counts in memory).
    if (store.rateLimits) expect(texts).toMatch(/insert into rate_limits/i);

    const scans: Record<string, string[]> = {};
    for (const [sql, query] of statements) {
      const problems = await database.explain(query);
      if (problems.length > 0) scans[sql.replace(/\s+/g, ' ').slice(0, 160)] = problems;
    }
    expect(scans).toEqual({});
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}
