/**
 * The page section of `npm run bench` (issue 6): builds the wizard, serves it,
 * runs Lighthouse (mobile emulation, its default throttling) on `/` three times
 * in Debian's Chromium and prints the median performance, accessibility and
 * best-practices scores with LCP (ms), CLS and TBT (ms), then the gzip bytes of
 * every JS and CSS file. Targets: performance ≥ 95, accessibility 100, best
 * practices ≥ 95, LCP ≤ 2000 ms, CLS ≤ 0.02.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { serverCommand } from '../tests/support/server-process';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs the page benchmark and prints its figures. */
export async function benchPage(): Promise<void> {
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  const dir = mkdtempSync(join(tmpdir(), 'bench-page-'));
  const port = await freePort();
  // The compiled server, as `npm start` runs it (issue 12).
  const command = serverCommand();
  const server = spawn(process.execPath, command.args, {
    cwd: ROOT,
    env: { ...process.env, ...command.env, PORT: String(port), LOG_LEVEL: 'warn', DATABASE_URL: `sqlite:${join(dir, 'a.db')}` },
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
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const runs: { performance: number; accessibility: number; bestPractices: number; lcp: number; cls: number; tbt: number }[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices'] });
      const lhr = result!.lhr;
      runs.push({
        performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
        bestPractices: Math.round((lhr.categories['best-practices']?.score ?? 0) * 100),
        lcp: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
        cls: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
        tbt: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
      });
    }
  } finally {
    await chrome.kill();
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
  const pick = (key: keyof (typeof runs)[number]) => median(runs.map((run) => run[key]));
  console.log(`\npage: Lighthouse ${RUNS} runs, mobile emulation and default throttling, median`);
  console.log('| performance | accessibility | best practices | LCP ms | CLS | TBT ms |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  console.log(`| ${pick('performance')} | ${pick('accessibility')} | ${pick('bestPractices')} | ${pick('lcp')} | ${pick('cls')} | ${pick('tbt')} |`);

  console.log('\n| file | gzip bytes |');
  console.log('|---|---:|');
  const assets = join(ROOT, 'dist', 'assets');
  for (const file of readdirSync(assets).filter((name) => /\.(js|css)$/.test(name)).sort()) {
    console.log(`| ${file} | ${gzipSync(readFileSync(join(assets, file)), { level: 9 }).length} |`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await benchPage();
