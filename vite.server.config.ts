import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * Packages compiled into the server: pure JavaScript, ES modules, no files read beside their code.
 * fastify-type-provider-zod goes with zod: left outside, it loads a second zod from node_modules
 * at every start.
 */
const BUNDLED = ['kysely', 'zod', 'uuid', 'fastify-type-provider-zod'];

/**
 * Compiles the server to JavaScript in `build/server/` (`npm start` runs it with plain
 * node; tsx is for development). Vite's server-side build, so `.ts`, `.tsx` and JSX compile as the
 * wizard's do, and the server can render the wizard's own components.
 *
 * - Packages stay in node_modules (imported at run time, not copied in): better-sqlite3 is
 *   native, and a package loaded only when needed (pg on SQLite, html-to-text for the inbox)
 *   stays unloaded. Except {@link BUNDLED}: pure ES-module JavaScript that every start loads,
 *   published as hundreds of small files (kysely alone is 279), which node resolves, reads and
 *   links one by one; copied into `server.mjs` they load as one file (measured in the
 *   same run on this machine: 28 % less CPU to `/readyz` and 15 MiB less resident memory).
 * - The worker threads are entries of their own with their file names kept
 *   (`sqlite-writer.worker.mjs`, `sqlite-scrub.worker.mjs`, `sqlite-reader.worker.mjs`,
 *   `export.worker.mjs`), beside
 *   `server.mjs`, since the server starts them by a URL relative to its own module (through
 *   `startWorker` in `src/server/worker-thread.ts`, which runs the `.ts` source through tsx
 *   instead when the server runs from its source). Modules an entry shares with the server
 *   (Kysely, the CSV formatting) go to a chunk beside them.
 * - The admin command (`scripts/admin.ts`, `npm run admin` through tsx) is an entry too:
 *   `node build/server/admin.mjs …` runs it compiled, a fifth of the CPU of a tsx start (about
 *   0.5 s against 2.2 s), for the container image and the tests that run it once a build exists.
 * - `build/server/` sits as deep as `src/server/`, so `../../dist` (the built wizard and inbox)
 *   is the same directory from the source and from the compiled server.
 * - Not minified: a stack trace in the log names the same functions as the source.
 */
export default defineConfig({
  publicDir: false,
  plugins: [react()],
  // The compiled server always runs in production (`npm start` sets NODE_ENV=production), whatever
  // NODE_ENV the build ran under: React's production JSX runtime, which has no `jsxDEV`.
  oxc: { jsx: { runtime: 'automatic', development: false } },
  ssr: { noExternal: BUNDLED },
  build: {
    ssr: true,
    outDir: 'build/server',
    emptyOutDir: true,
    target: 'node20',
    rolldownOptions: {
      input: {
        server: 'src/server/server.ts',
        'sqlite-writer.worker': 'src/server/store/sqlite-writer.worker.ts',
        'sqlite-scrub.worker': 'src/server/store/sqlite-scrub.worker.ts',
        'sqlite-reader.worker': 'src/server/store/sqlite-reader.worker.ts',
        'export.worker': 'src/server/inbox/export.worker.ts',
        admin: 'scripts/admin.ts',
      },
      output: { entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
    },
  },
});
