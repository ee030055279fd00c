import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root directory. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The compiled server `npm start` runs (`npm run build` makes it: vite.server.config.ts), from {@link ROOT}. */
export const SERVER_SCRIPT = 'build/server/server.mjs';

/** The environment `npm start` gives the server: production mode, for the libraries that read it. */
export const SERVER_ENV = { NODE_ENV: 'production' } as const;

/**
 * How to run the server as the operator's `npm start` does (package.json `start`): node's
 * arguments and the environment to add, for tests and the bench that spawn it (they run
 * what production runs, not the TypeScript source through tsx).
 * @throws Error when the compiled server is missing (run `npm run build`; `npm test` and the
 *   server and e2e test projects build it first).
 */
export function serverCommand(): { args: string[]; env: Record<string, string> } {
  if (!existsSync(join(ROOT, SERVER_SCRIPT))) throw new Error(`${SERVER_SCRIPT} is missing: run \`npm run build\` first (npm test does).`);
  return { args: [SERVER_SCRIPT], env: { ...SERVER_ENV } };
}

/** The admin command compiled beside the server (vite.server.config.ts), from {@link ROOT}. */
export const ADMIN_SCRIPT = 'build/server/admin.mjs';

/**
 * node's arguments for the admin command as the container image runs it (`node
 * build/server/admin.mjs`): the same script as `npm run admin` (scripts/admin.ts through tsx),
 * compiled, for a fifth of tsx's CPU per command.
 * @throws Error when it is missing (run `npm run build`; the server test project builds it first).
 */
export function adminCommand(): string[] {
  if (!existsSync(join(ROOT, ADMIN_SCRIPT))) throw new Error(`${ADMIN_SCRIPT} is missing: run \`npm run build\` first (npm test does).`);
  return [ADMIN_SCRIPT];
}

/** node's arguments for `npm run admin` itself (package.json `admin`): scripts/admin.ts through tsx. */
export const ADMIN_SOURCE_COMMAND = ['--import', 'tsx', 'scripts/admin.ts'] as const;
