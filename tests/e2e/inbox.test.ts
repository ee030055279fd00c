import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { parse } from 'csv-parse/sync';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentStep, fillDefaultApplication } from './flows';
import { useServerAndBrowser } from './support';

// Issue 7: the brand's inbox in Chromium against the real server — a user made with the CLI signs
// in, finds an application sent through the wizard, opens it, shortlists it and exports CSV;
// keyboard only; axe; and hostile answers shown and exported inert.

const USER = { email: 'reviewer@brand.example', password: 'a long review password' };
const HOSTILE = '=HYPERLINK("http://evil.example") <img src=x onerror="window.__xss=1">';
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** Screenshots for people to look at (docs/screenshots/ keeps copies), as the wizard's are. */
const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

const e2e = useServerAndBrowser();
beforeAll(() => {
  const created = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', 'create-user', USER.email], {
    input: `${USER.password}\n`,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: `sqlite:${e2e.server.dbFile}` },
  });
  if (created.status !== 0) throw new Error(`create-user failed: ${created.stderr}`);
});

/** A page that records script errors and console errors (a CSP violation is one). */
async function openInbox(path = '/admin'): Promise<Page & { jsErrors: string[] }> {
  // A context of its own per page: no cookies shared, and axe needs one.
  const context = await e2e.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  page.on('close', () => void context.close().catch(() => undefined));
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().includes('401')) errors.push(message.text());
  });
  await page.goto(`${e2e.server.url}${path}`);
  return Object.assign(page, { jsErrors: errors });
}

async function signIn(page: Page) {
  await page.getByLabel('Email').fill(USER.email);
  await page.getByLabel('Password').fill(USER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function violations(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return results.violations.map((violation) => `${where}: ${violation.id} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

/** Presses Tab until `target` has focus (at most 80 times); fails when it never does. */
async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 80; i++) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

describe('the brand inbox in Chromium (issue 7)', () => {
  it('signs in, finds the application sent through the wizard, opens it, shortlists it and exports CSV', async () => {
    // One application through the wizard, with markup and a formula in an answer.
    const wizard = await e2e.browser.newPage();
    await wizard.goto(e2e.server.url);
    await fillDefaultApplication(wizard, 'kai@example.com');
    await wizard.getByLabel(/dream campaign/).fill(HOSTILE);
    await wizard.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => currentStep(wizard), { timeout: 10_000 }).toBe('Creator Hub');
    await wizard.close();

    const page = await openInbox();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to the applications inbox');

    // A wrong password is announced and keeps what was typed.
    await page.getByLabel('Email').fill(USER.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The e-mail or the password is not right.');
    expect(await page.getByLabel('Email').inputValue()).toBe(USER.email);

    await signIn(page);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Applications');
    await page.getByRole('searchbox', { name: 'Search' }).fill('kai.makes');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Kai Tanaka' }).count()).toBe(1);
    const row = page.getByRole('row').filter({ hasText: 'Kai Tanaka' });
    expect(await row.textContent()).toContain('kai@example.com');
    expect(await row.textContent()).toContain('Instagram: kai.makes (900)');
    expect(await row.textContent()).toContain('Japan');
    expect(page.url()).toBe(`${e2e.server.url}/admin?q=kai.makes`);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'inbox-list.png') });

    await page.getByRole('link', { name: 'Kai Tanaka' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Kai Tanaka');
    const answers = page.locator('dl.answers');
    await expect.poll(() => answers.textContent()).toContain('Describe your dream campaign with us *');
    // The hostile answer is text on the page, never markup.
    await expect.poll(() => answers.getByText(HOSTILE, { exact: true }).count()).toBe(1);
    expect(await page.locator('dl.answers img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.getByRole('link', { name: 'Instagram: kai.makes' }).getAttribute('href')).toBe('https://www.instagram.com/kai.makes');

    await page.getByLabel('Status').selectOption('shortlisted');
    await page.getByLabel('Note').fill('Lovely putty videos');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved.' }).count()).toBe(1);
    const history = page.getByRole('table', { name: 'Changes to this application' });
    await expect.poll(() => history.textContent()).toContain('Status changed: New → Shortlisted');
    expect(await history.textContent()).toContain(USER.email);
    await page.screenshot({ path: join(SCREENSHOTS, 'inbox-detail.png'), fullPage: true });

    await page.getByRole('link', { name: '← Back to the applications' }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Kai Tanaka' }).textContent()).toContain('Shortlisted');
    expect(e2e.server.rows()).toHaveLength(1);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^applications-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...records] = parse(bytes.toString('utf8'), { bom: true }) as string[][];
    expect(records).toHaveLength(1);
    const record = Object.fromEntries(header!.map((name, index) => [name, records[0]![index]]));
    expect(record).toMatchObject({
      Status: 'shortlisted',
      Note: 'Lovely putty videos',
      'First name': 'Kai',
      'Last name': 'Tanaka',
      Email: 'kai@example.com',
      'Instagram handle': 'kai.makes',
      'Instagram followers': '900',
      'Describe your dream campaign with us *': `'${HOSTILE}`,
    });
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });

  it('keeps a deep link through sign-in, shows the funnel chart, and signs out', async () => {
    const id = e2e.server.rows()[0]!.id;
    const page = await openInbox(`/admin/applications/${id}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to the applications inbox');
    await signIn(page);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Kai Tanaka');

    // One-click decisions: decline, then shortlist again; the note stays.
    await page.getByRole('button', { name: 'Decline', exact: true }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Status set to Declined.' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Shortlist', exact: true }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Changes to this application' }).textContent()).toContain('Declined → Shortlisted');
    expect(await page.getByLabel('Note').inputValue()).toBe('Lovely putty videos');
    expect(await page.getByRole('button', { name: 'Shortlist', exact: true }).count()).toBe(0);

    await page.getByRole('link', { name: 'Funnel' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Funnel');
    const totals = page.getByRole('table', { name: 'Totals and step-to-step conversion' });
    // The wizard's beacons: the applicant above reached Welcome, the two form steps and Creator Hub, and submitted.
    await expect.poll(() => totals.getByRole('row', { name: /^Welcome/ }).textContent(), { timeout: 10_000 }).toMatch(/^Welcome1/);
    expect(await totals.getByRole('row', { name: /^Submitted/ }).textContent()).toBe('Submitted1—');
    await expect.poll(() => page.locator('.recharts-surface').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'inbox-funnel.png'), fullPage: true });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to the applications inbox');
    const after = await page.evaluate(async () => (await fetch('/api/admin/applications')).status);
    expect(after).toBe(401);
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });

  it('works with the keyboard alone: sign in, open an application, change its status, change a selection', async () => {
    const page = await openInbox();
    await tabTo(page, page.getByLabel('Email'));
    await page.keyboard.type(USER.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(USER.password);
    await page.keyboard.press('Enter');
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
    const page = await openInbox();
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
    const page = await openInbox();
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
    const applicant = readdirSync(assets).filter((name) => name.endsWith('.js')).map((name) => readFileSync(join(assets, name), 'utf8'));
    expect(applicant.length).toBeGreaterThan(0);
    for (const marker of ['Sign in to the applications inbox', 'recharts', '/api/admin/']) {
      expect(applicant.filter((source) => source.includes(marker)), marker).toEqual([]);
    }
    const inbox = readdirSync(join('dist', 'admin', 'assets')).map((name) => readFileSync(join('dist', 'admin', 'assets', name), 'utf8'));
    expect(inbox.some((source) => source.includes('Sign in to the applications inbox'))).toBe(true);
  });
});
