import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../tests/factories/application';
import { fillApplications } from '../../../tests/factories/fill';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import type { ApplicationFilter } from '../../shared/admin';
import { summaryPlan, summaryRequest } from '../inbox/summary';
import { openStore, type Store } from './store';

// The summary under a `contains` filter (the inbox at 100 000 applications): it read every
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
])(
  'the summary under a contains filter on %s',
  (_name, createDatabase: () => Promise<ExecDatabase>, explain: (database: ExecDatabase, query: Ran) => Promise<string[]>) => {
    let database: ExecDatabase;
    let store: Store;
    let capturing = false;
    const ran: Ran[] = [];
    const request = summaryRequest(summaryPlan(defaultConfig()));

    beforeAll(async () => {
      database = await createDatabase();
      // The summary's own statements: not the look at the changes' token each one takes first (shared-reads.ts).
      store = await openStore(database.url, { onQuery: (sql, parameters) => capturing && !sql.includes('inbox_changes') && ran.push({ sql, parameters }) });
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

    it("reads the rows the text matches from one index, once, grouped by profile, and no application's other answers", async () => {
      for (const filter of [
        { contains: ['dreamCampaign:putty'] },
        { contains: ['dreamCampaign:#42 '], status: 'new' as const },
        { contains: ['dreamCampaign:putty'], answer: ['howFamiliar:Super-Fan'] },
        // Each such row keeps its application's country (migration 029).
        { contains: ['dreamCampaign:putty'], country: 'JP' },
      ]) {
        const { counts, statements } = await statementsOf(filter);
        expect(counts.matched, JSON.stringify(filter)).toBeGreaterThan(0);
        expect(counts, JSON.stringify(filter)).toEqual(await store.summary.summarize({ pageId: 'creators', ...filter }, request, { rows: true }));
        // Whether the text's question has answers counted per value (a few rows of the tallies), then the rows.
        expect(statements.map((query) => query.sql.replace(/\s+/g, ' ').slice(0, 60))).toEqual([
          expect.stringMatching(/from "application_tallies"/),
          expect.stringMatching(/^select profiles.profile as profile, found.status/),
        ]);
        const plan = (await explain(database, statements[1]!)).join('\n');
        if (_name === 'SQLite') {
          // The matching rows and their profiles from the partial index alone, in profile order (no sort).
          expect(plan).toMatch(/SEARCH counted USING COVERING INDEX application_answers_untallied \(key=\? AND page_id=\?/);
          // (`found`: the groups, a few rows, joined to their profiles by number.)
          expect(plan.split('\n').filter((step) => /^SCAN (?!found$)/.test(step))).toEqual([]);
        } else {
          expect(plan).toMatch(/Index Only Scan using application_answers_untallied/);
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
      expect(statements.map((query) => query.sql.replace(/\s+/g, ' ').slice(0, 60))).toEqual([
        expect.stringMatching(/from "application_tallies"/),
        expect.stringMatching(/^select profiles.profile as profile, found.status/),
      ]);
      // As the list finds them.
      const listed = await store.applications.listApplications({ pageId: 'creators', contains: ['dreamCampaign:putty'], platform: 'tiktok' }, { limit: 500 });
      expect(counts.all).toBe(listed.length);
      expect(counts.shortlisted).toBe(listed.filter((row) => row.status === 'shortlisted').length);
      expect(counts.shortlisted).toBeGreaterThan(0);
    });

    it('counts under any other filter from the matched ids found once, in one statement', async () => {
      // (A search: with a country alone, the answer rows' own country serves it, as above.)
      const filter = { contains: ['dreamCampaign:putty'], country: 'JP', q: 'example' };
      const { counts, statements } = await statementsOf(filter);
      expect(counts.matched).toBeGreaterThan(0);
      expect(statements).toHaveLength(1);
      expect(statements[0]!.sql).toMatch(/^with matched as materialized/);
      const plan = (await explain(database, statements[0]!)).join('\n');
      // The text's set is read once (in the matched ids), never once per row.
      if (_name === 'PostgreSQL') {
        expect(plan).toMatch(/CTE matched/);
        // The one plan run per row: each matched application's profile, from the partial index alone (migration 017).
        expect(plan.match(/SubPlan/g)).toHaveLength(1);
        expect(plan).toMatch(/SubPlan \d+\n\s+-> {2}Limit [^\n]*\n\s+-> {2}Index Only Scan using application_answers_profile on application_answers p /);
      } else {
        expect(plan).toMatch(/MATERIALIZE matched/);
        expect(plan.split('\n').filter((step) => /^SCAN [xp]\b/.test(step))).toEqual([]);
        // Each matched application's profile from the partial index alone (migration 017).
        expect(plan).toMatch(/SEARCH p USING COVERING INDEX application_answers_profile \(application_id=\?/);
      }
      if (_name === 'PostgreSQL') expect(plan).toMatch(/application_answers_profile/);
      // As the answer rows count them.
      expect(counts).toEqual(await store.summary.summarize({ pageId: 'creators', ...filter }, request, { rows: true }));
      expect(counts).toEqual(await store.summary.summarize({ pageId: 'creators', ...filter, from: '2000-01-01' }, request));
    });

    it('counts a period holding most of its scope as the tallies less the applications outside it, and a short one on its own rows', async () => {
      // 30 applications received on the first three days of 2026, 20 in 2030; the rest today.
      await database.exec(
        `update applications set received_at = '2026-01-0' || (1 + abs(length(id) + unicode(substr(id, 36, 1))) % 3) || 'T12:00:00.000Z' where id in (select id from applications order by id limit 30)`.replace(
          'unicode',
          database.url.startsWith('postgres') ? 'ascii' : 'unicode',
        ),
      );
      await database.exec(
        `update applications set received_at = '2030-06-01T12:00:00.000Z' where id in (select id from applications order by id desc limit 20)`,
      );
      const periods: ApplicationFilter[] = [
        { from: '2026-01-02' },
        { from: '2026-01-02', status: 'shortlisted' },
        { from: '2026-01-01', to: '2029-12-31' },
        { to: '2029-12-31' },
        { to: '2026-01-02' },
        { from: '2030-01-01' },
        { from: '2026-01-03', to: '2026-01-02' },
      ];
      for (const period of periods) {
        const counts = await store.summary.summarize({ pageId: 'creators', ...period }, request);
        // As the rows count them, and as the list lists them.
        expect(counts, JSON.stringify(period)).toEqual(await store.summary.summarize({ pageId: 'creators', ...period }, request, { rows: true }));
        expect(counts.matched, JSON.stringify(period)).toBe(
          (await store.applications.listApplications({ pageId: 'creators', ...period }, { limit: 500 })).length,
        );
      }
      // Most of the scope in the period: the rows before it are counted, never the period's own.
      const { counts, statements } = await statementsOf({ from: '2026-01-02' });
      expect(counts.matched).toBeGreaterThan(300);
      const counted = statements.filter((query) => /^with matched as materialized/.test(query.sql));
      expect(counted).toHaveLength(1);
      expect(counted[0]!.sql).toMatch(/"received_at" </);
      expect(counted[0]!.sql).not.toMatch(/"received_at" >=/);
      // The rows outside the period counted on the (received_at, id, status) index, up to half the scope.
      const outside = statements.find((query) => /^select count\(\*\) as "n" from \(select 1/.test(query.sql));
      expect(outside).toBeDefined();
      const plan = (await explain(database, outside!)).join('\n');
      if (_name === 'SQLite') expect(plan).toMatch(/applications_received_at_id_status/);
      else expect(plan).not.toMatch(/Seq Scan/);
      // A short period: its own rows, no tallies read.
      const short = await statementsOf({ to: '2026-01-02' });
      expect(short.counts.matched).toBeLessThan(30);
      expect(short.statements.filter((query) => /^with matched as materialized/.test(query.sql))).toHaveLength(1);
      expect(short.statements.filter((query) => /^with matched as materialized/.test(query.sql))[0]!.sql).toMatch(/"received_at" </);
    });
  },
);
