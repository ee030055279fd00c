/**
 * The interactions section of `npm run bench` ("phone-speed interactions";
 * BENCH_INTERACTIONS=off skips it). It builds the wizard, serves it with the real server,
 * and drives Debian's Chromium (playwright-core) with the CPU throttled 4× (CDP
 * `Emulation.setCPUThrottlingRate`) at a phone's viewport. Each interaction is measured
 * with the Event Timing API: a `PerformanceObserver` on `event` entries, the interaction's
 * duration being the longest of its entries (input delay + processing + presentation,
 * until the next paint), as INP counts it. Chromium reports no entry under 16 ms; such an
 * interaction counts as 16 ms.
 *
 * Every run is a fresh page (cold, as an applicant meets it): Welcome → step 1 with the
 * engine chunk loaded and the page quiet (as after reading the welcome step for a moment; and,
 * on a page of its own, pressed at the first idle moment after the engine chunk arrives), opening the Country select, six keystrokes in its filter, opening
 * the State / Province select (United States: 62 entries) and the phone's calling-code
 * select, then, once step 1 is filled, step 1 → step 2 and opening each survey select.
 * Beside it, in the same run, a React-only page (bench/react-baseline.tsx, bundled with
 * esbuild) does the comparable work with plain React: a welcome view → a step of a dozen
 * inputs, opening a list of the same 250 country names, a keystroke that filters it.
 *
 * Prints a markdown table: median and p90 over BENCH_INTERACTION_RUNS runs (default 7),
 * in ms, beside the baseline and the target (Welcome → step 1 and opening any
 * select under 150 ms, a keystroke under 50 ms). BENCH_WIZARD_URL measures a wizard already
 * served there instead of building and starting this checkout (another version, to compare).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { getCountries } from '../src/shared/data/countries';
import { launchBrowser } from '../tests/e2e/support';
import { freePort } from './server-process';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_INTERACTION_RUNS ?? 7);
/** Chromium's CPU slowdown for a mid-range phone (Lighthouse's mobile default). */
const CPU_SLOWDOWN = 4;
const PHONE_VIEWPORT = { width: 375, height: 800 };
/** Event Timing reports nothing shorter; an interaction without an entry took at most this. */
const MIN_REPORTED_MS = 16;
const FILTER_KEYS = [...'united'];

/** Collects Event Timing entries by interaction; installed before any page script runs. */
const OBSERVER_SCRIPT = `
  window.__interactions = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.interactionId) window.__interactions.push({ id: entry.interactionId, name: entry.name, start: entry.startTime, duration: entry.duration });
    }
  }).observe({ type: 'event', buffered: true, durationThreshold: ${MIN_REPORTED_MS} });
  // The longest entry of each interaction that started at or after \`since\`; [floor] when none.
  window.__durationsSince = async (since, floor) => {
    const entries = () => window.__interactions.filter((entry) => entry.start >= since);
    // The observer's callback runs a task or two after the paint it measured.
    for (let i = 0; i < 6 && entries().length === 0; i++) {
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    }
    const longest = new Map();
    for (const entry of entries()) longest.set(entry.id, Math.max(longest.get(entry.id) ?? 0, entry.duration));
    return longest.size === 0 ? [floor] : [...longest.values()];
  };
`;

const median = (values: number[]) => quantile(values, 0.5);
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
}

/**
 * Runs `action` and returns the Event Timing duration (ms) of the interaction it caused:
 * the longest entry of the interactions that started after it began, once `settled` holds
 * and two frames have been presented (entries are reported after the paint).
 */
async function timed(page: Page, action: () => Promise<void>, settled: () => Promise<void>): Promise<number> {
  const since = await page.evaluate(() => performance.now());
  await action();
  await settled();
  const durations = await page.evaluate(
    ({ since, floor }) => (window as unknown as { __durationsSince: (since: number, floor: number) => Promise<number[]> }).__durationsSince(since, floor),
    { since, floor: MIN_REPORTED_MS },
  );
  return Math.max(...durations);
}

/** A fresh phone-sized page with the CPU slowed down and the observer installed. */
async function phonePage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
  await context.addInitScript(OBSERVER_SCRIPT);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  return { context, page };
}

/** Waits for the browser's next idle period. */
const idle = (page: Page) => page.evaluate('new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 3000 }))');

/**
 * Waits until the page is quiet, as after an applicant has read the welcome step for a moment:
 * two idle periods in a row with 40 ms or more to spare (nothing else was waiting to run).
 */
