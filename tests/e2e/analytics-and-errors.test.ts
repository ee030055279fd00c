import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rawDefaultConfig } from '../factories/application';
import { launchBrowser, startServer, type RunningServer } from './support';

/** What reached the local collector standing in for the analytics and error-reporting hosts. */
const received: { path: string; body: string }[] = [];
let collector: Server;
let server: RunningServer;
let browser: Browser;

function decodeMixpanel(body: string): { event: string; properties: Record<string, unknown> }[] {
  const data = new URLSearchParams(body).get('data') ?? body;
  const json = data.trim().startsWith('[') || data.trim().startsWith('{') ? data : Buffer.from(data, 'base64').toString('utf8');
  const parsed = JSON.parse(json) as unknown;
  return (Array.isArray(parsed) ? parsed : [parsed]) as { event: string; properties: Record<string, unknown> }[];
}
const events = () => received.filter((r) => r.path.startsWith('/track')).flatMap((r) => decodeMixpanel(r.body));

beforeAll(async () => {
  collector = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      if (request.method !== 'OPTIONS') received.push({ path: request.url ?? '', body });
      response.writeHead(200, {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Headers': '*',
        'Content-Type': 'application/json',
      });
      response.end('1');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  const raw = rawDefaultConfig();
  raw.analytics = { token: 'test-token', host: origin };
  raw.errorReporting = { dsn: `http://publickey@127.0.0.1:${(collector.address() as AddressInfo).port}/42` };
  raw.requestUrl = '';
  const file = join(mkdtempSync(join(tmpdir(), 'wizard-config-')), 'analytics.json');
  writeFileSync(file, JSON.stringify(raw));
  [server, browser] = await Promise.all([startServer({ WIZARD_CONFIG: file }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => collector?.close(resolve));
});

it("sends 'Step Reached' once per step with prettified properties, to the configured host", async () => {
  const page = await browser.newPage();
  await page.goto(server.url);
  await expect.poll(() => events().filter((e) => e.event === 'Step Reached').length, { timeout: 10_000 }).toBe(1);
  const [first] = events();
  expect(first?.properties).toMatchObject({ Step: 1, Sync: "Crazy Aaron's Creator Application", 'All Steps Count': 4, token: 'test-token' });
  expect(Object.keys(first?.properties ?? {})).not.toContain('allStepsCount');

  await page.getByRole('button', { name: 'Continue' }).click();
  await expect.poll(() => events().filter((e) => e.event === 'Step Reached').map((e) => e.properties.Step)).toEqual([1, 2]);
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForTimeout(500);
  // Once per step per visit: going back and forth sends nothing new.
  expect(events().filter((e) => e.event === 'Step Reached').map((e) => e.properties.Step)).toEqual([1, 2]);
  await page.close();
});

it('reports an uncaught error to the configured DSN', async () => {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Continue' }).waitFor();
  // Error reporting loads after the first render.
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('/assets/')));
  await expect
    .poll(async () => {
      await page.evaluate(() => setTimeout(() => {
        throw new Error('e2e uncaught error');
      }, 0));
      return received.some((r) => r.path.startsWith('/api/42/envelope/') && r.body.includes('e2e uncaught error'));
    }, { timeout: 15_000, interval: 1000 })
    .toBe(true);
  const envelope = received.find((r) => r.path.startsWith('/api/42/envelope/') && r.body.includes('e2e uncaught error'));
  expect(envelope?.path).toContain('sentry_key=publickey');
  await page.close();
});
