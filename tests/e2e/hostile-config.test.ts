import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { rawDefaultConfig } from '../factories/application';
import { useServerAndBrowser } from './support';

const e2e = useServerAndBrowser(() => {
  const raw = rawDefaultConfig();
  raw.steps[0].blocks[0].data.html =
    '<h1>Welcome</h1><img src="/nope.png" onerror="window.__hacked = 1"><script>window.__hacked = 2</script><a href="javascript:window.__hacked=3">evil</a>';
  raw.steps[0].footer = '<p>Read the <a href="https://example.com/terms">terms</a><svg><script>window.__hacked = 4</script></svg></p>';
  const file = join(mkdtempSync(join(tmpdir(), 'wizard-config-')), 'hostile.json');
  writeFileSync(file, JSON.stringify(raw));
  return { WIZARD_CONFIG: file };
});

it('configuration HTML is sanitised: scripts, handlers and javascript: URLs are inert; links open a new tab', async () => {
  const page = await e2e.browser.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  // The image's error events, counted from before the page's own scripts: once its load has
  // failed, an onerror left on it would have run.
  await page.addInitScript(() => {
    document.addEventListener(
      'error',
      (event) => {
        const counted = window as { imageErrors?: number };
        if (event.target instanceof HTMLImageElement) counted.imageErrors = (counted.imageErrors ?? 0) + 1;
      },
      true,
    );
  });
  await page.goto(e2e.server.url);
  await page.getByRole('heading', { name: 'Welcome' }).waitFor();
  // Without an href the link navigates nowhere, so the click below queues nothing to wait for.
  expect(await page.locator('a', { hasText: 'evil' }).getAttribute('href')).toBeNull();
  await page.locator('a', { hasText: 'evil' }).click();
  await page.waitForFunction(() => ((window as { imageErrors?: number }).imageErrors ?? 0) >= 1);
  expect(await page.evaluate(() => (window as { __hacked?: number }).__hacked)).toBeUndefined();
  expect(await page.locator('.block-html script, .step-footer script').count()).toBe(0);
  expect(await page.locator('.block-html img').getAttribute('onerror')).toBeNull();
  const terms = page.getByRole('link', { name: 'terms', exact: true });
  expect(await terms.getAttribute('target')).toBe('_blank');
  expect(await terms.getAttribute('rel')).toBe('noopener noreferrer');
  expect(dialogs).toEqual([]);
  await page.close();
});
