import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { useServerAndBrowser } from './support';

// Decision 009: the first step paints before any script, and nothing the wizard does afterwards
// (hydration, the engine taking over the step) may put a new largest element on the screen or
// change the cover's file — either would move the largest contentful paint to after the scripts.

const e2e = useServerAndBrowser();

/** A 1×1 PNG: a cover too small to be the largest element, so the welcome text is. */
const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

interface Recorded {
  /** Every largest-contentful-paint entry, in order: its time (ms), its element and its URL. */
  paints?: { time: number; element: Element | null; url: string }[];
  /** The server's elements, taken before any script ran: the cover and the welcome step's HTML. */
  server?: { cover: HTMLImageElement | null; html: Element[] };
  /** The cover's file once the page had loaded, before the wizard's module was fetched. */
  coverFile?: string;
}

/**
 * Opens the page at Lighthouse's phone size (412 × 823 CSS px at 1.75) recording the
 * largest-contentful-paint entries and the server's elements, and waits until the engine has
 * taken over the step (it renders the next step ahead, hidden) and two frames have been painted
 * since.
 */
async function openAndWaitForTheEngine(page: Page) {
  await page.addInitScript(() => {
    const recorded = window as Recorded;
    recorded.paints = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { element: Element | null; url: string })[]) {
        recorded.paints!.push({ time: entry.startTime, element: entry.element, url: entry.url });
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    // `interactive` comes before module scripts run; `load` before the page's first script imports the wizard.
    document.addEventListener('readystatechange', () => {
      if (document.readyState !== 'interactive') return;
      recorded.server = { cover: document.querySelector('.cover img'), html: [...document.querySelectorAll('.step .block-html, .step .block-html *')] };
    });
    window.addEventListener('load', () => (recorded.coverFile = document.querySelector<HTMLImageElement>('.cover img')?.currentSrc));
  });
  await page.goto(e2e.server.url);
  await page.locator('.step-ahead').first().waitFor({ state: 'attached', timeout: 20_000 });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** What the page recorded, read against the elements on the screen now. */
const findings = (page: Page) =>
  page.evaluate(() => {
    const { paints = [], server, coverFile } = window as Recorded;
    const wizardFetched = performance.getEntriesByType('resource').find((entry) => entry.name.includes('/assets/main-'))?.startTime ?? Infinity;
    const largest = paints.at(-1);
    const cover = document.querySelector<HTMLImageElement>('.cover img');
    const html = [...document.querySelectorAll('.step .block-html, .step .block-html *')];
    return {
      paints: paints.length,
      // Entries after the wizard's module was fetched: something painted later became the largest.
      afterTheWizard: paints
        .filter((paint) => paint.time >= wizardFetched)
        .map((paint) => `${paint.element?.tagName ?? '(removed)'} ${paint.url} at ${Math.round(paint.time)} ms`),
      largestIsServers: !!largest?.element && (largest.element === server?.cover || server?.html.includes(largest.element) === true),
      largestOnScreen: largest?.element?.isConnected === true,
      largestTag: largest?.element?.tagName,
      sameCover: !!cover && cover === server?.cover,
      coverFileThen: coverFile,
      coverFileNow: cover?.currentSrc,
      sameHtml:
        server !== undefined && server.html.length > 0 && html.length === server.html.length && html.every((element, index) => element === server.html[index]),
    };
  });

it('keeps the server’s painted cover, its file and the welcome text through hydration and the engine’s arrival: the largest paint stays before the scripts', async () => {
  const context = await e2e.browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true });
  const page = await context.newPage();
  await openAndWaitForTheEngine(page);
  const found = await findings(page);
  expect(found.paints).toBeGreaterThan(0);
  expect(found.largestTag).toBe('IMG');
  expect(found.largestIsServers).toBe(true);
  expect(found.largestOnScreen).toBe(true);
  expect(found.sameCover).toBe(true);
  expect(found.coverFileNow).toBe(found.coverFileThen);
  expect(found.coverFileNow).toMatch(/\/images\/cover-1-800\.webp$/);
  expect(found.sameHtml).toBe(true);
  expect(found.afterTheWizard).toEqual([]);
  await context.close();
});

it('keeps the welcome text the server painted when it is the largest element (a cover too small to be): no later largest paint', async () => {
  const context = await e2e.browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true });
  const page = await context.newPage();
  await page.route('**/images/cover-*', (route) => route.fulfill({ body: TINY_PNG, contentType: 'image/png' }));
  await openAndWaitForTheEngine(page);
  const found = await findings(page);
  expect(found.paints).toBeGreaterThan(0);
  expect(['H1', 'P']).toContain(found.largestTag);
  expect(found.largestIsServers).toBe(true);
  expect(found.largestOnScreen).toBe(true);
  expect(found.sameHtml).toBe(true);
  expect(found.afterTheWizard).toEqual([]);
  await context.close();
});
