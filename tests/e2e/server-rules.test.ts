import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { rawDefaultConfig } from '../factories/application';
import { expectConsoleError } from '../support/console-errors';
import { currentStep, fillDefaultApplication } from './flows';
import { failedLoad, useServerAndBrowser, writeConfig } from './support';

// The server holds every application to its page's rules. When it refuses what the
// wizard let through — a wizard loaded before the page's configuration changed — the applicant
// sees why, at the field, and nothing typed is lost.

let configFile = '';
const e2e = useServerAndBrowser(() => {
  configFile = writeConfig(rawDefaultConfig());
  return { WIZARD_CONFIG: configFile };
});

/** Restarts the server on the same port and database with `raw` as its page. */
async function serve(raw: unknown): Promise<void> {
  writeFileSync(configFile, JSON.stringify(raw));
  await e2e.server.halt();
  await e2e.server.restart();
}

/** The default page with `validator` added to the form item at `path`. */
function withValidator(path: string, validator: unknown): unknown {
  const raw = rawDefaultConfig();
  raw.formItems.find((item: { path: string }) => item.path === path).validators.push(validator);
  return raw;
}

/** A new applicant's page on the default page, filled up to its last step. */
async function filledApplication(email: string) {
  await serve(rawDefaultConfig());
  const page = await e2e.browser.newPage();
  await page.goto(e2e.server.url);
  await fillDefaultApplication(page, email);
  return page;
}

/**
 * Waits for the thank-you step and closes the page, so that its last beacons (the funnel's, sent
 * after the step change) never meet the next test's restart.
 */
async function leave(page: Page) {
  await expect.poll(() => currentStep(page)).toBe('Creator Hub');
  await page.close();
}

describe('the server refuses what a stale wizard let through', () => {
  it("shows the server's message at its field, on the step that asks it, and sends again once mended", async () => {
    const page = await filledApplication('stale@example.com');
    // The brand shortens the last name while the applicant is on the last step.
    await serve(withValidator('personalInfo.lastName', { name: 'maxLength', value: 3 }));
    expectConsoleError(failedLoad(400, '/api/syncPage/creators'));

    const answer = page.waitForResponse((response) => response.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Submit application' }).click();
    expect((await answer).status()).toBe(400);
    await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');
    const lastName = page.getByLabel('Last name', { exact: true });
    await expect.poll(() => lastName.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.getByText('Use at most 3 characters').isVisible()).toBe(true);
    expect(await lastName.inputValue()).toBe('Tanaka');
    expect(e2e.server.rows()).toHaveLength(0);

    await lastName.fill('Tan');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => currentStep(page)).toBe('More Details');
    expect(await page.getByLabel(/dream campaign/).inputValue()).toBe('Putty in space');
    await page.getByRole('button', { name: 'Submit application' }).click();
    await expect.poll(() => e2e.server.rows().length).toBe(1);
    expect(JSON.parse(e2e.server.rows()[0]!.payload).personalInfo.lastName).toBe('Tan');
    await leave(page);
  });

  it("keeps the server's message through the wizard's own re-check, until the answer changes", async () => {
    const page = await filledApplication('recheck@example.com');
    await serve(withValidator('fields.dreamCampaign', { name: 'maxLength', value: 5 }));
    expectConsoleError(failedLoad(400, '/api/syncPage/creators'));

    const dream = page.getByLabel(/dream campaign/);
    await dream.fill('Putty in space!');
    await page.getByRole('button', { name: 'Submit application' }).click();
    await expect.poll(() => page.getByText('Use at most 5 characters').isVisible()).toBe(true);
    // The wizard's rules re-check the box when it is left: the server's message stays.
    await dream.focus();
    await dream.blur();
    await expect.poll(() => dream.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('Use at most 5 characters').isVisible()).toBe(true);
    // Changed, it is the wizard's to judge again, and the server's on the next send.
    await dream.fill('Putty');
    await dream.blur();
    await expect.poll(() => page.getByText('Use at most 5 characters').count()).toBe(0);
    await page.getByRole('button', { name: 'Submit application' }).click();
    await expect.poll(() => e2e.server.rows().filter((row) => row.email === 'recheck@example.com').length).toBe(1);
    await leave(page);
  });

  it('a draft saved before the page changed sends only what the page now asks', async () => {
    const page = await filledApplication('draft@example.com');
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByLabel('YouTube handle').fill('adamakes');
    await page.getByLabel('YouTube followers').fill('500');
    await expect
      .poll(() => page.evaluate(() => Object.entries(sessionStorage).some(([key, value]) => key.endsWith(':draft') && value.includes('adamakes'))))
      .toBe(true);

    // The brand drops YouTube; the applicant reloads and carries on with the saved answers.
    const changed = rawDefaultConfig();
    const platforms = changed.steps[1].blocks.find((block: { component: string }) => block.component === 'platforms').data;
    platforms.platforms = platforms.platforms.filter((entry: { name: string }) => entry.name !== 'youtube');
    await serve(changed);
    await page.reload();
    await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');
    expect(await page.getByLabel('YouTube handle').count()).toBe(0);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => currentStep(page)).toBe('More Details');
    await page.getByRole('button', { name: 'Submit application' }).click();
    await expect.poll(() => e2e.server.rows().filter((row) => row.email === 'draft@example.com').length).toBe(1);
    const stored = JSON.parse(e2e.server.rows().find((row) => row.email === 'draft@example.com')!.payload);
    expect(stored.platforms).not.toHaveProperty('youtube');
    await leave(page);
  });
});
