import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { applicantPayload } from '../factories/application';
import { INBOX_VIEWER, VIEW_APPLICANTS as APPLICANTS, createInboxUser, openInbox, signIn, submitApplication, violations } from './inbox-support';
import { useServerAndBrowser } from './support';

// The list in Chromium against the real server: each row's tags and bulk
// tagging (editors only), and the phone layout below 768 px — cards, no sideways scrolling from
// 320 px, sort, select, decide and open an application there; axe; screenshots for docs/inbox.md.

const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

const e2e = useServerAndBrowser();
beforeAll(async () => {
  await createInboxUser(e2e.server);
  await createInboxUser(e2e.server, INBOX_VIEWER, 'viewer');
  for (const applicant of APPLICANTS) await submitApplication(e2e.server, applicantPayload(applicant));
});

/** Creates a team tag through the API, as the signed-in page (its session and anti-forgery cookie). */
function createTag(page: Page, name: string): Promise<void> {
  return page.evaluate(async (tagName) => {
    const token = decodeURIComponent(/XSRF-TOKEN=([^;]+)/.exec(document.cookie)![1]!);
    const response = await fetch('/api/admin/tags', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-xsrf-token': token },
      body: JSON.stringify({ name: tagName }),
    });
    if (!response.ok) throw new Error(`POST /tags answered ${response.status}`);
  }, name);
}

