import type { ConsoleMessage, Page, Route } from 'playwright-core';
import { expect, it } from 'vitest';
import { currentStep } from './flows';
import { useServerAndBrowser } from './support';

// The server renders the first step, it paints without JavaScript, and the wizard
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

it('paints the first step, cover image included, before any chunk of the wizard is evaluated', async () => {
  const page = await e2e.browser.newPage();
  const seen = problems(page);
  // Every script file marks when it starts (the page's first script is inline: no file).
  await page.route('**/assets/*.js', async (route: Route) => {
    const path = new URL(route.request().url()).pathname;
    const response = await route.fetch();
    // First in the module's code (its imports are hoisted above it, whatever their place).
    await route.fulfill({ response, body: `performance.mark(${JSON.stringify(path)});${await response.text()}` });
  });
  await page.addInitScript(() => {
    const paints: { name: string; time: number }[] = [];
    (window as { paints?: typeof paints }).paints = paints;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { renderTime?: number; url?: string })[]) {
        paints.push({
          name: entry.entryType === 'paint' ? entry.name : `largest-contentful-paint ${entry.url ?? ''}`,
          time: entry.renderTime || entry.startTime,
        });
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) paints.push({ name: entry.name, time: entry.startTime });
    }).observe({ type: 'paint', buffered: true });
  });
  await page.goto(e2e.server.url);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');
  const { paints, marks } = await page.evaluate(() => ({
    paints: (window as { paints?: { name: string; time: number }[] }).paints ?? [],
    marks: performance.getEntriesByType('mark').map((mark) => ({ name: mark.name, time: mark.startTime })),
  }));
  const cover = paints.find((paint) => /largest-contentful-paint .*cover-1-/.test(paint.name));
  expect(cover, JSON.stringify(paints)).toBeDefined();
  expect(
    marks.some((mark) => mark.name.includes('/assets/main-')),
    JSON.stringify(marks),
  ).toBe(true);
  const early = marks.filter((mark) => mark.time <= cover!.time);
  expect(early, `cover painted at ${cover!.time} ms`).toEqual([]);
  expect(seen).toEqual([]);
  // The engine and the next cover may still be on their way through the route.
  await page.unrouteAll({ behavior: 'wait' });
  await page.close();
});

it('a Continue pressed before the wizard has started is held, not a reload, and carried out once it has', async () => {
  const page = await e2e.browser.newPage();
  const seen = problems(page);
  await rememberServerMarkup(page);
  // Hold the wizard's chunk back until the test lets it through.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/main-*.js', async (route: Route) => {
    await released;
    await route.continue();
  });
  await page.goto(e2e.server.url, { waitUntil: 'domcontentloaded' });
  // Gone if the document is replaced (a reload).
  await page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));
  await page.getByRole('button', { name: 'Continue' }).click();
  expect(await currentStep(page)).toBe('Welcome');
  release();
  await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');
  // The same document and the server's elements: no reload happened.
  expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
  expect(await sameAsServer(page)).toBe(true);
  expect(seen).toEqual([]);
  await page.close();
});

it('once hydrated and taken over by the engine, the page is still the server’s markup, element for element', async () => {
  const page = await e2e.browser.newPage();
  const served = await (await fetch(e2e.server.url)).text();
  const serverRoot = /<div id="root">([\s\S]*?)<\/div>\s*<noscript>/.exec(served)![1]!;
  await page.goto(e2e.server.url);
  await expect.poll(() => engineLoaded(page), { timeout: 20_000 }).toBe(true);
  // The browser's own rendering of the welcome step (the engine renders its HTML blocks afresh)
  // against the server's markup as the browser parses it: any difference fails. The next step,
  // which the engine renders ahead and hidden (`.step-ahead`) whenever the browser is
  // idle, is not part of the welcome step and is left out.
  await expect
    .poll(() =>
      page.evaluate((html) => {
        const parsed = document.createElement('div');
        parsed.innerHTML = html;
        const shown = document.getElementById('root')!.cloneNode(true) as HTMLElement;
        for (const ahead of shown.querySelectorAll('.step-ahead')) ahead.remove();
        return shown.innerHTML === parsed.innerHTML ? 'same' : shown.innerHTML;
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
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem('wizard:creators:draft') ?? '')).toContain('"firstName":"Noor"');
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
  { name: 'a 2560 px desktop at 1×', width: 2560, height: 1440, scale: 1, file: 'cover-1-960.webp' },
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
