import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts the worker thread whose module is `name` beside the module `caller`, whether the server
 * runs from its TypeScript source or from its build (docs/decisions/014):
 *
 * - from the build (`npm start`: `caller` is a `.mjs` file in `build/server/`), the thread runs
 *   `<name>.mjs` beside it: an entry of its own in `vite.server.config.ts`, listed there under
 *   `name`, since the build puts every entry and chunk in `build/server/`;
 * - from the source (`npm run dev:server` and Vitest: `caller` ends in `.ts`), it runs
 *   `<name>.ts` beside the caller through tsx, whose module hooks the thread registers first
 *   (`tsx/esm/api`'s `register()`, resolved from the caller). `execArgv: ['--import', 'tsx']` does
 *   not do it (tried first, Node 20.20): the thread's `.ts` entry, or a `.ts` module it imports,
 *   still fails with `ERR_UNKNOWN_FILE_EXTENSION`, as after a dynamic import of `tsx`; hence the
 *   small bootstrap (an `eval` worker of two dynamic imports).
 *
 * - from the source with `WORKER_THREADS_FROM_BUILD=1` (the `server` and `e2e` test projects set
 *   it, after their global setup compiled the server: vitest.config.ts), it runs the compiled
 *   `build/server/<name>.mjs` instead: the same module, and a thread through tsx cost about 1.5 s
 *   of CPU to start (its module hooks over the module graph), which each of the project's hundreds
 *   of stores paid for its writer and reader threads (docs/decisions/017).
 *
 * So the module starting a thread and the thread's module sit in the same directory of `src/`.
 * The thread does not inherit the process's node options (`execArgv: []`, as the SQLite writer's:
 * no `--cpu-prof` or `--inspect` port of its own); `options` may say otherwise.
 * @param name - the thread's module name without extension (`export.worker`).
 * @param caller - `import.meta.url` of the module starting it.
 * @param options - the Worker's options (`workerData`, `resourceLimits`, …); `eval` is set here.
 * @returns the started Worker (errors while loading its module come as its `error` event).
 */
export function startWorker(name: string, caller: string, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  if (!caller.endsWith('.ts')) return new Worker(new URL(`./${name}.mjs`, caller), { execArgv: [], ...options });
  if (process.env.WORKER_THREADS_FROM_BUILD === '1') {
    const root = caller.slice(0, caller.lastIndexOf('/src/'));
    return new Worker(new URL(`${root}/build/server/${name}.mjs`), { execArgv: [], ...options });
  }
  const module = new URL(`./${name}.ts`, caller).href;
  const bootstrap = `import(${JSON.stringify(tsxEsmApi(caller))}).then(({ register }) => { register(); return import(${JSON.stringify(module)}); });`;
  return new Worker(bootstrap, { execArgv: [], ...options, eval: true });
}

/**
 * The URL of tsx's ESM API (`tsx/esm/api`, its `import` condition), resolved from `caller`: the
 * `require` condition's file (what `require.resolve` finds) registers hooks that cannot find
 * their own module (`…/esm/api/esm/index.mjs` not found, tsx 4.23).
 */
function tsxEsmApi(caller: string): string {
  const packageFile = createRequire(caller).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(packageFile, 'utf8')) as { exports: Record<string, { import?: { default?: string } }> };
  const file = exports['./esm/api']?.import?.default;
  if (!file) throw new Error(`tsx (${packageFile}) has no ESM export ./esm/api`);
  return new URL(file, pathToFileURL(packageFile)).href;
}
