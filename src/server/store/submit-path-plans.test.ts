import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchPayload } from '../../../bench/client';
import { publishCheck } from '../../shared/page-checks';
import { defaultConfig, rawDefaultConfig } from '../../../tests/factories/application';
import { createTestDatabase } from '../../../tests/support/postgres';
import { TEST_SECRET, xsrfPair } from '../../../tests/support/xsrf';
import { buildApp } from '../app';
import { openStore, type Store } from './store';

// Every statement the submit path runs must find its rows through an index, so a
// submission costs the same at a million stored applications as at none. The statements are not
// listed by hand: the store reports each one it runs while real submissions go through the app
// (new, replayed, conflicting, limited), and each is explained on the database it ran on.
// The same for a stored, published page with a cap, whose submits take a slot in the
// application's transaction (`pages.taken`, given back on PostgreSQL when the row is a replay),
// up to the last slot and a submit refused at the cap, and a retry on the page once closed; on
// PostgreSQL also the read of the page that every process makes when a submit takes its last slot.

/** A statement the store ran, with its parameters (SQLite's submit writer inlines them). */
interface Ran {
  sql: string;
  parameters: readonly unknown[];
}

/** Transaction control and the like: nothing to plan. */
const NOT_A_QUERY = /^\s*(begin|commit|rollback|savepoint|release|pragma)\b/i;

/** The answer index's read of its queue's head (answer-index.ts): a bounded scan of a small table, by design. */
const QUEUE_HEAD = /from application_index_queue order by application_id limit/i;

/** The default page's id (`config/wizard.json`). */
const DEFAULT_PAGE = 'creators';
/** The stored page with a cap, made and published before the app starts. */
const CAPPED_PAGE = 'capped-campaign';
/** New applicants the wizard sends at once, to each page. */
const APPLICANTS = 40;
/** The stored page's cap: the applicants, then one more that takes the last slot. */
const CAP = APPLICANTS + 1;

/** `PUT /api/syncPage/{pageId}` as the wizard sends it: the anti-forgery pair and an Idempotency-Key. */
function submitter(app: Awaited<ReturnType<typeof buildApp>>, pageId: string) {
  const { headers } = xsrfPair();
  return (payload: unknown, key: string) =>
    app.inject({ method: 'PUT', url: `/api/syncPage/${pageId}`, headers: { ...headers, 'idempotency-key': key }, payload: payload as object });
}

/**
 * Sends what the wizard sends: {@link APPLICANTS} new applicants at once, then a replay and a
 * conflicting reuse of a key.
 * @returns the keys of the applications stored, in the order of their payloads (`benchPayload(n, salt)`).
 */
