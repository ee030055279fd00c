import { existsSync } from 'node:fs';
import type { LaunchOptions } from 'playwright-core';

/** Chromium flags for a headless machine without a network beyond the npm registry: no sandbox, GPU, updates, sync or first-run pages. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * How the tests and the bench launch Debian's Chromium (`CHROME_PATH` or /usr/bin/chromium).
 * @param extraArgs - more Chromium flags, e.g. `--host-resolver-rules=…`.
 * @throws Error when Chromium is not there, saying how to install it.
 */
export function chromiumLaunchOptions(extraArgs: readonly string[] = []): LaunchOptions & { executablePath: string; args: string[] } {
  const executablePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    throw new Error(`Chromium not found at ${executablePath}: install Debian's package (apt-get install chromium) or set CHROME_PATH.`);
  }
  return { executablePath, args: [...CHROMIUM_ARGS, ...extraArgs] };
}
