import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { applicantPayload } from '../factories/application';
import { createInboxUser, openInbox, signIn, submitApplication, violations } from './inbox-support';
import { useServerAndBrowser } from './support';

// The summary of the list's view and the funnel beside its previous period, in Chromium
// against the real server; axe on both; their screenshots for docs/inbox.md.

const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);

const e2e = useServerAndBrowser();

beforeAll(async () => {
  await createInboxUser(e2e.server);
  await submitApplication(
    e2e.server,
    applicantPayload({
      firstName: 'Kai',
      lastName: 'Tanaka',
      email: 'kai@example.com',
      country: 'JP',
      tiktok: 'kai.makes',
      fields: { howOften: 'Rarely', whichProducts: 'Thinking Putty, Slime Charmers', 'campaign.value': 'No' },
    }),
  );
  await submitApplication(
    e2e.server,
    applicantPayload({
      firstName: 'Yuki',
      lastName: 'Sato',
      email: 'yuki@example.com',
      country: 'JP',
      instagram: 'yuki.makes',
      fields: { whichProducts: 'Thinking Putty', 'campaign.value': 'Yes', 'campaign.text': 'Brand A' },
    }),
  );
  await submitApplication(
    e2e.server,
    applicantPayload({
      firstName: 'Lena',
      lastName: 'Martin',
      email: 'lena@example.com',
      country: 'FR',
      instagram: 'lena.makes',
      fields: { howOften: 'Every day' },
    }),
  );
  // The funnel's counts on chosen days (the wizard reports only today's): 5 three days ago, 7 ten
  // days ago (the week before the last 7 days), 11 forty days ago (before the last 30 days).
  const db = new Database(e2e.server.dbFile);
  db.pragma('busy_timeout = 5000');
  const insert = db.prepare("insert into funnel_counts (page_id, day, event, step, count) values ('creators', ?, ?, ?, ?)");
  for (const [days, count] of [
    [3, 5],
    [10, 7],
    [40, 11],
  ] as const) {
    insert.run(daysAgo(days), 'stepReached', 0, count);
    insert.run(daysAgo(days), 'stepReached', 1, count - 1);
    insert.run(daysAgo(days), 'submitted', -1, count - 2);
  }
  db.close();
});

/** The cells of a table's row named by its heading, as text. */
async function cells(table: Locator, row: string): Promise<string[]> {
  return table
    .getByRole('row')
    .filter({ has: table.page().getByRole('rowheader', { name: row, exact: true }) })
    .getByRole('cell')
    .allTextContents();
}

describe('the whole picture', () => {
  it('summarises the list’s view, with its filters, and goes back to it', async () => {
    const page = await openInbox(e2e, '/admin?country=JP');
    await signIn(page);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Applications');
    // The view's rows and its answer filters drawn: nothing moves the link while it is clicked.
    await expect.poll(() => page.locator('tbody tr .applicant-name').count()).toBe(2);
    await page.locator('.answer-filters').waitFor();
    await page.getByRole('link', { name: 'Summary of this view' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Summary');
    expect(new URL(page.url()).searchParams.get('country')).toBe('JP');
    await expect.poll(() => page.getByText('2 applications match.').count()).toBe(1);
    expect(await page.locator('.summary-filters').textContent()).toContain('Country: Japan');

    const products = page.getByRole('table', { name: /^Which products are you interested in\?/ });
    expect(await cells(products, 'Thinking Putty')).toEqual(['2', '100%']);
    expect(await cells(products, 'Slime Charmers')).toEqual(['1', '50%']);
    expect(await cells(products, 'Land of Dough')).toEqual(['0', '0%']);
    const often = page.getByRole('table', { name: /^How often do you play with our putty\?/ });
    expect(await cells(often, 'Rarely')).toEqual(['1', '50%']);
    expect(await cells(often, 'Every day')).toEqual(['0', '0%']);
    const platforms = page.getByRole('table', { name: /^Applicants per platform/ });
    expect(await cells(platforms, 'TikTok')).toEqual(['1', '50%']);
    expect(await page.getByText('1 of 2 answered (50%).').count()).toBe(1);
    // The bars are drawn, with their counts.
    await expect.poll(() => page.locator('.answer-chart .recharts-surface').count()).toBeGreaterThan(3);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'inbox-summary.png'), fullPage: true });
    expect(await violations(page, 'summary')).toEqual([]);

    await page.getByRole('link', { name: 'Back to the list of this view' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Applications');
    expect(new URL(page.url()).searchParams.get('country')).toBe('JP');
    await expect.poll(() => page.getByRole('link', { name: 'Yuki Sato' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Lena Martin' }).count()).toBe(0);

    // A view nothing matches says so.
    await page.goto(`${e2e.server.url}/admin/summary?country=JP&status=declined`);
    await expect.poll(() => page.getByText('No applications match these filters.').count()).toBe(1);
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });

  it('shows the funnel of a chosen period beside the previous one', async () => {
    const page = await openInbox(e2e, '/admin/funnel');
    await signIn(page);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Funnel');
    const table = page.getByRole('table', { name: 'Totals and step-to-step conversion' });
    // The last 30 days: 5 + 7 reached Welcome; the 30 days before: 11.
    await expect.poll(() => cells(table, 'Welcome')).toEqual(['12', '100%', '—', '11', '+1']);
    expect(await cells(table, 'Introduce Yourself')).toEqual(['10', '83.3%', '2 (16.7%)', '10', '0']);
    expect(await page.getByRole('columnheader', { name: `Previous period (${daysAgo(59)} to ${daysAgo(30)})` }).count()).toBe(1);

    await page.getByRole('combobox', { name: 'Period' }).selectOption({ label: 'Last 7 days' });
    await expect.poll(() => cells(table, 'Welcome')).toEqual(['5', '100%', '—', '7', '−2']);
    expect(await cells(table, 'Submitted')).toEqual(['3', '60%', 'none (3 more)', '5', '−2']);
    expect(await page.getByRole('columnheader', { name: `Previous period (${daysAgo(13)} to ${daysAgo(7)})` }).count()).toBe(1);
    const url = new URL(page.url());
    expect([url.searchParams.get('from'), url.searchParams.get('to')]).toEqual([daysAgo(6), daysAgo(0)]);
    await expect.poll(() => page.locator('.chart .recharts-bar-rectangle').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'inbox-funnel-periods.png'), fullPage: true });
    expect(await violations(page, 'funnel')).toEqual([]);

    // A custom range: the day ten days ago alone, beside the day before it.
    await page.getByLabel('From', { exact: true }).fill(daysAgo(10));
    await page.getByLabel('To', { exact: true }).fill(daysAgo(10));
    await expect.poll(() => cells(table, 'Welcome')).toEqual(['7', '100%', '—', '0', '+7']);
    expect(await page.getByRole('combobox', { name: 'Period' }).inputValue()).toBe('custom');
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });
});
