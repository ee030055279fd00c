import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWizardConfig } from '../../src/shared/config';
import { resolveMessages } from '../../src/shared/messages';
import { sendingStepIndex } from '../../src/shared/steps';
import { currentStep, fillDefaultStep, fillExampleStep } from './flows';
import { WCAG_AND_BEST_PRACTICES, violations as axeViolations } from './inbox-support';
import { launchBrowser, startServer, writeConfig, type RunningServer } from './support';

// axe finds no WCAG 2.2 AA violation on any step, with and without
// errors shown, at 1280px and 375px, for the default and the example configuration;
// nor any of axe's best practices (one h1 per step, headings in order, landmarks).

/** The wizard's scans: WCAG 2.2 AA and axe's best practices. */
const violations = (page: Page, where: string) => axeViolations(page, where, WCAG_AND_BEST_PRACTICES);

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each([
  ['config/wizard.json', fillDefaultStep],
  ['config/examples/createurs-fr.json', fillExampleStep],
])('axe on %s', (file, fillStep) => {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const config = parseWizardConfig(raw).config!;
  const messages = resolveMessages(config.messages);
  let server: RunningServer;

  beforeAll(async () => {
    // The redirect target is outside this machine; the walk stops on the last step.
    server = await startServer({ WIZARD_CONFIG: writeConfig({ ...raw, requestUrl: raw.requestUrl }, 'a11y.json') });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each([1280, 375])('every step, with and without errors, at %ipx', async (width) => {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    await page.goto(server.url);
    const found: string[] = [];
    let scans = 0;
    for (let index = 0; index < config.steps.length; index++) {
      const step = config.steps[index]!;
      await expect.poll(() => currentStep(page)).toBe(step.name);
      await page.locator('.step').waitFor();
      found.push(...(await violations(page, `${step.name}`)));
      scans += 1;
      const isLast = index === config.steps.length - 1;
      if (isLast) break;
      // The step that sends the application says so (Submit application).
      const continueText =
        step.continueButtonText ??
        (index === sendingStepIndex(config) ? (config.buttonText.submit ?? messages.submit) : (config.buttonText.continue ?? messages.continue));
      if (index > 0) {
        await page.getByRole('button', { name: continueText }).click();
        await page.locator('.field-error, .form-error:not(:empty)').first().waitFor();
        found.push(...(await violations(page, `${step.name} with errors`)));
        scans += 1;
      }
      await fillStep(page, index);
      await page.getByRole('button', { name: continueText }).click();
      await expect.poll(() => page.locator('[aria-current="step"] .step-label').textContent()).toBe(config.steps[index + 1]!.name);
    }
    expect(found).toEqual([]);
    // Every step, and every middle step once more with its errors shown.
    expect(scans).toBe(config.steps.length * 2 - 2);
    await context.close();
  });
});

describe('axe on an open, windowed list', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('finds nothing on the Country list, opened, moved through and filtered, at 375px', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Continue' }).click();
    const country = page.getByRole('combobox', { name: 'Country', exact: true });
    await country.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => country.getAttribute('aria-expanded')).toBe('true');
    const found = await violations(page, 'Country list open');
    for (let i = 0; i < 12; i++) await page.keyboard.press('PageDown');
    found.push(...(await violations(page, 'Country list moved through')));
    await country.fill('is');
    found.push(...(await violations(page, 'Country list filtered')));
    expect(found).toEqual([]);
    await context.close();
  });
});
