import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { applicantPayload } from '../factories/application';
import { INBOX_VIEWER, VIEW_APPLICANTS, announcement, createInboxUser, openInbox, signIn, submitApplication, violations } from './inbox-support';
import { useServerAndBrowser } from './support';

// An outside tester's findings on the inbox as a daily tool (decision 020): one live region for
// triage, the end of a view, the shortcuts of the view and role, the summary following its address
// and naming its filters, Back undoing a view change, the creator's applications side by side, dates
// and followers in the browser's locale, the funnel's colours and wrong periods, saved views' deletion,
// tag buttons' size.

const e2e = useServerAndBrowser();
let adaLatest = '';
beforeAll(async () => {
  await createInboxUser(e2e.server);
  await createInboxUser(e2e.server, INBOX_VIEWER, 'viewer');
  for (const applicant of VIEW_APPLICANTS) await submitApplication(e2e.server, applicantPayload(applicant));
  // Ada applies again, with other answers: her earlier application is compared with this one.
  adaLatest = await submitApplication(
    e2e.server,
    applicantPayload({
      ...VIEW_APPLICANTS[1]!,
      followers: '2293567',
      fields: { howFamiliar: 'Super-Fan', whichProducts: 'Thinking Putty', dreamCampaign: 'Short films' },
    }),
  );
});

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).innerText();
const shortcutKeys = async (page: Page) => {
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await help.waitFor();
  const keys = await help.locator('kbd').allInnerTexts();
  await page.keyboard.press('Escape');
  await help.waitFor({ state: 'detached' });
  return keys;
};

/** Creates a team tag through the API as the signed-in page; returns its id. */
function createTag(page: Page, name: string): Promise<string> {
  return page.evaluate(async (tagName) => {
    const token = decodeURIComponent(/XSRF-TOKEN=([^;]+)/.exec(document.cookie)![1]!);
    const response = await fetch('/api/admin/tags', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-xsrf-token': token },
      body: JSON.stringify({ name: tagName }),
    });
    return ((await response.json()) as { id: string }).id;
  }, name);
}

