import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rawDefaultConfig } from '../factories/application';
import { launchBrowser, startServer, type RunningServer } from './support';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  const raw = rawDefaultConfig();
  raw.steps[0].blocks[0].data.html =
    '<h1>Welcome</h1><img src="/nope.png" onerror="window.__hacked = 1"><script>window.__hacked = 2</script><a href="javascript:window.__hacked=3">evil</a>';
  raw.steps[0].footer = '<p>Read the <a href="https://example.com/terms">terms</a><svg><script>window.__hacked = 4</script></svg></p>';
  const file = join(mkdtempSync(join(tmpdir(), 'wizard-config-')), 'hostile.json');
  writeFileSync(file, JSON.stringify(raw));
  [server, browser] = await Promise.all([startServer({ WIZARD_CONFIG: file }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it('configuration HTML is sanitised: scripts, handlers and javascript: URLs are inert; links open a new tab', async () => {
  const page = await browser.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(server.url);
  await page.getByRole('heading', { name: 'Welcome' }).waitFor();
  await page.locator('a', { hasText: 'evil' }).click();
  await page.waitForTimeout(200);
  expect(await page.evaluate(() => (window as { __hacked?: number }).__hacked)).toBeUndefined();
  expect(await page.locator('.block-html script, .step-footer script').count()).toBe(0);
  expect(await page.locator('.block-html img').getAttribute('onerror')).toBeNull();
  expect(await page.locator('a', { hasText: 'evil' }).getAttribute('href')).toBeNull();
  const terms = page.getByRole('link', { name: 'terms', exact: true });
  expect(await terms.getAttribute('target')).toBe('_blank');
  expect(await terms.getAttribute('rel')).toBe('noopener noreferrer');
  expect(dialogs).toEqual([]);
  await page.close();
});
