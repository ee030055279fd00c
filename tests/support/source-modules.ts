import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The TypeScript modules under `dir` (`.ts` and `.tsx`, tests excluded), by the path `dir` is
 * given in (absolute in, absolute out): what the tests that read the source's imports walk.
 */
export function sourceModules(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceModules(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}