/** WCAG's contrast ratio of a CSS colour on white. */
function contrastOnWhite(page: Page, selector: string): Promise<number[]> {
  return page.evaluate((css) => {
    const luminance = (rgb: number[]) => {
      const [r, g, b] = rgb.map((channel) => {
        const c = channel / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    return [...document.querySelectorAll(css)].map((element) => {
      const style = getComputedStyle(element);
      const colour = element instanceof SVGElement ? style.fill : style.color;
      const rgb = (colour.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
      return 1.05 / (luminance(rgb) + 0.05);
    });
  }, selector);
}

describe('the inbox as a daily tool (decision 020)', () => {
  it('says each triage outcome in one live region that outlives the pages, and the end of the view', async () => {
    const page = await openInbox(e2e, '/admin?sort=name&dir=asc&country=GB');
    await signIn(page);
    await page.getByRole('link', { name: 'Ada Lovelace' }).first().click();
    await expect.poll(() => heading(page)).toBe('Ada Lovelace');
    const region = await page.getByTestId('announcer').elementHandle();
    const nav = page.getByRole('navigation', { name: 'Applications in this view' });
    await nav.getByRole('link', { name: 'Next →' }).waitFor();
    const first = page.url();
    await page.keyboard.press('s');
    await expect.poll(() => page.url()).not.toBe(first);
    await expect.poll(() => announcement(page)).toBe('Ada Lovelace: shortlisted. Showing the next application.');
    // The same region, never re-created with its message inside.
    expect(await region!.evaluate((element) => element.isConnected)).toBe(true);
    await expect.poll(() => nav.getByText('Next →').count()).toBe(1);
    expect(await nav.getByRole('link', { name: 'Next →' }).count()).toBe(0);
    // The decision moved on from is offered to be undone, on the page it moved to.
    await page.getByRole('button', { name: 'Undo' }).waitFor();
    // j at the end of the view, then a decision there: both say so.
    await page.keyboard.press('j');
    await expect.poll(() => announcement(page)).toBe('End of this view.');
    await page.keyboard.press('a');
    await expect.poll(() => announcement(page)).toBe('Ada Lovelace: accepted. End of this view.');
    expect(await page.locator('.decision-said').innerText()).toBe('Ada Lovelace: accepted. End of this view. Undo');
    // z undoes it: the status it had is back (and a decision e-mail not yet sent is cancelled by the server).
    await page.keyboard.press('z');
    await expect.poll(() => announcement(page)).toMatch(/^Undone: Ada Lovelace is \w+ again; a decision e-mail not yet sent is cancelled\.$/);
    await expect.poll(() => page.locator('.status-accepted').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Undo' }).count()).toBe(0);
    await page.keyboard.press('z');
    await expect.poll(() => announcement(page)).toBe('No decision to undo.');
    // Only the keys that work here are listed: in an application, an editor's; on the list, search and help.
    expect(await shortcutKeys(page)).toEqual(['j', 'k', 's', 'a', 'd', 'z', '?']);
    await page.getByRole('link', { name: '← Back to the applications' }).click();
    await expect.poll(() => heading(page)).toBe('Applications');
    expect(await region!.evaluate((element) => element.isConnected)).toBe(true);
    expect(await shortcutKeys(page)).toEqual(['/', '?']);
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });

  it('tells a viewer that viewers cannot change status, and lists only the keys that work for them', async () => {
    const page = await openInbox(e2e, `/admin/applications/${adaLatest}`);
    await signIn(page, INBOX_VIEWER);
    await expect.poll(() => heading(page)).toBe('Ada Lovelace');
    await page.keyboard.press('s');
    await expect.poll(() => announcement(page)).toBe('Viewers cannot change status.');
    expect(await shortcutKeys(page)).toEqual(['j', 'k', '?']);
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });

  it('shows the summary its address names, its filters by their labels, and Back undoes each change of the list', async () => {
    const page = await openInbox(e2e);
    await signIn(page);
    const tag = await createTag(page, 'Gifting');
    await page.goto(`${e2e.server.url}/admin?tag=${tag}&answer=${encodeURIComponent('whichProducts:Thinking Putty')}`);
    await page.getByRole('link', { name: 'Summary of this view' }).click();
    await expect.poll(() => heading(page)).toBe('Summary');
    const filtersLine = page.locator('.summary-filters');
    await expect.poll(() => filtersLine.innerText()).toContain('Tag: Gifting');
    expect(await filtersLine.innerText()).toContain('Which products are you interested in?: Thinking Putty');
    expect(await filtersLine.innerText()).not.toContain(tag);
    await expect.poll(() => page.getByText('No applications match these filters.').count()).toBe(1);
    // The top bar's "Summary": no filters in the address, none shown.
    await page.getByRole('navigation', { name: 'Inbox' }).getByRole('link', { name: 'Summary' }).click();
    await expect.poll(() => page.getByText('4 applications match.').count()).toBe(1);
    expect(await filtersLine.innerText()).toContain('every application');
    expect(new URL(page.url()).search).toBe('');

    // Back undoes the last change of the list's view: a tab, then a filter.
    await page.getByRole('navigation', { name: 'Inbox' }).getByRole('link', { name: 'Applications' }).click();
    await expect.poll(() => page.locator('tbody tr .applicant-name').count()).toBe(4);
    await page.locator('select[name="country"]').selectOption({ label: 'France' });
    await expect.poll(() => new URL(page.url()).searchParams.get('country')).toBe('FR');
    await page.getByRole('tab', { name: /^Shortlisted/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('shortlisted');
    await page.goBack();
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe(null);
    expect(new URL(page.url()).searchParams.get('country')).toBe('FR');
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText()).toMatch(/^All/);
    await page.goBack();
    await expect.poll(() => new URL(page.url()).searchParams.get('country')).toBe(null);
    expect(await page.locator('select[name="country"]').inputValue()).toBe('');
    await expect.poll(() => page.locator('tbody tr .applicant-name').count()).toBe(4);
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });

  it('compares a creator’s earlier applications with this one, dates and followers in the browser’s locale', async () => {
    const page = await openInbox(e2e, `/admin/applications/${adaLatest}`, { width: 1280, height: 900 }, 'de-DE');
    await signIn(page);
    await expect.poll(() => heading(page)).toBe('Ada Lovelace');
    const cards = page.locator('.compare-card');
    await expect.poll(() => cards.count()).toBe(2);
    const link = cards.nth(1).getByRole('link');
    // Named by its page's title, date and status; not the page's id (the titles arrive with the pages' list).
    await expect
      .poll(() => link.innerText())
      .toMatch(/^Crazy Aaron's Creator Application, \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}, (New|Shortlisted|Accepted|Declined)$/);
    await expect.poll(() => cards.nth(1).locator('dl').getAttribute('aria-busy')).toBe('false');
    expect(await cards.nth(0).innerText()).toContain('2.293.567');
    expect(await cards.nth(1).innerText()).toContain('250.000');
    expect(await cards.nth(1).innerText()).toMatch(/Unfamiliar\s*changed since/);
    // Dates in German, followers grouped in the answers.
    expect(await page.locator('.meta time').first().innerText()).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
    // When the page's retention erases it: 24 months after it arrived (docs/privacy.md).
    expect(await page.locator('p.meta').first().innerText()).toMatch(/kept until \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} \(the page's retention\)$/);
    expect(await page.locator('.answers').innerText()).toContain('2.293.567');
    expect(await violations(page, 'detail with an earlier application')).toEqual([]);
    // The tag's × is a target of 24 × 24 px at least (WCAG 2.5.8).
    await page.getByLabel('Add a tag').fill('UGC');
    await page.getByRole('button', { name: 'Add tag' }).click();
    const remove = page.getByRole('button', { name: 'Remove tag UGC' });
    const box = (await remove.boundingBox())!;
    expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(24);
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });

  it('draws the funnel’s words at 4.5:1, and shows only the error for a period that ends before it starts', async () => {
    const page = await openInbox(e2e, '/admin/funnel');
    await signIn(page);
    const table = page.getByRole('table', { name: 'Totals and step-to-step conversion' });
    await table.waitFor();
    await expect.poll(() => page.locator('.chart .recharts-legend-item-text').count()).toBe(2);
    const ratios = [
      ...(await contrastOnWhite(page, '.chart .recharts-legend-item-text, .chart .chart-legend-text')),
      ...(await contrastOnWhite(page, '.chart text')),
    ];
    expect(ratios.length).toBeGreaterThan(2);
    expect(ratios.filter((ratio) => ratio < 4.5)).toEqual([]);
    const to = await page.getByLabel('To', { exact: true }).inputValue();
    const later = new Date(Date.parse(to) + 2 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('From', { exact: true }).fill(later);
    await page.getByRole('alert').filter({ hasText: 'The period ends before it starts.' }).waitFor();
    expect(await table.count()).toBe(0);
    expect(await page.locator('.chart').count()).toBe(0);
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });
});
