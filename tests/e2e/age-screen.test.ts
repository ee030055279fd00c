import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MESSAGES } from '../../src/shared/messages';
import { takeOutput } from '../support/console-errors';
import { rawDefaultConfig, validPayload } from '../factories/application';
import { pick } from './flows';
import { WCAG_AND_BEST_PRACTICES, createInboxUser, openInbox, signIn, violations } from './inbox-support';
import { useServerAndBrowser, writeConfig } from './support';
import { putApplication } from '../support/bot-check';

// The neutral age screen in Chromium (requirements §20, docs/privacy.md): an answer under the
// minimum ends the wizard on the page's message, holds on the browser, is counted in the funnel
// and nothing about the person reaches anything the product writes.

const ENDED = 'Thanks for stopping by: this campaign is not one we can take you into.';
const e2e = useServerAndBrowser(() => {
  const raw = rawDefaultConfig();
  raw.ageScreen = { minimumAge: 13, endedHtml: `<p>${ENDED}</p>` };
  // The server's own log at info: every request it logs is searched below.
  return { WIZARD_CONFIG: writeConfig(raw, 'age-screen.json'), LOG_LEVEL: 'info' };
});

/** From the welcome step to the age screen. */
async function toAgeScreen(page: Page) {
  await page.goto(e2e.server.url);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.locator('.age-screen').waitFor();
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('the age screen', () => {
  it('is neutral, ends the wizard under the minimum, holds for 24 hours, and keeps nothing of the person', async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT') sent.push(request.url());
    });
    await toAgeScreen(page);

    // Neutral (COPPA FAQ G): no year pre-filled, no list of years, no box to tick, no age said.
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(DEFAULT_MESSAGES.ageHeading);
    expect(await page.getByLabel('Year', { exact: true }).inputValue()).toBe('');
    expect(await page.getByRole('combobox', { name: 'Month' }).inputValue()).toBe('');
    expect(await page.locator('.age-screen input[type="checkbox"], .age-screen select').count()).toBe(0);
    expect(await page.locator('.content').innerText()).not.toMatch(/\d{2}/);
    expect(await violations(page, 'the age screen', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.getByText(DEFAULT_MESSAGES.required).count()).toBe(2);
    expect(await page.getByRole('combobox', { name: 'Month' }).evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await violations(page, 'the age screen with errors', WCAG_AND_BEST_PRACTICES)).toEqual([]);

    // Ten years old: the page's own message, and no way on or back.
    const year = String(new Date().getUTCFullYear() - 10);
    await pick(page, 'Month', 'mar', 'March');
    await page.getByLabel('Year', { exact: true }).fill(year);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.getByText(ENDED).isVisible()).toBe(true);
    expect(await page.getByRole('button').count()).toBe(0);
    expect(await page.getByRole('heading', { level: 1 }).evaluate((heading) => heading === document.activeElement)).toBe(true);
    expect(await violations(page, 'the age screen ended', WCAG_AND_BEST_PRACTICES)).toEqual([]);

    // The same browser within 24 hours: a reload, a new tab, ends the same way before any answer.
    for (const again of [page, await context.newPage()]) {
      await toAgeScreen(again);
      await expect.poll(() => again.getByText(ENDED).isVisible()).toBe(true);
      expect(await again.getByLabel('Year', { exact: true }).count()).toBe(0);
    }
    expect(sent).toEqual([]);
    // Nothing of the answer on the browser: the lock holds a verdict and a time.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(stored).not.toContain(year);
    expect(stored).toMatch(/"verdict\\":\\"under\\"/);

    // A hand-made client that sends it anyway, with a name, an address and a phone number: refused, not stored.
    const payload = validPayload();
    payload.personalInfo = {
      ...payload.personalInfo,
      firstName: 'Zelda',
      lastName: 'Quenneville',
      emailAddress: 'zelda.quenneville@example.com',
      phone: { countryCode: '1', subscriber: '2025550199' },
    };
    const response = await putApplication(e2e.server.url, { ...payload, age: { birthMonth: `${year}-03` } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: unknown[] }).errors).toContainEqual({ path: 'age.birthMonth', message: DEFAULT_MESSAGES.ageEnded });

    // Counted once in the funnel (the answer that ended it; not the reload or the new tab), anonymously.
    await createInboxUser(e2e.server);
    const inbox = await openInbox(e2e, '/admin/funnel');
    await signIn(inbox);
    await expect
      .poll(
        async () => {
          await inbox.reload();
          return inbox
            .getByRole('row', { name: /Ended by the age screen/ })
            .innerText({ timeout: 2_000 })
            .catch(() => '');
        },
        { timeout: 15_000 },
      )
      .toMatch(/Ended by the age screen\s+1\b/);
    // The step behind the screen was never reached (the welcome step was, at each visit).
    const report = (await (await inbox.context().request.get(`${e2e.server.url}/api/admin/funnel?pageId=creators`)).json()) as {
      totals: { reached: number[] };
    };
    expect(report.totals.reached[0]).toBeGreaterThan(0);
    expect(report.totals.reached[1]).toBe(0);
    await inbox.close();
    await context.close();

    // Every byte the product wrote: its database files and their journals, uploads, its log.
    expect(e2e.server.rows()).toEqual([]);
    await e2e.server.halt();
    const log = takeOutput().join('\n');
    // The log holds the refused request (so the search below reads what the server said of it).
    expect(log).toContain('/api/syncPage/creators');
    const written = [...filesUnder(dirname(e2e.server.dbFile)).map((file) => readFileSync(file).toString('latin1')), log].join('\n');
    for (const typed of ['Zelda', 'Quenneville', 'zelda.quenneville@example.com', '2025550199']) expect(written).not.toContain(typed);
    await e2e.server.restart();
  });
});
