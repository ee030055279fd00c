import { build } from 'vite';

/**
 * Vitest global setup of the projects that start server processes (`server`, `e2e`): compiles
 * the server as `npm run build` does (vite.server.config.ts, about a second), so that they run
 * the current source the way `npm start` runs it, never a stale build.
 */
export default async function buildServer(): Promise<void> {
  await build({ configFile: 'vite.server.config.ts', logLevel: 'warn' });
}
