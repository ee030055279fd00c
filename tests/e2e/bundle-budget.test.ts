import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { currentStep, fillDefaultStep } from './flows';
import { useServerAndBrowser } from './support';

// Issue 6 budgets, measured in Chromium on the built wizard: the JavaScript
// fetched before the load event ≤ 90 KiB gzip, the whole applicant flow
// (without analytics and error reporting) ≤ 140 KiB gzip.

const FIRST_LOAD_BUDGET_BYTES = 90 * 1024;
const WHOLE_FLOW_BUDGET_BYTES = 140 * 1024;
const DIST = fileURLToPath(new URL('../../dist', import.meta.url));

/** gzip -9 size of a built file served at `url`, in bytes. */
const gzipBytes = (url: string) => gzipSync(readFileSync(`${DIST}${new URL(url).pathname}`), { level: 9 }).length;

const e2e = useServerAndBrowser();

it('keeps the JavaScript before the welcome step within 90 KiB and the whole flow within 140 KiB (gzip)', async () => {
  const page = await e2e.browser.newPage();
  await page.goto(e2e.server.url);
  await expect.poll(() => page.evaluate(() => performance.getEntriesByType('navigation')[0]?.toJSON().loadEventEnd > 0)).toBe(true);
  const beforeLoad = await page.evaluate(() => {
    const loadStart = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventStart;
    return performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.endsWith('.js') && entry.startTime < loadStart)
      .map((entry) => entry.name);
  });
  const firstLoad = beforeLoad.reduce((sum, url) => sum + gzipBytes(url), 0);
  expect(beforeLoad.length).toBeGreaterThan(0);
  expect(firstLoad, `before load: ${beforeLoad.join(', ')}`).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);

  for (let index = 0; index < 3; index++) {
    await fillDefaultStep(page, index);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => currentStep(page)).toBe(['Introduce Yourself', 'More Details', 'Creator Hub'][index]);
  }
  const all = await page.evaluate(() => performance.getEntriesByType('resource').filter((entry) => entry.name.endsWith('.js')).map((entry) => entry.name));
  const whole = [...new Set(all)].reduce((sum, url) => sum + gzipBytes(url), 0);
  expect(whole, `whole flow: ${all.join(', ')}`).toBeLessThanOrEqual(WHOLE_FLOW_BUDGET_BYTES);
  expect(all.some((url) => url.includes('/assets/wizard-engine-'))).toBe(true);
  expect(beforeLoad.some((url) => url.includes('/assets/wizard-engine-'))).toBe(false);
  await page.close();
});
