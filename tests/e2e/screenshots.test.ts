import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentStep, fillDefaultStep } from './flows';
import { useServerAndBrowser } from './support';

// Issue 6, "looks right": the suite writes a screenshot of every step at 1280px,
// 768px and 375px to test-results/screenshots/ (looked at, not compared pixel
// by pixel), and checks that 200% zoom keeps the page usable.

const OUT = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
const STEPS = ['Welcome', 'Introduce Yourself', 'More Details', 'Creator Hub'];

const e2e = useServerAndBrowser();
beforeAll(() => {
  mkdirSync(OUT, { recursive: true });
});

describe('screenshots and zoom', () => {
  it.each([1280, 768, 375])('writes a screenshot of every step at %ipx', async (width) => {
    const page = await e2e.browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(e2e.server.url);
    for (let index = 0; index < STEPS.length; index++) {
      await expect.poll(() => currentStep(page)).toBe(STEPS[index]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `${OUT}step-${index + 1}-${width}.png`, fullPage: true });
      if (index === STEPS.length - 1) break;
      await fillDefaultStep(page, index);
      await page.getByRole('button', { name: 'Continue' }).click();
    }
    await page.close();
  });

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
