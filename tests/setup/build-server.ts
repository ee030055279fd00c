import { buildServer } from './builds';

/**
 * Vitest global setup of the `server` project: compiles the server as `npm run build` does
 * (vite.server.config.ts), so that the tests that start it run the current source the way
 * `npm start` runs it, never a stale build. In a run of the `e2e` project too, it is compiled once
 * (tests/setup/builds.ts). The tests that start the real server serve the built wizard from dist/
 * too: `npm test` builds it (the `e2e` project's setup); `npm run build` when running them alone.
 */
export default async function setup(): Promise<void> {
  await buildServer();
}
