import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { applicantPayload } from '../factories/application';
import { createInboxUser, openInbox, signIn, submitApplication, violations } from './inbox-support';
import { useServerAndBrowser } from './support';

// What applicants typed cannot move the inbox's layout. A name of 200 characters without
// a space, and a right-to-left override (U+202E) in a name and an e-mail, at 1280 px and on a
// phone (375 px): the e-mail and status of every row stay reachable, the text is isolated and its
// full value stays available. And a row whose stored answers cannot be read is shown calmly.

const RLO = '\u202e';
const LONG = {
  firstName: 'Wolfeschlegelsteinhausenbergerdorff'.repeat(6).slice(0, 200),
  lastName: 'Longname',
  email: `${'l'.repeat(64)}@example.com`,
  // Instagram's longest user name (30 characters, its published rule).
  instagram: `h${'a'.repeat(29)}`,
  fields: { howFamiliar: 'Super-Fan', dreamCampaign: 'x'.repeat(2000) },
};
const RTL = { firstName: `Rana${RLO}reversed`, lastName: 'Haddad', email: `rana${RLO}x@example.com`, country: 'JO', tiktok: `rana${RLO}makes` };
/** Screenshots for people to look at, beside the other inbox screenshots. */
const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
const fullName = (applicant: { firstName: string; lastName: string }) => `${applicant.firstName} ${applicant.lastName}`;

const e2e = useServerAndBrowser();
beforeAll(async () => {
  await createInboxUser(e2e.server);
  await submitApplication(e2e.server, applicantPayload(LONG));
  // The server now refuses an override in an e-mail or a handle (a look-alike of another
  // applicant's); rows stored before it did still hold them, so the row is stored with plain ones
  // and given the override behind the server's back, as such a row would be.
  const id = await submitApplication(e2e.server, applicantPayload({ ...RTL, email: 'rana.x@example.com', tiktok: 'rana.makes' }));
  const db = new Database(e2e.server.dbFile);
  try {
    db.prepare('update applications set payload = ? where id = ?').run(JSON.stringify(applicantPayload(RTL)), id);
  } finally {
    db.close();
  }
});

/**
 * Whether `element` can be reached: it lies inside the viewport, or inside a container that
 * scrolls sideways (overflow-x auto or scroll, and more content than room).
 */
function reachable(element: Locator): Promise<boolean> {
  return element.evaluate((node) => {
    const box = node.getBoundingClientRect();
    if (box.left >= 0 && box.right <= window.innerWidth) return true;
    for (let parent = node.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
      const overflow = getComputedStyle(parent).overflowX;
      if ((overflow === 'auto' || overflow === 'scroll') && parent.scrollWidth > parent.clientWidth) return true;
    }
    return false;
  });
}

/** Whether the page itself scrolls sideways (it should not: only the list's own container may). */
function pageScrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

/**
 * Whether `word`, inside `element`, is drawn left to right: its first letter left of its last one.
 * An override (U+202E) that leaks out of the text it was typed in draws what follows reversed.
 */
function readsLeftToRight(element: Locator, word: string): Promise<boolean> {
  return element.evaluate((root, target) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent!.indexOf(target);
      if (at < 0) continue;
      const letter = (offset: number) => {
        const range = document.createRange();
        range.setStart(node, offset);
        range.setEnd(node, offset + 1);
        return range.getBoundingClientRect();
      };
      return letter(at).left < letter(at + target.length - 1).left;
    }
    throw new Error(`"${target}" is not in the element`);
  }, word);
}

/** The list's row of an applicant, found by the link on its name (its accessible name is the full name). */
const rowOf = (page: Page, applicant: { firstName: string; lastName: string }) =>
  page.getByRole('row').filter({ has: page.getByRole('link', { name: fullName(applicant), exact: true }) });

async function expectListUsable(page: Page, width: number) {
  await page.setViewportSize({ width, height: 900 });
  for (const applicant of [LONG, RTL]) {
    const row = rowOf(page, applicant);
    const name = row.getByRole('link', { name: fullName(applicant), exact: true });
    const where = `${applicant.lastName} at ${width}px`;
    await expect.poll(() => reachable(row.getByRole('cell').filter({ hasText: applicant.email.slice(0, 20) })), { message: where }).toBe(true);
    await expect.poll(() => reachable(row.getByRole('cell').filter({ hasText: /^New$/ })), { message: where }).toBe(true);
    expect(await name.evaluate((link) => link.matches('bdi, [dir="auto"]') || link.querySelector('bdi, [dir="auto"]') !== null), where).toBe(true);
    // The full name, however it is cut on screen, in the tooltip (isolation marks aside).
    expect((await name.getAttribute('title'))?.replace(/[\u2066-\u2069]/g, ''), where).toBe(fullName(applicant));
  }
  expect(await pageScrollsSideways(page), `the page scrolls sideways at ${width}px`).toBe(false);
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `inbox-user-text-list-${width}.png`), fullPage: true });
  // The override stays inside the first name: the last name and the cells after it read as typed.
  const rtlRow = rowOf(page, RTL);
  expect(await readsLeftToRight(rtlRow.getByRole('link'), RTL.lastName)).toBe(true);
  expect(await readsLeftToRight(rtlRow, '340')).toBe(true);
}

