import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { defineConfig, type TestUserConfig } from 'vitest/config';

/**
 * How many test files run at once, in all projects together (a worker process each): one per core,
 * at least two (`--maxWorkers=n` says otherwise for a run). A file waits much of its time on what it
 * drives (a server process, Chromium, PostgreSQL, scrypt): Vitest's default (cores − 1) ran one file
 * at a time on a two-core machine and left a core idle. Two per core was tried and made the browser
 * files miss their timeouts under load (docs/decisions/017, "A test suite that fits a working day").
 */
const WORKERS = Math.max(2, availableParallelism());

/** Shared logic, React components and the scripts' tests: the `unit` projects. */
const UNIT_FILES = [
  'src/shared/**/*.test.ts',
  'src/wizard/**/*.test.{ts,tsx}',
  'src/admin/**/*.test.{ts,tsx}',
  'scripts/**/*.test.ts',
  'tests/lint/**/*.test.ts',
  'tests/support/**/*.test.ts',
];
/** The admin CLI's tests run with the server's (they open its stores). */
const UNIT_EXCLUDED = ['scripts/admin.test.ts', 'scripts/admin-backup.test.ts'];
/**
 * Unit files that replace or reload modules (`vi.mock`, `vi.resetModules`): in a worker whose
 * modules other files share, a mock would meet a module loaded before it, and a reload would give
 * later files another copy (the phone library's loaded metadata): these run each in a fresh one.
 */
const UNIT_MODULE_MOCKS = ['src/shared/phone-metadata.test.ts', 'src/wizard/flow/step-change.test.tsx'];

/** The `unit` projects' settings. */
const UNIT = {
  environment: 'happy-dom',
  setupFiles: ['tests/setup/fail-on-console-error.ts', 'tests/setup/unit.ts'],
  // The property tests (hundreds of generated applications) and the scripts that start the
  // server through tsx take seconds on a loaded two-core machine: 5 s failed them, not bugs.
  testTimeout: 30_000,
  hookTimeout: 30_000,
} satisfies TestUserConfig;

/**
 * The environment of the projects that open stores in process: their worker threads (SQLite's
 * writer and reader, the exports) run compiled, from the build the project's global setup made, not
 * their source through tsx: about 1.5 s of CPU less for each of the hundreds of stores the files open
 * (src/server/worker-thread.ts, docs/decisions/017).
 */
const THREADS_FROM_BUILD = { WORKER_THREADS_FROM_BUILD: '1' };

/**
 * The `server` project's settings, shared with `server-alone`. Real servers, databases and scrypt
 * on two cores: a 5 s test timeout failed tests under load, not bugs. Hooks open stores, create
 * databases and hash passwords too: Vitest's 10 s is as tight.
 */
const SERVER = {
  environment: 'node',
  // The compiled server first (once in a run): the files' worker threads run from it (below).
  globalSetup: ['tests/setup/build-server.ts'],
  setupFiles: ['tests/setup/fail-on-console-error.ts'],
  env: THREADS_FROM_BUILD,
  testTimeout: 30_000,
  hookTimeout: 60_000,
} satisfies TestUserConfig;

/**
 * Server test files that run alone, once every other file has run: their subject is how the
 * process shares the machine. The export threads run at nice 19 (decision 014), so they wait
 * while anything else runs: beside another test file, an export of the file's 4 000 long rows took
 * minutes instead of seconds. The submit path's CPU guard compares CPU times, which a busy
 * machine's other processes bend (it measured 3.2–8.0 beside other files, 4.5–5.2 alone).
 */
const ALONE = ['src/server/routes/admin-export-threads.test.ts', 'src/server/submit-cost.test.ts'];

/**
 * Three kinds of projects: `unit` (shared logic and React components in happy-dom; `unit-isolated`
 * for the files that mock modules), `server` (Fastify app on real SQLite files; `server-alone`
 * for the files that run alone) and `e2e` (the real server in Debian's Chromium). `npm test` runs
 * them at once, their files side by side. Before any test,
 * the `e2e` project builds what `npm run build` builds and starts the one Chromium its files share
 * (tests/setup/e2e.ts), and the `server` project compiles the server (tests/setup/build-server.ts),
 * each build once in a run (tests/setup/builds.ts), since they start the server as `npm start` does.
 */
export default defineConfig({
  plugins: [react()],
  test: {
    // Files of every project run side by side, WORKERS at a time (see above).
    maxWorkers: WORKERS,
    // A run whose tests pass fails if it printed a stack trace (tests/setup/quiet-run-reporter.ts).
    // Reporters given on the command line replace these: name it there too.
    reporters: ['default', './tests/setup/quiet-run-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT_FILES,
          exclude: [...UNIT_EXCLUDED, ...UNIT_MODULE_MOCKS],
          ...UNIT,
          // A worker keeps the modules and the DOM environment it loaded from one file to the next
          // (each file's tests still clean up what they render): setting up happy-dom and loading
          // React again for each of 40 files took half the project's CPU time.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-isolated',
          include: UNIT_MODULE_MOCKS,
          ...UNIT,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['src/server/**/*.test.ts', 'scripts/admin.test.ts', 'scripts/admin-backup.test.ts'],
          exclude: ALONE,
          ...SERVER,
          // A worker keeps the modules it loaded from one file to the next (each file still builds
          // its own apps, stores and databases): loading the server's modules again for each of the
          // 50 files cost some 55 s of CPU in a run (docs/decisions/017, "Measured on a quiet machine").
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'server-alone',
          include: ALONE,
          ...SERVER,
          // One file at a time, after the files that run side by side (Vitest runs the files of a
          // project without file parallelism last, on their own).
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/setup/e2e.ts'],
          // Also fails a test on a browser page's console error or uncaught exception (tests/e2e/support.ts).
          setupFiles: ['tests/setup/fail-on-console-error.ts'],
          // What the files open in process (a store for an account, a database's rows) too.
          env: THREADS_FROM_BUILD,
          testTimeout: 90_000,
          hookTimeout: 60_000,
          // A state the browser reaches after a server round trip (a restart, a submit) may take
          // seconds on a loaded two-core machine: polls wait up to 10 s, not Vitest's 1 s.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