async function quiet(page: Page) {
  let quietPeriods = 0;
  for (let i = 0; i < 50 && quietPeriods < 2; i++) {
    const spare = await page.evaluate<number>('new Promise((resolve) => requestIdleCallback((deadline) => resolve(deadline.timeRemaining())))');
    quietPeriods = spare >= 40 ? quietPeriods + 1 : 0;
  }
}

type Samples = Record<string, number[]>;
const add = (samples: Samples, name: string, value: number) => (samples[name] ??= []).push(value);

/**
 * Opens a select by a click on its input, measures it, and closes it with Escape. The input is
 * focused first (not measured): the previous control's blur may show its error and move the
 * page, which would make the click land beside the input.
 */
async function openSelect(page: Page, samples: Samples, name: string, combobox: Locator) {
  await combobox.focus();
  await idle(page);
  add(
    samples,
    name,
    await timed(
      page,
      () => combobox.click(),
      () => page.getByRole('listbox').first().waitFor(),
    ),
  );
  await page.keyboard.press('Escape');
}

const engineLoaded = (page: Page) =>
  page.waitForFunction(() =>
    performance.getEntriesByType('resource').some((entry) => entry.name.includes('wizard-engine') && (entry as PerformanceResourceTiming).responseEnd > 0),
  );
const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });

/** Continue pressed at the first idle moment after the engine chunk has arrived, before the page is quiet. */
async function hastyRun(browser: Browser, url: string, samples: Samples) {
  const { context, page } = await phonePage(browser);
  await page.goto(url, { waitUntil: 'load' });
  await engineLoaded(page);
  await idle(page);
  add(
    samples,
    'Welcome → step 1, pressed as the engine arrives',
    await timed(
      page,
      () => page.getByRole('button', { name: 'Continue' }).click(),
      () => heading(page, 'Introduce yourself').waitFor(),
    ),
  );
  await context.close();
}

async function wizardRun(browser: Browser, url: string, samples: Samples) {
  const { context, page } = await phonePage(browser);
  await page.goto(url, { waitUntil: 'load' });
  await engineLoaded(page);
  await quiet(page);

  add(
    samples,
    'Welcome → step 1',
    await timed(
      page,
      () => page.getByRole('button', { name: 'Continue' }).click(),
      () => heading(page, 'Introduce yourself').waitFor(),
    ),
  );

  const country = page.getByRole('combobox', { name: 'Country', exact: true });
  await openSelect(page, samples, 'open Country (250)', country);
  await country.click();
  for (const [index, key] of FILTER_KEYS.entries()) {
    const typed = FILTER_KEYS.slice(0, index + 1).join('');
    add(
      samples,
      'keystroke in the Country filter',
      await timed(
        page,
        () => page.keyboard.press(key),
        async () => void (await page.waitForFunction((value) => (document.activeElement as HTMLInputElement).value === value, typed)),
      ),
    );
  }
  await page.getByRole('option', { name: 'United States', exact: true }).click();

  await openSelect(page, samples, 'open State / Province (US, 62)', page.getByRole('combobox', { name: 'State / Province' }));
  await openSelect(page, samples, 'open calling code (~270)', page.getByRole('combobox', { name: 'Country code' }));

  // Fill step 1 (not measured) to reach the survey selects.
  await page.getByRole('combobox', { name: 'State / Province' }).fill('oreg');
  await page.getByRole('option', { name: 'Oregon', exact: true }).click();
  await page.getByLabel('First name', { exact: true }).fill('Kai');
  await page.getByLabel('Last name', { exact: true }).fill('Tanaka');
  await page.getByLabel('Phone number', { exact: true }).fill('2025550142');
  await page.getByLabel('Email', { exact: true }).fill('kai@example.com');
  await page.getByLabel('Instagram handle').fill('kai.makes');
  await page.getByLabel('Instagram followers').fill('900');
  await quiet(page);
  add(
    samples,
    'step 1 → step 2',
    await timed(
      page,
      () => page.getByRole('button', { name: 'Continue' }).click(),
      () => heading(page, 'More details').waitFor(),
    ),
  );

  await openSelect(page, samples, 'open a survey select (single)', page.getByRole('combobox', { name: /familiar/ }));
  await openSelect(page, samples, 'open a survey select (single)', page.getByRole('combobox', { name: /often/ }));
  await openSelect(page, samples, 'open a survey select (multi)', page.getByRole('combobox', { name: /products/ }));
  await context.close();
}

