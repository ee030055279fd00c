import type { Route } from 'playwright-core';
import { expect, it } from 'vitest';
import { PHONE_METADATA_PATH, phoneMetadataUrl } from '../../src/shared/phone-metadata';
import { currentStep, fillDefaultStep, pick } from './flows';
import { useServerAndBrowser } from './support';

// Decision 010: the wizard fetches the phone metadata of the calling codes an applicant's answers
// name, and judges a step only once it has them — as strictly as the server, which has them all.

const e2e = useServerAndBrowser();

it('judges the phone under a newly chosen calling code by that code’s numbering plan, waiting for its file, and fetches only the codes named', async () => {
  const page = await e2e.browser.newPage();
  // The United Kingdom's file is held back until the test lets it through.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  await page.route(`**${phoneMetadataUrl('44')}`, async (route: Route) => {
    asked = true;
    await released;
    await route.continue();
  });
  await page.goto(e2e.server.url);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');
  // A valid step with a US number, then the United Kingdom's code and nine digits: E.164's 4–15
  // would pass them, the United Kingdom's plan does not.
  await fillDefaultStep(page, 1);
  await pick(page, 'Country code', 'kingdom', '+44 United Kingdom');
  await page.getByLabel('Phone number', { exact: true }).fill('7400 12345');
  await expect.poll(() => asked).toBe(true);
  await page.getByRole('button', { name: 'Continue' }).click();
  // The step waits for the plan rather than judging by the fallback.
  await expect.poll(() => page.getByRole('button', { name: 'Continue' }).getAttribute('aria-busy')).toBe('true');
  release();
  const phone = page.getByLabel('Phone number', { exact: true });
  await expect.poll(() => phone.getAttribute('aria-invalid')).toBe('true');
  await expect.poll(() => page.getByText('Enter a valid phone number').isVisible()).toBe(true);
  expect(await currentStep(page)).toBe('Introduce Yourself');

  await phone.fill('7400 123456');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect.poll(() => currentStep(page)).toBe('More Details');
  // The default code's file and the chosen one's: not the whole metadata, not another code's.
  const fetched = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname));
  expect(fetched.filter((path) => path.startsWith(PHONE_METADATA_PATH)).sort()).toEqual([phoneMetadataUrl('1'), phoneMetadataUrl('44')]);
  await page.close();
});
