import { build } from 'vite';

/** The four builds of `npm run build`, by their Vite configuration. */
const CONFIGS = {
  /** The applicant's wizard, into dist/ (it empties dist/: before the two below). */
  wizard: 'vite.config.ts',
  /** The inbox, into dist/admin/. */
  inbox: 'vite.admin.config.ts',
  /** The builder's preview, into dist/preview/. */
  preview: 'vite.preview.config.ts',
  /** The server, into build/server/ (what `npm start` runs). */
  server: 'vite.server.config.ts',
} as const;

type Build = keyof typeof CONFIGS;

// Kept on globalThis: each project's global setup may load this module as an instance of its own,
// and a run of the `server` and `e2e` projects compiles the server once.
const KEY = Symbol.for('wizard.tests.builds');
const started: Map<Build, Promise<void>> = ((globalThis as Record<symbol, Map<Build, Promise<void>> | undefined>)[KEY] ??= new Map());

function once(name: Build, after?: Promise<void>): Promise<void> {
  let promise = started.get(name);
  if (!promise) {
    promise = (async () => {
      await after;
      await build({ configFile: CONFIGS[name], logLevel: 'warn', mode: 'production' });
    })();
    started.set(name, promise);
  }
  return promise;
}

/**
 * Runs `builds` (each at most once in a run of Vitest) as `npm run build` runs them: in production.
 * Vitest sets NODE_ENV=test, and Vite would then compile for React's development runtime (`jsxDEV`),
 * which the server, run with NODE_ENV=production as `npm start` runs it, does not have. (Global
 * setups run one after another, never at once, so NODE_ENV is theirs while they build.)
 */
async function inProduction(builds: () => Promise<unknown>): Promise<void> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await builds();
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

/** Compiles the server into build/server/ (about a second), once in a run. */
export function buildServer(): Promise<void> {
  return inProduction(() => once('server'));
}

/**
 * Builds all `npm run build` builds, once in a run: the server's compile beside the wizard's, and
 * the inbox and the preview once the wizard's build has emptied dist/.
 */
export function buildAll(): Promise<void> {
  return inProduction(() => {
    const wizard = once('wizard');
    return Promise.all([wizard, once('inbox', wizard), once('preview', wizard), once('server')]);
  });
}
