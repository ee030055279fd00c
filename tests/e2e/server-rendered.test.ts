import type { ConsoleMessage, Page, Route } from 'playwright-core';
import { expect, it } from 'vitest';
import { currentStep } from './flows';
import { useServerAndBrowser } from './support';

// Issue 12: the server renders the first step, it paints without JavaScript, and the wizard
// hydrates it — no second render, no hydration error, Continue working all along.

const e2e = useServerAndBrowser();

/** Console errors and warnings, and uncaught page errors (React reports hydration mismatches there). */
function problems(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') seen.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => seen.push(`pageerror: ${error.message}`));
  return seen;
}

/**
 * Remembers the server's `.wizard` element before any script runs (readyState `interactive`
 * comes before module scripts execute), so a test can tell hydration (the same element kept)
 * from a render that replaced the server's markup.
 */
async function rememberServerMarkup(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener('readystatechange', () => {
      if (document.readyState === 'interactive') (window as { serverWizard?: Element | null }).serverWizard = document.querySelector('.wizard');
    });
  });
}
const sameAsServer = (page: Page) =>
  page.evaluate(() => {
    const server = (window as { serverWizard?: Element | null }).serverWizard;
    return Boolean(server) && server === document.querySelector('.wizard');
  });
const engineLoaded = (page: Page) =>
  page.evaluate(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('/assets/wizard-engine-')));

it('paints the first step, its cover image and Continue with JavaScript off', async () => {
  const context = await e2e.browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(e2e.server.url);
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe("Become a Crazy Aaron's creator");
  expect(await page.getByRole('button', { name: 'Continue' }).isVisible()).toBe(true);
  expect(await currentStep(page)).toBe('Welcome');
  const cover = page.locator('.cover img');
  await expect.poll(() => cover.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  await context.close();
});

it('hydrates the server markup without a React error, and Continue works before and after the engine arrives', async () => {
  const page = await e2e.browser.newPage();
  const seen = problems(page);
  await rememberServerMarkup(page);
  // Hold the engine chunk back until the test lets it through.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/wizard-engine-*.js', async (route: Route) => {
    await released;
    await route.continue();
  });
  await page.goto(e2e.server.url);
  // Hydrated: React took over the server's elements (the button answers) without replacing them.
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');
  expect(await sameAsServer(page)).toBe(true);
  expect(await page.getByRole('heading', { name: 'Introduce yourself' }).isVisible()).toBe(true);
  expect(await engineLoaded(page)).toBe(false);

  release();
  await page.getByLabel('First name', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect.poll(() => currentStep(page)).toBe('Welcome');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');
  await page.getByRole('button', { name: 'Continue' }).click();
  // The engine validates step 1: the empty required fields say so.
  await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBeGreaterThan(0);
  expect(await sameAsServer(page)).toBe(true);
  expect(seen).toEqual([]);
  await page.close();
});

it('once hydrated and taken over by the engine, the page is still the server’s markup, element for element', async () => {
  const page = await e2e.browser.newPage();
  const served = await (await fetch(e2e.server.url)).text();
  const serverRoot = /<div id="root">([\s\S]*?)<\/div>\s*<noscript>/.exec(served)![1]!;
  await page.goto(e2e.server.url);
  await expect.poll(() => engineLoaded(page)).toBe(true);
  // The browser's own rendering of the welcome step (the engine renders its HTML blocks afresh)
  // against the server's markup as the browser parses it: any difference fails.
  await expect
    .poll(() =>
      page.evaluate((html) => {
        const parsed = document.createElement('div');
        parsed.innerHTML = html;
        return document.getElementById('root')!.innerHTML === parsed.innerHTML ? 'same' : document.getElementById('root')!.innerHTML;
      }, serverRoot),
    )
    .toBe('same');
  await page.close();
});

it('a draft on a later step still restores that step and its answers, without errors', async () => {
  const page = await e2e.browser.newPage();
  const seen = problems(page);
  await page.goto(e2e.server.url);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('First name', { exact: true }).fill('Noor');
  await expect
    .poll(() => page.evaluate(() => sessionStorage.getItem('wizard:creators:draft') ?? ''))
    .toContain('"firstName":"Noor"');
  await page.reload();
  await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');
  await expect.poll(() => page.getByLabel('First name', { exact: true }).inputValue()).toBe('Noor');
  expect(seen).toEqual([]);
  await page.close();
});

it.each([
  { name: 'a 375 px phone at 1×', width: 375, height: 812, scale: 1, file: 'cover-1-480.webp' },
  { name: 'a 375 px phone at 2×', width: 375, height: 812, scale: 2, file: 'cover-1-800.webp' },
  { name: 'a 375 px phone at 3×', width: 375, height: 812, scale: 3, file: 'cover-1-960.webp' },
  { name: "Lighthouse's phone (412 px at 1.75×)", width: 412, height: 823, scale: 1.75, file: 'cover-1-800.webp' },
  { name: 'a 1280 px desktop at 1×', width: 1280, height: 800, scale: 1, file: 'cover-1-640.webp' },
])('$name downloads $file, once', async ({ width, height, scale, file }) => {
  const context = await e2e.browser.newContext({ viewport: { width, height }, deviceScaleFactor: scale, isMobile: width < 500 });
  const page = await context.newPage();
  const covers: string[] = [];
  page.on('request', (request) => {
    const name = new URL(request.url()).pathname.split('/').pop()!;
    if (name.startsWith('cover-1')) covers.push(name);
  });
  await page.goto(e2e.server.url);
  await expect.poll(() => page.locator('.cover img').evaluate((image: HTMLImageElement) => image.complete && image.currentSrc)).toContain(file);
  expect(covers).toEqual([file]);
  await context.close();
});