describe('applicant text in the inbox', () => {
  it('keeps every row reachable and every name isolated and whole, at 1280 px and at 375 px', async () => {
    const page = await openInbox(e2e);
    await signIn(page);
    await rowOf(page, LONG).waitFor();
    await expectListUsable(page, 1280);
    const found = await violations(page, 'list at 1280px');
    await expectListUsable(page, 375);
    found.push(...(await violations(page, 'list at 375px')));
    expect(found).toEqual([]);
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });

  it('shows a long or overriding name whole and in order in the detail, on a phone too', async () => {
    const page = await openInbox(e2e);
    await signIn(page);
    const found: string[] = [];
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      for (const applicant of [LONG, RTL]) {
        await page.getByRole('link', { name: fullName(applicant), exact: true }).click();
        // Waits as long as the detail takes to load (a loaded machine may need more than a second).
        const heading = page.getByRole('heading', { level: 1, name: fullName(applicant), exact: true });
        await heading.waitFor();
        const where = `${applicant.lastName} at ${width}px`;
        expect(await heading.evaluate((h1) => h1.querySelector('bdi, [dir="auto"]') !== null), where).toBe(true);
        expect(await readsLeftToRight(heading, applicant.lastName), where).toBe(true);
        // After the e-mail, the rest of the line reads as written.
        expect(await readsLeftToRight(page.locator('.meta'), 'received'), where).toBe(true);
        expect(await readsLeftToRight(page.getByRole('list', { name: 'Platforms' }), 'followers'), where).toBe(true);
        expect(await reachable(page.getByLabel('Status')), where).toBe(true);
        expect(await reachable(page.getByRole('button', { name: 'Save' })), where).toBe(true);
        expect(await pageScrollsSideways(page), `the page scrolls sideways: ${where}`).toBe(false);
        found.push(...(await violations(page, `detail of ${where}`)));
        if (applicant === LONG) await page.screenshot({ path: join(SCREENSHOTS, `inbox-user-text-detail-${width}.png`), fullPage: true });
        await page.getByRole('link', { name: '← Back to the applications' }).click();
        await rowOf(page, applicant).waitFor();
      }
    }
    expect(found).toEqual([]);
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });
});

describe('an application whose stored answers cannot be read', () => {
  type Applicant = Parameters<typeof applicantPayload>[0];
  const CORRUPT: Applicant = { firstName: 'Una', lastName: 'Unread', email: 'una@example.com', country: 'AT', instagram: 'una.makes' };
  const NOTICE = /The answers stored for this application could not be read/;

  /** Checks the list's badge, the detail's notice and that a decision still saves; axe on both views. */
  async function expectShownCalmly(page: Page, applicant: Applicant) {
    const row = rowOf(page, applicant);
    await row.getByText('Unreadable answers', { exact: true }).waitFor();
    expect(await row.textContent()).toContain(applicant.email);
    const found = await violations(page, 'list');
    await row.getByRole('link', { name: fullName(applicant), exact: true }).click();
    await page.getByText(NOTICE).waitFor();
    expect(await page.locator('.meta').textContent()).toContain(applicant.email);
    found.push(...(await violations(page, 'detail')));
    await page.getByRole('button', { name: 'Shortlist', exact: true }).click();
    await page.getByRole('status').filter({ hasText: ': shortlisted.' }).waitFor();
    expect(found).toEqual([]);
  }

  it('is marked in the list and explained in the detail when its stored payload is not JSON', async () => {
    const id = await submitApplication(e2e.server, applicantPayload(CORRUPT));
    const db = new Database(e2e.server.dbFile);
    try {
      expect(db.prepare("update applications set payload = 'not json' where id = ?").run(id).changes).toBe(1);
    } finally {
      db.close();
    }
    const page = await openInbox(e2e);
    await signIn(page);
    await expectShownCalmly(page, CORRUPT);
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });
});
