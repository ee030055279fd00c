import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { chromiumLaunchOptions } from '../support/chromium';
import { buildAll } from './builds';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The WebSocket address of the Chromium every e2e test file shares (tests/e2e/support.ts, `launchBrowser`). */
    chromiumEndpoint: string;
  }
}

/**
 * Vitest global setup of the `e2e` project:
 * - builds what the tests serve, as `npm run build` does (the wizard, the inbox, the preview and the
 *   server, once in a run: tests/setup/builds.ts), so they never run a stale build;
 * - starts one Chromium for the whole run, which each test file connects to (`launchBrowser`), in
 *   contexts of its own, instead of starting and stopping a browser per file.
 * @returns the teardown: stops that Chromium.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Chromium starts while the builds run; a failed build stops it.
  const launching = chromium.launchServer(chromiumLaunchOptions(['--process-per-site']));
  const [built, launched] = await Promise.allSettled([buildAll(), launching]);
  if (built.status === 'rejected') {
    if (launched.status === 'fulfilled') await launched.value.close();
    throw built.reason;
  }
  if (launched.status === 'rejected') throw launched.reason;
  const browser = launched.value;
  project.provide('chromiumEndpoint', browser.wsEndpoint());
  return () => browser.close();
}
