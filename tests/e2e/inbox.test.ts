import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectConsoleError } from '../support/console-errors';
import { currentStep, fillDefaultApplication } from './flows';
import { INBOX_USER, createInboxUser, openInbox, signIn, signedIn, tabTo, violations } from './inbox-support';
import { failedLoad, useServerAndBrowser } from './support';

// The brand's inbox in Chromium against the real server — a user made with the CLI signs
// in, finds an application sent through the wizard, opens it, shortlists it and exports CSV;
// keyboard only; axe; and hostile answers shown and exported inert.

const HOSTILE = '=HYPERLINK("http://evil.example") <img src=x onerror="window.__xss=1">';
/** Screenshots for people to look at (docs/screenshots/ keeps copies), as the wizard's are. */
const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

const e2e = useServerAndBrowser();
beforeAll(() => createInboxUser(e2e.server));

describe('the brand inbox in Chromium', () => {
  it('signs in, finds the application sent through the wizard, opens it, shortlists it and exports CSV', async () => {
    // One application through the wizard, with markup and a formula in an answer.
    const wizard = await e2e.browser.newPage();
    await wizard.goto(e2e.server.url);
    await fillDefaultApplication(wizard, 'kai@example.com');
    await wizard.getByLabel(/dream campaign/).fill(HOSTILE);
    await wizard.getByRole('button', { name: 'Submit application' }).click();
    await expect.poll(() => currentStep(wizard), { timeout: 10_000 }).toBe('Creator Hub');
    await wizard.close();

    const page = await openInbox(e2e);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to the applications inbox');

    // A wrong password is announced and keeps what was typed.
    await page.getByLabel('Email').fill(INBOX_USER.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The e-mail or the password is not right.');
    expect(await page.getByLabel('Email').inputValue()).toBe(INBOX_USER.email);

    await signIn(page);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Applications');
    await page.getByRole('searchbox', { name: 'Search' }).fill('kai.makes');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Kai Tanaka' }).count()).toBe(1);
    const row = page.getByRole('row').filter({ hasText: 'Kai Tanaka' });
    expect(await row.textContent()).toContain('kai@example.com');
    // The page each application came through, by its title.
    const columns = await page.getByRole('columnheader').allTextContents();
    const pageColumn = columns.indexOf('Page');
    expect(pageColumn).toBeGreaterThan(0);
    expect(await row.getByRole('cell').nth(pageColumn).textContent()).toBe("Crazy Aaron's Creator Application (creators)");
    expect(await row.textContent()).toContain('Instagram: kai.makes (900)');
    expect(await row.textContent()).toContain('Japan');
    expect(page.url()).toBe(`${e2e.server.url}/admin?q=kai.makes`);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'inbox-list.png') });

    await page.getByRole('link', { name: 'Kai Tanaka' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Kai Tanaka');
    const answers = page.locator('dl.answers');
    await expect.poll(() => answers.textContent()).toContain('Describe your dream campaign with us');
    // The hostile answer is text on the page, never markup.
    await expect.poll(() => answers.getByText(HOSTILE, { exact: true }).count()).toBe(1);
    expect(await page.locator('dl.answers img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.getByRole('link', { name: 'Instagram: kai.makes' }).getAttribute('href')).toBe('https://www.instagram.com/kai.makes');

    await page.getByRole('textbox', { name: 'New note' }).fill('Lovely putty videos');
    await page.getByRole('button', { name: 'Add note' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Notes' }).getByRole('status').textContent()).toBe('Note added.');
    await page.getByLabel('Status').selectOption('shortlisted');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved.' }).count()).toBe(1);
    const history = page.getByRole('table', { name: 'Changes to this application' });
    await expect.poll(() => history.textContent()).toContain('Status changed: New → Shortlisted');
    expect(await history.textContent()).toContain(INBOX_USER.email);
    await page.screenshot({ path: join(SCREENSHOTS, 'inbox-detail.png'), fullPage: true });

    await page.getByRole('link', { name: '← Back to the applications' }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Kai Tanaka' }).textContent()).toContain('Shortlisted');
    expect(e2e.server.rows()).toHaveLength(1);

    // Status tabs with live counts: the decision moved Kai from New to Shortlisted.
    await expect.poll(() => page.getByRole('tab', { name: /^Shortlisted/ }).textContent()).toBe('Shortlisted 1');
    expect(await page.getByRole('tab', { name: /^New/ }).textContent()).toBe('New 0');
    await page.getByRole('tab', { name: /^New/ }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Kai Tanaka' }).count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('status')).toBe('new');
    await page.getByRole('tab', { name: /^All/ }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Kai Tanaka' }).count()).toBe(1);
    expect(await page.getByText('1 application in this view').count()).toBe(1);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^applications-\d{4}-\d{2}-\d{2}\.csv$/);
    // Read through Playwright: the browser the test files share is not this process's, nor its files.
    const bytes = await buffer(await download.createReadStream());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...records] = parse(bytes.toString('utf8'), { bom: true }) as string[][];
    expect(records).toHaveLength(1);
    const record = Object.fromEntries(header!.map((name, index) => [name, records[0]![index]]));
    expect(record).toMatchObject({
      Status: 'shortlisted',
      Tags: '',
      'First name': 'Kai',
      'Last name': 'Tanaka',
      Email: 'kai@example.com',
      'Instagram handle': 'kai.makes',
      'Instagram followers': '900',
      'Describe your dream campaign with us': `'${HOSTILE}`,
    });
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });

  it('keeps a deep link through sign-in, shows the funnel chart, and signs out', async () => {
    const id = e2e.server.rows()[0]!.id;
    const page = await openInbox(e2e, `/admin/applications/${id}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to the applications inbox');
    await signIn(page);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Kai Tanaka');

    // One-click decisions: decline, then shortlist again; the note stays.
    await page.getByRole('button', { name: 'Decline', exact: true }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Kai Tanaka: declined.' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Shortlist', exact: true }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Changes to this application' }).textContent()).toContain('Declined → Shortlisted');
    expect(await page.getByRole('region', { name: 'Notes' }).getByRole('article').textContent()).toContain('Lovely putty videos');
    expect(await page.getByRole('button', { name: 'Shortlist', exact: true }).count()).toBe(0);

    await page.getByRole('link', { name: 'Funnel' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Funnel');
    const totals = page.getByRole('table', { name: 'Totals and step-to-step conversion' });
    // The wizard's beacons: the applicant above reached Welcome, the two form steps and Creator Hub, and submitted.
    await expect.poll(() => totals.getByRole('row', { name: /^Welcome/ }).textContent(), { timeout: 10_000 }).toMatch(/^Welcome1/);
    expect(
      await totals
        .getByRole('row', { name: /^Submitted/ })
        .getByRole('cell')
        .first()
        .textContent(),
    ).toBe('1');
    await expect.poll(() => page.locator('.recharts-surface').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'inbox-funnel.png'), fullPage: true });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to the applications inbox');
    // Signed out, the list is refused (401, which Chromium logs).
    expectConsoleError(failedLoad(401, '/api/admin/applications'));
    const after = await page.evaluate(async () => (await fetch('/api/admin/applications')).status);
    expect(after).toBe(401);
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });

  it('works with the keyboard alone: sign in, open an application, change its status, change a selection', async () => {
    const page = await openInbox(e2e);
    await tabTo(page, page.getByLabel('Email'));
    await page.keyboard.type(INBOX_USER.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(INBOX_USER.password);
    await page.keyboard.press('Enter');
    await signedIn(page);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Applications');
    await tabTo(page, page.getByRole('link', { name: 'Kai Tanaka' }));
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Kai Tanaka');
    await tabTo(page, page.getByLabel('Status'));
    await page.keyboard.press('ArrowDown'); // shortlisted → accepted
    await tabTo(page, page.getByRole('button', { name: 'Save' }));
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('table', { name: 'Changes to this application' }).textContent()).toContain('Shortlisted → Accepted');

    // Back on the list: select it and change the selection's status at once (bulk).
    await page.getByRole('link', { name: '← Back to the applications' }).click();
    await tabTo(page, page.getByRole('checkbox', { name: 'Select Kai Tanaka' }));
    await page.keyboard.press('Space');
    await tabTo(page, page.getByLabel('New status'));
    await page.keyboard.press('ArrowDown'); // shortlisted → accepted
    await page.keyboard.press('ArrowDown'); // accepted → declined
    await tabTo(page, page.getByRole('button', { name: 'Set status of selected' }));
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('status').filter({ hasText: '1 application set to Declined.' }).count()).toBe(1);
    expect(await page.getByRole('row').filter({ hasText: 'Kai Tanaka' }).textContent()).toContain('Declined');
    expect(await page.getByRole('checkbox', { name: 'Select Kai Tanaka' }).isChecked()).toBe(false);
    await page.close();
  });

  it('has no axe violations on the sign-in form, the list, the detail and the funnel', async () => {
    const page = await openInbox(e2e);
    const found: string[] = [];
    await page.getByRole('heading', { name: 'Sign in to the applications inbox' }).waitFor();
    found.push(...(await violations(page, 'sign-in')));
    await signIn(page);
    await page.getByRole('link', { name: 'Kai Tanaka' }).waitFor();
    found.push(...(await violations(page, 'list')));
    await page.getByRole('link', { name: 'Kai Tanaka' }).click();
    await page.getByRole('heading', { name: 'Kai Tanaka' }).waitFor();
    found.push(...(await violations(page, 'detail')));
    await page.getByRole('button', { name: 'Erase application' }).click();
    found.push(...(await violations(page, 'erase confirmation')));
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('link', { name: 'Funnel' }).click();
    await page.getByRole('table', { name: 'Totals and step-to-step conversion' }).waitFor();
    found.push(...(await violations(page, 'funnel')));
    expect(found).toEqual([]);
    await page.close();
  });

  it('erases an application from the detail view after a second confirmation', async () => {
    const page = await openInbox(e2e);
    await signIn(page);
    await page.getByRole('link', { name: 'Kai Tanaka' }).click();
    await page.getByRole('button', { name: 'Erase application' }).click();
    await page.getByRole('button', { name: 'Erase for good' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Applications');
    await expect.poll(() => page.getByText('No applications match these filters.').count()).toBe(1);
    expect(e2e.server.rows()).toEqual([]);
    await page.close();
  });

  it("is a build of its own: the applicant's files hold none of the inbox", () => {
    const assets = join('dist', 'assets');
    const applicant = readdirSync(assets)
      .filter((name) => name.endsWith('.js'))
      .map((name) => readFileSync(join(assets, name), 'utf8'));
    expect(applicant.length).toBeGreaterThan(0);
    for (const marker of ['Sign in to the applications inbox', 'recharts', '/api/admin/']) {
      expect(
        applicant.filter((source) => source.includes(marker)),
        marker,
      ).toEqual([]);
    }
    const inbox = readdirSync(join('dist', 'admin', 'assets')).map((name) => readFileSync(join('dist', 'admin', 'assets', name), 'utf8'));
    expect(inbox.some((source) => source.includes('Sign in to the applications inbox'))).toBe(true);
  });
});
