import { afterAll, expect, it } from 'vitest';
import { rawDefaultConfig } from '../factories/application';
import { expectConsoleError } from '../support/console-errors';
import { currentStep, fillDefaultApplication, fillDefaultStep } from './flows';
import { startCollector, useServerAndBrowser, writeConfig, type Collector } from './support';

let collector: Collector;
const events = () => collector.events();

const e2e = useServerAndBrowser(async () => {
  collector = await startCollector();
  const origin = collector.origin;
  const raw = rawDefaultConfig();
  raw.analytics = { token: 'test-token', host: origin };
  raw.errorReporting = { dsn: `http://publickey@127.0.0.1:${collector.port}/42` };
  return { WIZARD_CONFIG: writeConfig(raw, 'analytics.json') };
});
afterAll(async () => {
  await collector?.close();
});

it("sends 'Step Reached' once per step with prettified properties, to the configured host", async () => {
  // This test's events only: the collector serves every test of the file.
  const from = events().length;
  const steps = () =>
    events()
      .slice(from)
      .filter((e) => e.event === 'Step Reached');
  const page = await e2e.browser.newPage();
  await page.goto(e2e.server.url);
  await expect.poll(() => steps().length, { timeout: 10_000 }).toBe(1);
  const [first] = steps();
  expect(first?.properties).toMatchObject({ Step: 1, Sync: "Crazy Aaron's Creator Application", 'All Steps Count': 4, token: 'test-token' });
  expect(Object.keys(first?.properties ?? {})).not.toContain('allStepsCount');

  await page.getByRole('button', { name: 'Continue' }).click();
  await expect.poll(() => steps().map((e) => e.properties.Step)).toEqual([1, 2]);
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  // Once per step per visit: going back and forth sends nothing new. The next step's event, sent
  // after any the revisit would have sent, proves it sent none.
  await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');
  await fillDefaultStep(page, 1);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect.poll(() => steps().map((e) => e.properties.Step)).toEqual([1, 2, 3]);
  await page.close();
});

it('reports an uncaught error to the configured DSN', async () => {
  expectConsoleError(/e2e uncaught error/);
  const page = await e2e.browser.newPage();
  await page.goto(e2e.server.url);
  await page.getByRole('button', { name: 'Continue' }).waitFor();
  // Error reporting loads after the first render.
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('/assets/')));
  await expect
    .poll(
      async () => {
        await page.evaluate(() =>
          setTimeout(() => {
            throw new Error('e2e uncaught error');
          }, 0),
        );
        return collector.received.some((r) => r.path.startsWith('/api/42/envelope/') && r.body.includes('e2e uncaught error'));
      },
      { timeout: 15_000, interval: 1000 },
    )
    .toBe(true);
  const envelope = collector.received.find((r) => r.path.startsWith('/api/42/envelope/') && r.body.includes('e2e uncaught error'));
  expect(envelope?.path).toContain('sentry_key=publickey');
  await page.close();
});

it("sends 'Form Submitted' after a successful submit and 'Sign In Clicked' before the redirect", async () => {
  const page = await e2e.browser.newPage();
  await page.route('https://creators.crazyaaronsputty.example/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Sign up</title>' }));
  await page.goto(e2e.server.url);
  await fillDefaultApplication(page, 'analytics@example.com');
  await page.getByRole('button', { name: 'Submit application' }).click();
  await expect.poll(() => currentStep(page)).toBe('Creator Hub');
  await expect.poll(() => events().filter((e) => e.event === 'Form Submitted').length).toBe(1);
  expect(events().find((e) => e.event === 'Form Submitted')?.properties).toMatchObject({ Sync: "Crazy Aaron's Creator Application" });
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('https://creators.crazyaaronsputty.example/sign-up');
  await expect.poll(() => events().filter((e) => e.event === 'Sign In Clicked').length).toBe(1);
  await page.close();
});
