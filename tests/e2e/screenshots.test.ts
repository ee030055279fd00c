import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentStep, fillDefaultStep } from './flows';
import { useServerAndBrowser } from './support';

// 200% zoom keeps the page usable. The screenshots of every step, and
// their comparison with committed baselines, are visual.test.ts's.

const OUT = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

const e2e = useServerAndBrowser();
beforeAll(() => {
  mkdirSync(OUT, { recursive: true });
});

describe('screenshots and zoom', () => {
  it('at 200% zoom nothing scrolls sideways and every control stays reachable', async () => {
    // A 1280px window at 200% zoom lays the page out in 640 CSS pixels.
    const page = await e2e.browser.newPage({ viewport: { width: 640, height: 450 }, deviceScaleFactor: 2 });
    await page.goto(e2e.server.url);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const continueButton = page.getByRole('button', { name: 'Continue' });
    await continueButton.scrollIntoViewIfNeeded();
    expect(await continueButton.isVisible()).toBe(true);
    await fillDefaultStep(page, 1);
    await continueButton.click();
    await expect.poll(() => currentStep(page)).toBe('More Details');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.close();
  });
});
