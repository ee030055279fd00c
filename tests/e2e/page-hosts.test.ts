import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageDetail } from '../../src/shared/pages';
import { expectConsoleError } from '../support/console-errors';
import { currentStep, fillDefaultApplication } from './flows';
import { createInboxUser, INBOX_USER } from './inbox-support';
import { launchBrowser, startServer, type RunningServer } from './support';

/** Two brands' own host names, which Chromium resolves to the test's server. */
const HOSTS = { 'brand-a': 'brand-a.test', 'brand-b': 'brand-b.test' } as const;

let server: RunningServer;
let browser: Browser;
let call: Awaited<ReturnType<typeof pagesApi>>;

/** The inbox's pages API as an editor, over HTTP (the builder's own tests drive its forms). */
async function pagesApi() {
  const signedIn = await fetch(`${server.url}/api/admin/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(INBOX_USER),
  });
  expect(signedIn.status).toBe(204);
  const cookies = signedIn.headers.getSetCookie().map((line) => line.split(';')[0]!);
  const xsrf = decodeURIComponent(cookies.find((cookie) => cookie.startsWith('XSRF-TOKEN='))!.slice('XSRF-TOKEN='.length));
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}/api/admin${path}`, {
      method,
      headers: { cookie: cookies.join('; '), 'x-xsrf-token': xsrf, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status, await response.clone().text()).toBeLessThan(300);
    return (await response.json()) as PageDetail;
  };
}

beforeAll(async () => {
  const rules = Object.values(HOSTS).map((host) => `MAP ${host} 127.0.0.1`);
  [server, browser] = await Promise.all([startServer(), launchBrowser([`--host-resolver-rules=${rules.join(', ')}`])]);
  await createInboxUser(server);
  call = await pagesApi();
  for (const [id, host] of Object.entries(HOSTS)) {
    const created = await call('POST', '/pages', { id, from: 'default' });
    await call('PUT', `/pages/${id}/draft`, { config: { ...(created.draft as object), title: `${id} creators` }, revision: created.revision });
    await call('POST', `/pages/${id}/publish`, { revision: created.revision + 1 });
    await call('PATCH', `/pages/${id}`, { hosts: [host] });
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('campaign pages at the root of their own host names in Chromium', () => {
  it('serves each page on its host name, and stores an application with its page and version', async () => {
    const { port } = new URL(server.url);
    // Plain HTTP on a host name that is not loopback's own: Chromium ignores the opener policy
    // there and says so (production serves the brands' names over HTTPS).
    expectConsoleError(/^The Cross-Origin-Opener-Policy header has been ignored, because the URL's origin was untrustworthy/);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`http://${HOSTS['brand-a']}:${port}/`);
    await expect.poll(() => page.title()).toBe('brand-a creators');
    await page.goto(`http://${HOSTS['brand-b']}:${port}/`);
    await expect.poll(() => page.title()).toBe('brand-b creators');
    // The deployment's own address: the default page.
    await page.goto(`${server.url}/`);
    await expect.poll(() => page.title()).toBe("Crazy Aaron's Creator Application");
    // Another path on a brand's host name: its page, at the root.
    await page.goto(`http://${HOSTS['brand-b']}:${port}/apply`);
    expect(new URL(page.url()).pathname).toBe('/');
    await expect.poll(() => page.title()).toBe('brand-b creators');

    await fillDefaultApplication(page, 'kai@brand-b.example');
    await page.getByRole('button', { name: 'Submit application' }).click();
    await expect.poll(() => currentStep(page)).toBe('Creator Hub');
    await expect.poll(() => page.getByText('Thank you for your submission!').isVisible()).toBe(true);
    const rows = server.rows() as (ReturnType<RunningServer['rows']>[number] & { page_version: number | null })[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ page_id: 'brand-b', page_version: 1, email: 'kai@brand-b.example' });
    await page.close();
  });

  it('shows a closed page in its own words, in its own look, with nothing blocked', async () => {
    await call('PATCH', '/pages/brand-a', { status: 'closed' });
    const { port } = new URL(server.url);
    expectConsoleError(/^The Cross-Origin-Opener-Policy header has been ignored/);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`http://${HOSTS['brand-a']}:${port}/`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('brand-a creators');
    await expect.poll(() => page.getByText('This campaign is closed and no longer takes applications.').isVisible()).toBe(true);
    expect(await page.getByRole('button').count()).toBe(0);
    expect(await page.locator('.logo').evaluate((logo: HTMLImageElement) => logo.complete && logo.naturalWidth > 0)).toBe(true);
    if (process.env.PAGE_HOSTS_SCREENSHOT) await page.screenshot({ path: process.env.PAGE_HOSTS_SCREENSHOT });
    await page.close();
  });
});
