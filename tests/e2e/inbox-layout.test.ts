import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { applicantPayload } from '../factories/application';
import { createInboxUser, openInbox, scrollsSideways, signIn, submitApplication, violations } from './inbox-support';
import { useServerAndBrowser } from './support';

// Every view of the inbox from 320 px up (decision 020): nothing scrolls sideways, the summary
// draws its bars with their counts and shares (at 375 px its plot was zero wide and the page
// 996 px wide), the funnel's table and an application with earlier applications fit; axe on each.

const e2e = useServerAndBrowser();
let latest = '';
beforeAll(async () => {
  await createInboxUser(e2e.server);
  const ada = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', country: 'GB', instagram: 'ada.makes', followers: '2293567' };
  await submitApplication(e2e.server, applicantPayload({ ...ada, fields: { howFamiliar: 'Super-Fan', whichProducts: 'Thinking Putty' } }));
  await submitApplication(e2e.server, applicantPayload({ ...ada, fields: { howFamiliar: 'Unfamiliar', whichProducts: 'Slime Charmers, Land of Dough' } }));
  latest = await submitApplication(e2e.server, applicantPayload({ ...ada, fields: { howFamiliar: 'Very familiar', whichProducts: 'Land of Dough' } }));
  const db = new Database(e2e.server.dbFile);
  db.pragma('busy_timeout = 5000');
  const day = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
  const insert = db.prepare("insert into funnel_counts (page_id, day, event, step, count) values ('creators', ?, ?, ?, ?)");
  insert.run(day, 'stepReached', 0, 12);
  insert.run(day, 'stepReached', 1, 9);
  insert.run(day, 'submitted', -1, 7);
  db.close();
});

/** Each drawn bar's width, and whether every count/share label lies inside the window. */
function bars(page: Page) {
  return page.evaluate(() => ({
    widths: [...document.querySelectorAll('.answer-chart .recharts-bar-rectangle path')].map((bar) => bar.getBoundingClientRect().width),
    labels: [...document.querySelectorAll('.answer-chart .recharts-label')].map((label) => {
      const box = label.getBoundingClientRect();
      return { text: label.textContent, inside: box.width > 0 && box.left >= 0 && box.right <= window.innerWidth };
    }),
  }));
}

describe('the inbox on narrow windows', () => {
  for (const width of [320, 375]) {
    it(`fits every view in ${width} px, the summary's bars with their counts and shares`, async () => {
      const page = await openInbox(e2e, '/admin', { width, height: 800 });
      await signIn(page);
      const views: [string, string, () => Promise<unknown>][] = [
        ['list', '/admin', () => page.getByRole('link', { name: 'Ada Lovelace' }).first().waitFor()],
        ['detail', `/admin/applications/${latest}`, () => page.locator('.compare-card dl[aria-busy="false"]').nth(1).waitFor()],
        ['summary', '/admin/summary', () => page.getByText('3 applications match.').waitFor()],
        ['funnel', '/admin/funnel', () => page.getByRole('table', { name: 'Totals and step-to-step conversion' }).waitFor()],
      ];
      for (const [name, path, ready] of views) {
        await page.goto(`${e2e.server.url}${path}`);
        await ready();
        if (name === 'summary') {
          // Every option's bar, zero included, is drawn with a width, and its label is in sight.
          await expect.poll(async () => (await bars(page)).widths.length).toBeGreaterThan(6);
          const drawn = await bars(page);
          expect(drawn.widths.every((barWidth) => barWidth > 0)).toBe(true);
          expect(drawn.labels.length).toBe(drawn.widths.length);
          expect(drawn.labels.filter((label) => !label.inside)).toEqual([]);
          expect(drawn.labels.map((label) => label.text)).toContain('3 · 100%');
        }
        expect(await scrollsSideways(page), `${name} at ${width} px`).toBe(false);
        if (width === 375) expect(await violations(page, `${name} at ${width} px`)).toEqual([]);
      }
      expect(page.jsErrors).toEqual([]);
      await page.close();
    });
  }
});