async function baselineRun(browser: Browser, url: string, samples: Samples) {
  const { context, page } = await phonePage(browser);
  await page.goto(url, { waitUntil: 'load' });
  await quiet(page);
  add(
    samples,
    'Welcome → step 1',
    await timed(
      page,
      () => page.getByRole('button', { name: 'Continue' }).click(),
      () => page.getByRole('heading', { name: 'Introduce yourself' }).waitFor(),
    ),
  );
  const names = page.getByRole('textbox', { name: 'Names' });
  add(
    samples,
    'open a list (250)',
    await timed(
      page,
      () => names.click(),
      () => page.getByRole('listitem').first().waitFor(),
    ),
  );
  for (const [index, key] of FILTER_KEYS.entries()) {
    const typed = FILTER_KEYS.slice(0, index + 1).join('');
    add(
      samples,
      'keystroke in the filter',
      await timed(
        page,
        () => page.keyboard.press(key),
        async () => void (await page.waitForFunction((value) => (document.activeElement as HTMLInputElement).value === value, typed)),
      ),
    );
  }
  await context.close();
}

/** Bundles the React-only page (production React, minified) and serves it on a free loopback port. */
async function serveBaseline(): Promise<{ url: string; close: () => Promise<void> }> {
  const bundle = await build({
    entryPoints: [join(ROOT, 'bench', 'react-baseline.tsx')],
    bundle: true,
    minify: true,
    format: 'esm',
    jsx: 'automatic',
    write: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  const script = bundle.outputFiles[0]!.text;
  const names = JSON.stringify(getCountries('en').map((country) => country.name)).replace(/</g, '\\u003c');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>React-only baseline</title>
<style>body{font-family:system-ui,sans-serif;margin:16px}input{display:block;width:100%;padding:10px;box-sizing:border-box}.list{list-style:none;padding:4px 0;max-height:260px;overflow-y:auto;border:1px solid #ccc}.list li{padding:10px 12px}</style></head>
<body><div id="root"></div><script id="names" type="application/json">${names}</script><script type="module" src="/app.js"></script></body></html>`;
  const server = createHttpServer((request, response) => {
    const js = request.url === '/app.js';
    response.writeHead(200, { 'content-type': js ? 'text/javascript' : 'text/html; charset=utf-8' });
    response.end(js ? script : html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const TARGETS: Record<string, string> = {
  'Welcome → step 1': '< 150',
  'Welcome → step 1, pressed as the engine arrives': '—',
  'keystroke in the Country filter': '< 50',
};
const BASELINE_OF: Record<string, string> = {
  'Welcome → step 1': 'Welcome → step 1',
  'Welcome → step 1, pressed as the engine arrives': 'Welcome → step 1',
  'keystroke in the Country filter': 'keystroke in the filter',
};

/** Builds this checkout's wizard and serves it with the real server on a free port and a fresh SQLite file. */
async function serveWizard(): Promise<{ url: string; stop: () => void }> {
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  const dir = mkdtempSync(join(tmpdir(), 'bench-interactions-'));
  const port = await freePort();
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: `sqlite:${join(dir, 'a.db')}` },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}healthz`)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    stop: () => {
      server.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs the interactions benchmark and prints its figures. */
export async function benchInteractions(): Promise<void> {
  const served = process.env.BENCH_WIZARD_URL ? { url: process.env.BENCH_WIZARD_URL, stop: () => undefined } : await serveWizard();
  const url = served.url;
  const baseline = await serveBaseline();
  const browser = await launchBrowser();
  const wizard: Samples = {};
  const react: Samples = {};
  try {
    // Alternate the two pages so that the machine's noise falls on both alike.
    for (let run = 0; run < RUNS; run++) {
      await baselineRun(browser, baseline.url, react);
      await wizardRun(browser, url, wizard);
      await hastyRun(browser, url, wizard);
    }
  } finally {
    await browser.close();
    await baseline.close();
    served.stop();
  }
  const cell = (values: number[] | undefined) => (values ? `${Math.round(median(values))} | ${Math.round(quantile(values, 0.9))}` : '— | —');
  console.log(
    `\ninteractions: Event Timing durations in ms, ${RUNS} fresh pages each, Chromium with the CPU ${CPU_SLOWDOWN}× slower, ${PHONE_VIEWPORT.width}×${PHONE_VIEWPORT.height}; under ${MIN_REPORTED_MS} ms counts as ${MIN_REPORTED_MS}`,
  );
  console.log('| interaction | wizard median | wizard p90 | React-only median | React-only p90 | wizard ÷ React-only (medians) | target |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [name, values] of Object.entries(wizard)) {
    const opening = name.startsWith('open ');
    const base = react[BASELINE_OF[name] ?? (opening ? 'open a list (250)' : '')];
    const ratio = base ? `${(median(values) / median(base)).toFixed(2)}×` : '—';
    console.log(`| ${name} | ${cell(values)} | ${cell(base)} | ${ratio} | ${TARGETS[name] ?? (opening ? '< 150' : '—')} |`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await benchInteractions();