async function submitLikeTheWizard(app: Awaited<ReturnType<typeof buildApp>>, pageId: string, salt: string): Promise<string[]> {
  const put = submitter(app, pageId);
  const keys = Array.from({ length: APPLICANTS }, () => randomUUID());
  const answers = await Promise.all(keys.map((key, n) => put(benchPayload(n, salt), key)));
  expect(answers.map((answer) => answer.statusCode)).toEqual(keys.map(() => 201));
  expect((await put(benchPayload(0, salt), keys[0]!)).statusCode).toBe(200);
  expect((await put(benchPayload(1, salt), keys[0]!)).statusCode).toBe(422);
  return keys;
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
            // A scan of the statement's own list of values (`SCAN 17 CONSTANT ROWS`) reads no table.
            return steps.map((step) => step.detail).filter((detail) => /^SCAN\b/.test(detail) && !/CONSTANT ROWS|VALUES CLAUSE/.test(detail));
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
         * whole index: the slow submits of decision 013).
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
                if (!new RegExp(`\\(${column} `).test(condition))
                  problems.push(`${node['Node Type']} of all of ${node['Index Name']} (${condition || 'no condition'})`);
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
])('the submit path on %s', (name, createDatabase) => {
  let database: Awaited<ReturnType<typeof createDatabase>>;
  let store: Store;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let dir: string;
  let capturing = false;
  const ran: Ran[] = [];

  /** The statements `ran` holds once each (transaction control left out), by text, with the last parameters seen. */
  const statementsRan = () => {
    const statements = new Map<string, Ran>();
    for (const query of ran) if (!NOT_A_QUERY.test(query.sql)) statements.set(query.sql, query);
    return statements;
  };
  /** Each statement that scans, by its text's start, with what its plan scans. */
  const scansOf = async (statements: Map<string, Ran>) => {
    const scans: Record<string, string[]> = {};
    for (const [sql, query] of statements) {
      // The answer index's follow-up takes the head of its queue, in key order: the queue holds
      // only the applications not indexed yet (a few thousand at most), never the stored ones.
      if (QUEUE_HEAD.test(sql)) continue;
      const problems = await database.explain(query);
      if (problems.length > 0) scans[sql.replace(/\s+/g, ' ').slice(0, 160)] = problems;
    }
    return scans;
  };

  beforeAll(async () => {
    database = await createDatabase();
    store = await openStore(database.url, { onQuery: (sql, parameters) => capturing && ran.push({ sql, parameters }) });
    // The stored page, as the pages API makes it: a copy of the default page, published, then a cap.
    const actor = 'plans@brand.example';
    const created = await store.pages.create(CAPPED_PAGE, { draft: rawDefaultConfig() as unknown }, actor);
    if (typeof created === 'string') throw new Error(`page not created: ${created}`);
    expect(await store.pages.publish(CAPPED_PAGE, created.revision, actor, (draft) => publishCheck(draft, CAPPED_PAGE))).toEqual({ version: 1 });
    expect(await store.pages.update(CAPPED_PAGE, { maxApplications: CAP }, actor)).toBe(true);
    dir = mkdtempSync(join(tmpdir(), 'plans-dist-'));
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'index.html'), '<html lang="en"><head><title>t</title></head><body><!--wizard-config--></body></html>');
    // The app's page registry loads the stored page as it starts.
    app = await buildApp({ config: defaultConfig(), store, distDir: join(dir, 'dist'), rateLimitPerMinute: 1000, secret: TEST_SECRET });
    expect(app.pageRegistry.get(CAPPED_PAGE)?.maxApplications).toBe(CAP);
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds every row it reads or checks through an index (no sequential or whole-index scan)', async () => {
    ran.length = 0;
    capturing = true;
    await submitLikeTheWizard(app, DEFAULT_PAGE, 'plans');
    // Their answer index's follow-up (answer-index.ts), which every submission costs too.
    await store.applications.indexed();
    // The shared rate-limit table's sweep runs in the background after a count: wait for it.
    if (store.rateLimits) await expect.poll(() => ran.some((query) => /delete from rate_limits/.test(query.sql))).toBe(true);
    capturing = false;

    const statements = statementsRan();
    // The submit path's own writes were seen: the application, its handles, the key's first row.
    const texts = [...statements.keys()].join('\n');
    expect(texts).toMatch(/insert into "?applications"?/i);
    expect(texts).toMatch(/insert into "?application_handles"?/i);
    expect(texts).toMatch(/idempotency_key"? (=|in)/i);
    // PostgreSQL: the shared rate limit's count too (SQLite counts in memory).
    if (store.rateLimits) expect(texts).toMatch(/insert into rate_limits/i);
    // The default page has no cap: no slot taken.
    expect(texts).not.toMatch(/update "?pages"?/i);
    // The follow-up's writes were seen: the answer rows, and the queue's entries taken out.
    expect(texts).toMatch(/insert into "?application_answers"?/i);
    expect(texts).toMatch(/delete from "?application_index_queue"?/i);

    expect(await scansOf(statements)).toEqual({});
  });

  it('finds them through an index on a stored page with a cap too: slots taken to the cap, then refused', async () => {
    ran.length = 0;
    capturing = true;
    const keys = await submitLikeTheWizard(app, CAPPED_PAGE, 'capped');
    const put = submitter(app, CAPPED_PAGE);
    // The last slot; then the page is at its cap: a new applicant is refused, a retry of a stored
    // application answers as the first time did (its first row read by its key).
    expect((await put(benchPayload(APPLICANTS, 'capped'), randomUUID())).statusCode).toBe(201);
    expect((await put(benchPayload(APPLICANTS + 1, 'capped'), randomUUID())).statusCode).toBe(410);
    expect((await put(benchPayload(1, 'capped'), keys[1]!)).statusCode).toBe(200);
    // PostgreSQL: the submit that took the last slot announces it, and every process (this one
    // too) reads the page again, in the background: wait for the announcement and the read's three
    // statements (each is reported once it has run).
    const reload = [/pg_notify/, /from "pages" inner join "page_versions"/, /from "page_hosts"/, /from "application_tallies"/];
    if (store.pageChanges) await expect.poll(() => reload.every((pattern) => ran.some((query) => pattern.test(query.sql)))).toBe(true);
    capturing = false;

    const statements = statementsRan();
    const texts = [...statements.keys()].join('\n');
    expect(texts).toMatch(/insert into "?applications"?/i);
    // The slot, taken in the application's transaction.
    expect(texts).toMatch(/update pages set taken = taken \+ 1 where id = /i);
    if (name === 'PostgreSQL') {
      // A replay takes a slot before its insert finds the key stored, then gives it back.
      expect(texts).toMatch(/update pages set taken = taken - 1 where id = /i);
    }
    // The page holds its cap exactly: the replays and the refused submit took none.
    expect((await store.pages.published(CAPPED_PAGE))[0]?.applications).toBe(CAP);

    expect(await scansOf(statements)).toEqual({});
  });

  it('erases an application through indexes too: a retention round of them never reads whole tables', async () => {
    const keys = await submitLikeTheWizard(app, DEFAULT_PAGE, 'erased');
    const first = await store.applications.findByIdempotencyKey(DEFAULT_PAGE, keys[0]!);
    await store.applications.indexed();
    ran.length = 0;
    capturing = true;
    expect(await store.applications.eraseApplication(first!.id, 'plans@brand.example')).toBe(true);
    capturing = false;

    const statements = statementsRan();
    const texts = [...statements.keys()].join('\n');
    // Every table it was copied to: its handles among them.
    expect(texts).toMatch(/delete from "?application_handles"?/i);
    expect(texts).toMatch(/delete from "?application_answers"?/i);
    for (const sql of statements.keys()) if (ERASURE_SCANS_ALLOWED.test(sql)) statements.delete(sql);
    expect(await scansOf(statements)).toEqual({});
  });
});

/**
 * What an erasure's statements may scan, each bounded by something other than the applications
 * stored: the outbox's events (only those not dispatched yet, gone within moments of each submit;
 * an index there would cost every submission), the webhook deliveries still waiting (a partial
 * index of those alone), and the tallies of the application's page and status (a row per answer
 * value counted, not per application).
 */
const ERASURE_SCANS_ALLOWED = /^(delete from "?outbox_events"?|update "?webhook_deliveries"? .* "?state"? = |delete from "?application_tallies"? )/i;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}
