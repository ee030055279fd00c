/**
 * The page section of `npm run bench`: builds the wizard, serves it with the
 * real server, and runs Lighthouse (mobile emulation, its default simulated throttling: slow 4G,
 * 4× CPU slowdown) in Debian's Chromium on three pages served by the same server in the same run,
 * taking turns, RUNS times each:
 * - `/`, the page as served: the first step rendered by the server, hydrated by the wizard;
 * - a static page: the same HTML without its scripts (the baseline of the target: LCP within 10 % of it);
 * - a client-rendered page: the same HTML with an empty `#root`, so the wizard renders the
 *   first step itself, as it did before the server rendered it (decision 009).
 * The two extra pages are made by the server's own `renderPage` and written to `dist/` before the
 * server starts, so they are served as its other static files are (compressed, same headers).
 * Prints the medians of the four Lighthouse categories, LCP (ms), CLS and TBT (ms), each page's
 * LCP against the static page's, then the gzip bytes of every JS and CSS file.
 * Targets: LCP of `/` within 10 % of the static page's; 100 in all four categories.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { loadWizardConfig } from '../src/server/load-config';
import { renderPage } from '../src/server/routes/page';
import { chromiumLaunchOptions } from '../tests/support/chromium';
import { serverCommand } from '../tests/support/server-process';
import { freePort } from './server-process';
import { median } from './statistics';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 5);

/** The pages compared, by path. */
const PAGES = [
  { name: 'static HTML of the same step (no scripts)', path: '/bench-static-first-step.html' },
  { name: 'served page: server-rendered, hydrated', path: '/' },
  { name: 'client-rendered (empty root, as before decision 009)', path: '/bench-client-rendered.html' },
] as const;

/** Writes the static and the client-rendered variants of the page into `dist/`. */
function writeVariants(): string[] {
  const html = renderPage(readFileSync(join(ROOT, 'dist', 'index.html'), 'utf8'), loadWizardConfig(join(ROOT, 'config', 'wizard.json')));
  const withoutScripts = html.replace(/<script type="module"[^>]*>[\s\S]*?<\/script>/g, '').replace(/<link rel="modulepreload"[^>]*>/g, '');
  if (withoutScripts === html) throw new Error('the page has no module script to leave out');
  const emptyRoot = html.replace(/<div id="root">[\s\S]*?<\/div>(\s*<noscript>)/, '<div id="root"></div>$1');
  if (emptyRoot === html) throw new Error('the page has no server-rendered root to leave out');
  const files = [join(ROOT, 'dist', PAGES[0].path.slice(1)), join(ROOT, 'dist', PAGES[2].path.slice(1))];
  writeFileSync(files[0]!, withoutScripts);
  writeFileSync(files[1]!, emptyRoot);
  return files;
}

interface Run {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcp: number;
  cls: number;
  tbt: number;
  failed: string[];
}

/** Runs the page benchmark and prints its figures. */
export async function benchPage(): Promise<void> {
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  const variants = writeVariants();
  const dir = mkdtempSync(join(tmpdir(), 'bench-page-'));
  const port = await freePort();
  // The compiled server, as `npm start` runs it.
  const command = serverCommand();
  const server = spawn(process.execPath, command.args, {
    cwd: ROOT,
    env: { ...process.env, ...command.env, PORT: String(port), LOG_LEVEL: 'warn', DATABASE_URL: `sqlite:${join(dir, 'a.db')}` },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${origin}/healthz`)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  // The tests' Chromium and flags (`--headless` is the new headless mode in the Chromium of Debian 12).
  const browser = chromiumLaunchOptions();
  const chrome = await chromeLauncher.launch({ chromePath: browser.executablePath, chromeFlags: browser.args });
  const runs = new Map<string, Run[]>(PAGES.map((page) => [page.path, []]));
  const failedRuns = new Map<string, number>();
  try {
    // Taking turns, so a slower moment of the machine falls on every page alike.
    for (let i = 0; i < RUNS; i++) {
      for (const page of PAGES) {
        const result = await lighthouse(`${origin}${page.path}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        });
        const lhr = result!.lhr;
        // A run whose trace lacks a metric (Lighthouse reports 0 or nothing) is left out of the medians.
        if (!lhr.audits['largest-contentful-paint']?.numericValue) {
          failedRuns.set(page.path, (failedRuns.get(page.path) ?? 0) + 1);
          continue;
        }
        const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
        runs.get(page.path)!.push({
          performance: score('performance'),
          accessibility: score('accessibility'),
          bestPractices: score('best-practices'),
          seo: score('seo'),
          lcp: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
          cls: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
          tbt: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
          failed: Object.values(lhr.audits)
            .filter(
              (audit) =>
                audit.score !== null && audit.score < 1 && ['binary', 'numeric'].includes(audit.scoreDisplayMode) && audit.id !== 'largest-contentful-paint',
            )
            .map((audit) => audit.id),
        });
      }
    }
  } finally {
    await chrome.kill();
    server.kill();
    rmSync(dir, { recursive: true, force: true });
    for (const file of variants) rmSync(file, { force: true });
  }
  const staticLcp = median(runs.get(PAGES[0].path)!.map((run) => run.lcp));
  console.log(`\npage: Lighthouse ${RUNS} runs per page, taking turns, mobile emulation and default throttling, median`);
  console.log('| page | performance | accessibility | best practices | SEO | LCP ms | LCP vs static | CLS | TBT ms |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const page of PAGES) {
    const list = runs.get(page.path)!;
    const pick = (key: Exclude<keyof Run, 'failed'>) => median(list.map((run) => run[key]));
    const ratio = `${Math.round((pick('lcp') / staticLcp) * 100)} %`;
    console.log(
      `| ${page.name} | ${pick('performance')} | ${pick('accessibility')} | ${pick('bestPractices')} | ${pick('seo')} | ${pick('lcp')} | ${ratio} | ${pick('cls')} | ${pick('tbt')} |`,
    );
  }
  console.log(
    `LCP of every run, ms: ${PAGES.map(
      (page) =>
        `${page.path} ${runs
          .get(page.path)!
          .map((run) => run.lcp)
          .join(', ')}`,
    ).join('; ')}`,
  );
  console.log(
    `TBT of every run, ms: ${PAGES.map(
      (page) =>
        `${page.path} ${runs
          .get(page.path)!
          .map((run) => run.tbt)
          .join(', ')}`,
    ).join('; ')}`,
  );
  if (failedRuns.size > 0) console.log(`runs without an LCP, left out: ${[...failedRuns].map(([path, count]) => `${path} ${count}`).join('; ')}`);
  const failed = [...new Set(runs.get('/')!.flatMap((run) => run.failed))];
  if (failed.length > 0) console.log(`audits of / below 1 in some run: ${failed.join(', ')}`);

  console.log('\n| file | gzip bytes |');
  console.log('|---|---:|');
  const assets = join(ROOT, 'dist', 'assets');
  for (const file of readdirSync(assets)
    .filter((name) => /\.(js|css)$/.test(name))
    .sort()) {
    console.log(`| ${file} | ${gzipSync(readFileSync(join(assets, file)), { level: 9 }).length} |`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await benchPage();
