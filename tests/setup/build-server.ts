import { build } from 'vite';

/**
 * Vitest global setup of the projects that start server processes (`server`, `e2e`): compiles
 * the server as `npm run build` does (vite.server.config.ts, about a second), so that they run
 * the current source the way `npm start` runs it, never a stale build.
 *
 * Vitest sets NODE_ENV=test, and Vite would then compile the server-rendered components for
 * React's development runtime (`jsxDEV`), which the server, run with NODE_ENV=production as
 * `npm start` runs it, does not have: the build runs as `npm run build` does, in production.
 */
export default async function buildServer(): Promise<void> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: 'vite.server.config.ts', logLevel: 'warn', mode: 'production' });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}
