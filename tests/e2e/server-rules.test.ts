import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rawDefaultConfig } from '../factories/application';
import { currentStep, fillDefaultApplication } from './flows';
import { useServerAndBrowser, writeConfig } from './support';

// Issue 13: the server holds every application to its page's rules. When it refuses what the
// wizard let through — a wizard loaded before the page's configuration changed — the applicant
// sees why, at the field, and nothing typed is lost.

let configFile = '';
const e2e = useServerAndBrowser(() => {
  configFile = writeConfig(rawDefaultConfig());
  return { WIZARD_CONFIG: configFile };
});

describe('the server refuses what a stale wizard let through', () => {
  it("shows the server's message at its field, on the step that asks it, and sends again once mended", async () => {
    const page = await e2e.browser.newPage();
    await page.goto(e2e.server.url);
    await fillDefaultApplication(page, 'stale@example.com');

    // The brand shortens the last name while the applicant is on the last step.
    const changed = rawDefaultConfig();
    changed.formItems.find((item: { path: string }) => item.path === 'personalInfo.lastName').validators.push({ name: 'maxLength', value: 3 });
    writeFileSync(configFile, JSON.stringify(changed));
    await e2e.server.halt();
    await e2e.server.restart();

    const answer = page.waitForResponse((response) => response.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Continue' }).click();
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
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => e2e.server.rows().length).toBe(1);
    expect(JSON.parse(e2e.server.rows()[0]!.payload).personalInfo.lastName).toBe('Tan');
  });
});
