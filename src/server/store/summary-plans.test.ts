import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../tests/factories/application';
import { fillApplications } from '../../../tests/factories/fill';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import type { ApplicationFilter } from '../../shared/admin';
import { summaryPlan, summaryRequest } from '../inbox/summary';
import { openStore, type Store } from './store';

// The summary under a `contains` filter (issue 16, the inbox at 100 000 applications): it read every
// matched application's answers, four times, with the text's set joined in again by each statement
// (on PostgreSQL as a nested loop that ran the set once per row: 7.5 s at 7 221 applications). It
// now reads the rows the text matches, once, from one index, grouped by the profile each carries
// (the status tabs' counts under such a text too); any other filter reads the matched ids once
// (`as materialized`). These tests follow the
// statements the store runs for a summary and explain them on the database they ran on.

/** A statement the store ran, with its parameters. */
interface Ran {
  sql: string;
  parameters: readonly unknown[];
}

/** What is not the summary's: transaction control, the answer index's follow-up. */
const NOT_THE_SUMMARY = /^\s*(begin|commit|rollback|savepoint|release|pragma)\b|application_index_queue|tallied_questions/i;

describe.each([
  [
    'SQLite',
    () => sqliteExecDatabase('summary-plans-'),
    /** SQLite's plan, one line per step. */
    async (database: ExecDatabase, { sql, parameters }: Ran) => {
      const db = new Database(database.url.slice('sqlite:'.length), { readonly: true });
      db.function('casefold', (text: unknown) => (typeof text === 'string' ? text.toLowerCase() : text));
      try {
        return (db.prepare(`explain query plan ${sql}`).all(...(parameters as unknown[])) as { detail: string }[]).map((step) => step.detail);
      } finally {
        db.close();
      }
    },
  ],
  [
    'PostgreSQL',
    postgresExecDatabase,
    /** PostgreSQL's plan, one line per node, sequential scans priced out (the test's few rows would favour them). */
    async (database: ExecDatabase, { sql, parameters }: Ran) => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query('set enable_seqscan = off');
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain ${sql}`, parameters as unknown[]);
        return rows.map((row) => row['QUERY PLAN']);
      } finally {
        await client.end();
      }
    },
  ],
])('the summary under a contains filter on %s', (_name, createDatabase: () => Promise<ExecDatabase>, explain: (database: ExecDatabase, query: Ran) => Promise<string[]>) => {
  let database: ExecDatabase;
  let store: Store;
  let capturing = false;
  const ran: Ran[] = [];
  const request = summaryRequest(summaryPlan(defaultConfig()));

  beforeAll(async () => {
    database = await createDatabase();
    store = await openStore(database.url, { onQuery: (sql, parameters) => capturing && ran.push({ sql, parameters }) });
    // The default page's choices recorded first, as the server records them at start.
    await fillApplications(store, 400);
    if (database.url.startsWith('postgres')) await database.exec('vacuum analyze');
  }, 120_000);

  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  /** The statements one summary of `filter` runs. */
  async function statementsOf(filter: ApplicationFilter) {
    await store.applications.indexed();
    ran.length = 0;
    capturing = true;
    const counts = await store.summary.summarize({ pageId: 'creators', ...filter }, request);
    capturing = false;
    return { counts, statements: ran.filter((query) => !NOT_THE_SUMMARY.test(query.sql)) };
  }

  it('reads the rows the text matches from one index, once, grouped by profile, and no application\'s other answers', async () => {
    for (const filter of [{ contains: ['dreamCampaign:putty'] }, { contains: ['dreamCampaign:#42 '], status: 'new' as const }, { contains: ['dreamCampaign:putty'], answer: ['howFamiliar:Super-Fan'] }]) {
      const { counts, statements } = await statementsOf(filter);
      expect(counts.matched, JSON.stringify(filter)).toBeGreaterThan(0);
      // Whether the text's question has answers counted per value (a few rows of the tallies), then the rows.
      expect(statements.map((query) => query.sql.replace(/\s+/g, ' ').slice(0, 60))).toEqual([expect.stringMatching(/from "application_tallies"/), expect.stringMatching(/^select counted.answer_profile as profile/)]);
      const plan = (await explain(database, statements[1]!)).join('\n');
      if (_name === 'SQLite') {
        // The matching rows and their profiles from the partial index alone, in profile order (no sort).
        expect(plan).toMatch(/SEARCH counted USING COVERING INDEX application_answers_untallied \(key=\? AND page_id=\?/);
        expect(plan.split('\n').filter((step) => /^SCAN /.test(step))).toEqual([]);
      } else {
        expect(plan).toMatch(/application_answers_untallied|application_answers_value_trgm/);
        expect(plan).not.toMatch(/Seq Scan|Semi Join|SubPlan/);
      }
    }
  });

  it("counts each status's applications under a contains text from the same index (the status tabs)", async () => {
    await store.applications.indexed();
    ran.length = 0;
    capturing = true;
    const counts = await store.applications.countApplications({ pageId: 'creators', contains: ['dreamCampaign:putty'], platform: 'tiktok' });
    capturing = false;
    const statements = ran.filter((query) => !NOT_THE_SUMMARY.test(query.sql));
    expect(statements.map((query) => query.sql.replace(/\s+/g, ' ').slice(0, 60))).toEqual([expect.stringMatching(/from "application_tallies"/), expect.stringMatching(/^select counted.answer_profile as profile/)]);
    // As the list finds them.
    const listed = await store.applications.listApplications({ pageId: 'creators', contains: ['dreamCampaign:putty'], platform: 'tiktok' }, { limit: 500 });
    expect(counts.all).toBe(listed.length);
    expect(counts.shortlisted).toBe(listed.filter((row) => row.status === 'shortlisted').length);
    expect(counts.shortlisted).toBeGreaterThan(0);
  });

  it('counts under any other filter from the matched ids found once, in one statement', async () => {
    const { counts, statements } = await statementsOf({ contains: ['dreamCampaign:putty'], country: 'JP' });
    expect(counts.matched).toBeGreaterThan(0);
    expect(statements).toHaveLength(1);
    expect(statements[0]!.sql).toMatch(/^with matched as materialized/);
    const plan = (await explain(database, statements[0]!)).join('\n');
    // The text's set is read once (in the matched ids), never once per row.
    if (_name === 'PostgreSQL') {
      expect(plan).toMatch(/CTE matched/);
      expect(plan).not.toMatch(/SubPlan/);
    } else {
      expect(plan).toMatch(/MATERIALIZE matched/);
      expect(plan.split('\n').filter((step) => /^SCAN x\b/.test(step))).toEqual([]);
    }
    expect(counts).toEqual(await store.summary.summarize({ pageId: 'creators', contains: ['dreamCampaign:putty'], country: 'JP', from: '2000-01-01' }, request));
  });
});
