import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applicantPayload } from '../../../tests/factories/application';
import { sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import type { ApplicationFilter } from '../../shared/admin';
import type { ListOrder } from './application-filters';
import { openStore, type Store } from './store';

// A list sorted by a column of its own within a country, on SQLite (the inbox at 100 000
// applications): SQLite read every application of the country from its index and sorted them
// (25 ms of CPU for a tenth of 100 000), where walking the sort's index finds a page within a few
// hundred rows. A common country (2 000 applications or more, counted on its index first) is now
// checked row by row; a rare one is still read from its index. PostgreSQL's planner chose well.

let database: ExecDatabase;
let store: Store;
let capturing = false;
const ran: { sql: string; parameters: readonly unknown[] }[] = [];

beforeAll(async () => {
  database = await sqliteExecDatabase('list-plans-');
  store = await openStore(database.url, { onQuery: (sql, parameters) => capturing && ran.push({ sql, parameters }) });
  const saves = [];
  // 2 100 applicants from Japan (a common country), ten from France (a rare one).
  for (let i = 0; i < 2110; i++) {
    const payload = applicantPayload({
      firstName: `Creator${i}`,
      lastName: 'Tester',
      email: `c${i}@example.com`,
      country: i < 2100 ? 'JP' : 'FR',
      instagram: `c${i}`,
      followers: String((i * 7919) % 99_991),
    });
    saves.push(store.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload }));
  }
  await Promise.all(saves);
}, 120_000);

afterAll(async () => {
  await store?.close();
  await database?.drop();
});

/** The plan of the page query a list of `filter` in `order` ran, one line per step. */
async function planOf(filter: ApplicationFilter, order: ListOrder) {
  ran.length = 0;
  capturing = true;
  const rows = await store.applications.listApplications(filter, { limit: 51, order });
  capturing = false;
  const page = ran.find((query) => /from "applications"/.test(query.sql) && /order by/.test(query.sql))!;
  const db = new Database(database.url.slice('sqlite:'.length), { readonly: true });
  try {
    return {
      rows,
      plan: (db.prepare(`explain query plan ${page.sql}`).all(...(page.parameters as unknown[])) as { detail: string }[]).map((step) => step.detail),
    };
  } finally {
    db.close();
  }
}

it('walks the sort index of a list within a common country, and reads a rare country from its own index', async () => {
  const byFollowers: ListOrder = { sort: 'followers', dir: 'desc' };
  const common = await planOf({ country: 'JP' }, byFollowers);
  expect(common.plan).toEqual([expect.stringMatching(/^SCAN applications USING INDEX applications_total_followers/)]);
  expect(common.rows).toHaveLength(51);
  const followers = common.rows.map((row) => Number(row.sortValue));
  expect(followers).toEqual([...followers].sort((a, b) => b - a));
  expect(new Set(followers).size).toBeGreaterThan(40);
  expect(common.rows.every((row) => row.countryCode === 'JP')).toBe(true);

  const rare = await planOf({ country: 'FR' }, byFollowers);
  expect(rare.plan.join('\n')).toMatch(/USING INDEX applications_country_code/);
  expect(rare.rows).toHaveLength(10);
  // Sorted by country itself, or by time received: the country's index serves either.
  expect((await planOf({ country: 'JP' }, { sort: 'country', dir: 'asc' })).plan.join('\n')).not.toMatch(/TEMP B-TREE/);
  expect((await planOf({ country: 'JP' }, { sort: 'received', dir: 'desc' })).plan.join('\n')).not.toMatch(/TEMP B-TREE/);
});