const names = (page: Page) => page.locator('tbody tr .applicant-name').allInnerTexts();
const tagsOf = (page: Page, name: string) =>
  page
    .getByRole('list', { name: `Tags of ${name}` })
    .getByRole('listitem')
    .allInnerTexts();
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe('tags in the list, bulk tagging and the phone layout', () => {
  it('shows each row with its tags; an editor adds a team tag to a selection and removes one from it', async () => {
    const page = await openInbox(e2e);
    await signIn(page);
    await expect.poll(() => names(page)).toHaveLength(3);
    await createTag(page, 'Gifting');
    await createTag(page, 'UGC');
    await page.reload();
    await expect.poll(() => names(page)).toHaveLength(3);

    const bulk = page.getByRole('group', { name: 'Selected applications' });
    const said = (text: string) => page.getByRole('status').filter({ hasText: text });
    await page.getByRole('checkbox', { name: 'Select Ada Lovelace' }).check();
    await page.getByRole('checkbox', { name: 'Select Bob Brown' }).check();
    await expect.poll(() => bulk.innerText()).toContain('2 selected');
    await bulk.getByLabel('Team tag').selectOption({ label: 'Gifting' });
    await bulk.getByRole('button', { name: 'Add tag to selected' }).click();
    await expect.poll(() => said('Tag Gifting added to 2 applications.').count()).toBe(1);
    await expect.poll(() => tagsOf(page, 'Ada Lovelace')).toEqual(['Gifting']);
    expect(await tagsOf(page, 'Bob Brown')).toEqual(['Gifting']);
    expect(await page.getByRole('list', { name: 'Tags of Zoe Adams' }).count()).toBe(0);
    expect(await violations(page, 'bulk bar with a selection')).toEqual([]);

    // The selection stays for the next tag; then one removed from all of it.
    await bulk.getByLabel('Team tag').selectOption({ label: 'UGC' });
    await bulk.getByRole('button', { name: 'Add tag to selected' }).click();
    await expect.poll(() => tagsOf(page, 'Ada Lovelace')).toEqual(['Gifting', 'UGC']);
    await bulk.getByLabel('Team tag').selectOption({ label: 'Gifting' });
    await bulk.getByRole('button', { name: 'Remove tag from selected' }).click();
    await expect.poll(() => said('Tag Gifting removed from 2 applications.').count()).toBe(1);
    await expect.poll(() => tagsOf(page, 'Bob Brown')).toEqual(['UGC']);
    expect(await tagsOf(page, 'Ada Lovelace')).toEqual(['UGC']);
    // What the server keeps: the list read again from the address alone.
    await page.reload();
    await expect.poll(() => tagsOf(page, 'Ada Lovelace')).toEqual(['UGC']);
    expect(await violations(page, 'list with tags')).toEqual([]);

    // The list sorted, answer filters open: the screenshot of docs/inbox.md.
    await page.getByRole('columnheader', { name: 'Total followers' }).getByRole('button').click();
    await page.getByText('Answers', { exact: true }).click();
    await page
      .getByRole('group', { name: /familiar/ })
      .getByRole('checkbox', { name: 'Super-Fan' })
      .check();
    await expect.poll(() => names(page)).toEqual(['Bob Brown', 'Zoe Adams']);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'inbox-list-sorted-filtered.png'), fullPage: true });

    // An application opened from that view, with its previous and next: the triage screenshot.
    await page.getByRole('link', { name: 'Bob Brown' }).click();
    const nav = page.getByRole('navigation', { name: 'Applications in this view' });
    await expect.poll(() => nav.getByRole('link', { name: 'Next →' }).count()).toBe(1);
    await page.screenshot({ path: join(SCREENSHOTS, 'inbox-detail-triage.png'), fullPage: true });
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });

  it('shows a viewer the tags but no selection, bulk bar or tag change', async () => {
    const page = await openInbox(e2e);
    await signIn(page, INBOX_VIEWER);
    await expect.poll(() => names(page)).toHaveLength(3);
    expect(await tagsOf(page, 'Ada Lovelace')).toEqual(['UGC']);
    expect(await page.getByRole('checkbox', { name: /^Select/ }).count()).toBe(0);
    expect(await page.getByRole('group', { name: 'Selected applications' }).count()).toBe(0);
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await page.getByRole('checkbox', { name: /^Select/ }).count()).toBe(0);
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });

  it('turns the list into cards on a phone: nothing scrolls sideways from 320 to 767 px; sort, select, decide and open from there', async () => {
    const page = await openInbox(e2e, '/admin', { width: 375, height: 812 });
    await signIn(page);
    await expect.poll(() => names(page)).toHaveLength(3);
    await createTag(page, 'Phone');
    await page.reload();
    await expect.poll(() => names(page)).toHaveLength(3);
    const card = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Ada Lovelace' }) });
    // Cards: the headers hidden, each row a box of its own that says what each figure is.
    expect(await page.getByRole('columnheader').count()).toBe(0);
    expect(await card.evaluate((row) => getComputedStyle(row).display)).toBe('grid');
    // Each figure led by its column's name, on screen and for screen readers.
    expect(await card.getByRole('cell', { name: 'Total followers: 250,000', exact: true }).count()).toBe(1);
    expect(await card.locator('img.flag').count()).toBe(1);
    for (const width of [320, 375, 480, 767]) {
      await page.setViewportSize({ width, height: 812 });
      await expect.poll(() => scrollsSideways(page), { message: `sideways at ${width}px` }).toBe(false);
    }
    // From 768 px, the table again.
    await page.setViewportSize({ width: 768, height: 812 });
    await expect.poll(() => page.getByRole('columnheader', { name: 'Total followers' }).count()).toBe(1);
    await page.setViewportSize({ width: 375, height: 812 });
    await expect.poll(() => page.getByRole('columnheader').count()).toBe(0);

    // The filters, folded away behind "Filters" (search and sort stay in sight).
    expect(await page.getByLabel('Country').isVisible()).toBe(false);
    expect(await page.getByRole('searchbox', { name: 'Search' }).isVisible()).toBe(true);
    const toggle = page.getByRole('button', { name: 'Filters' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.getByLabel('Country').selectOption({ label: 'France' });
    await expect.poll(() => names(page)).toEqual(['Bob Brown']);
    expect(await page.getByRole('button', { name: 'Filters (1 set)' }).count()).toBe(1);
    await page.getByLabel('Country').selectOption({ label: 'Any country' });
    await expect.poll(() => names(page)).toHaveLength(3);
    expect(await scrollsSideways(page)).toBe(false);
    await toggle.click();

    // The sort, chosen without the headers.
    await page.getByLabel('Sort by').selectOption({ label: 'Name, A to Z' });
    await expect.poll(() => names(page)).toEqual(['Ada Lovelace', 'Bob Brown', 'Zoe Adams']);
    expect(new URL(page.url()).search).toBe('?sort=name&dir=asc');
    await page.getByLabel('Sort by').selectOption({ label: 'Total followers, most first' });
    await expect.poll(() => names(page)).toEqual(['Ada Lovelace', 'Bob Brown', 'Zoe Adams']);
    expect(new URL(page.url()).search).toBe('?sort=followers&dir=desc');

    // A bulk decision from the cards.
    await page.getByRole('checkbox', { name: 'Select Ada Lovelace' }).check();
    await page.getByRole('checkbox', { name: 'Select Zoe Adams' }).check();
    await page.getByLabel('New status').selectOption('accepted');
    await page.getByRole('button', { name: 'Set status of selected' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: '2 applications set to Accepted.' }).count()).toBe(1);
    await expect
      .poll(() =>
        card
          .getByRole('cell')
          .filter({ hasText: /Accepted$/ })
          .count(),
      )
      .toBe(1);
    expect(await page.getByRole('checkbox', { name: 'Select Ada Lovelace' }).isChecked()).toBe(false);
    // Bulk tagging from the cards; each card shows its tags.
    await page.getByRole('checkbox', { name: 'Select Ada Lovelace' }).check();
    await page.getByLabel('Team tag').selectOption({ label: 'Phone' });
    await page.getByRole('button', { name: 'Add tag to selected' }).click();
    await expect.poll(() => tagsOf(page, 'Ada Lovelace')).toContain('Phone');
    await page.getByRole('checkbox', { name: 'Select Ada Lovelace' }).uncheck();
    // "Select all" without the header's box.
    await page.getByRole('checkbox', { name: 'Select all shown applications' }).check();
    await expect.poll(() => page.getByRole('group', { name: 'Selected applications' }).innerText()).toContain('3 selected');
    await page.getByRole('checkbox', { name: 'Select all shown applications' }).uncheck();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await violations(page, 'phone cards')).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'inbox-phone-cards.png'), fullPage: true });

    // Opening an application from its card, and back.
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Ada Lovelace');
    expect(await scrollsSideways(page)).toBe(false);
    await page.getByRole('link', { name: '← Back to the applications' }).click();
    await expect.poll(() => names(page)).toHaveLength(3);
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });
});
