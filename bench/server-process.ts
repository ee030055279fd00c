/**
 * How the bench starts a server under test (shared by the submit and export sections): in a
 * process of its own, on a free port, with the bench's environment. On a machine with two cores
 * or more, the load generator (the bench process) runs on core 0 and the server on core 1, so they
 * do not take turns on the same cores and the figures measure the server, not the scheduler.
 * Without `taskset` both share every core (the figures then say so).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { ROOT, serverCommand } from '../tests/support/server-process';

/** True when this process was pinned to core 0 and servers are started on core 1. */
export const PINNED = availableParallelism() >= 2 && spawnSync('taskset', ['-cp', '0', String(process.pid)]).status === 0;

/**
 * The bot check as the bench's applicants meet it (docs/decisions/032): every submission carries a
 * challenge solved for its key, asked of the server as the wizard asks it; none waits the three
 * seconds a person fills a page in, and the work a challenge asks is the least (the server issues
 * and checks a challenge alike whatever it asks; the load generator's CPU goes to sending).
 */
export const BENCH_BOT_CHECK = { MIN_FILL_SECONDS: '0', BOT_CHECK_MAX_NUMBER: '2' } as const;

/**
 * Runs `section` with this process free to use every core again, then pins it back to core 0.
 * For the browser sections (Lighthouse, interactions): Chromium and the server they start inherit
 * this process's affinity, and a browser squeezed onto one core with the load generator measures
 * a one-core machine — the page bench's blocking time of `/` was 200–580 ms pinned, 15–60 ms not.
 * @param section - the work to run unpinned; its result is returned.
 */
export async function withEveryCore<T>(section: () => Promise<T>): Promise<T> {
  if (!PINNED) return section();
  spawnSync('taskset', ['-cp', `0-${availableParallelism() - 1}`, String(process.pid)]);
  try {
    return await section();
  } finally {
    spawnSync('taskset', ['-cp', '0', String(process.pid)]);
  }
}

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The bare baseline compiled as the server is (Vite's server-side build), once per bench run. */
let bareCompiled: Promise<string> | undefined;
export function compileBareServer(): Promise<string> {
  bareCompiled ??= (async () => {
    const outDir = join(ROOT, 'build', 'bench');
    await build({
      configFile: false,
      root: ROOT,
      publicDir: false,
      logLevel: 'warn',
      build: {
        ssr: true,
        outDir,
        emptyOutDir: true,
        target: 'node20',
        rolldownOptions: { input: { 'bare-server': 'bench/bare-server.ts' }, output: { entryFileNames: '[name].mjs' } },
      },
    });
    return join(outDir, 'bare-server.mjs');
  })();
  return bareCompiled;
}

/**
 * The server as commit `ref` built it, for a measurement beside this build's in the same run
 * (`BENCH_VERSUS`): the commit checked out in a worktree under `.bench-cache/` (this checkout's
 * node_modules and built wizard linked in), its server compiled as `npm run build` does; once per
 * commit.
 * @returns the compiled server's path.
 */
export async function versusServer(ref: string): Promise<string> {
  const sha = spawnSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  if (!sha) throw new Error(`BENCH_VERSUS: ${ref} is no commit of this repository`);
  const dir = join(ROOT, '.bench-cache', `versus-${sha.slice(0, 12)}`);
  const server = join(dir, 'build', 'server', 'server.mjs');
  if (existsSync(server)) return server;
  spawnSync('git', ['worktree', 'add', '--force', '--detach', dir, sha], { cwd: ROOT, stdio: 'inherit' });
  for (const linked of ['node_modules', 'dist']) if (!existsSync(join(dir, linked))) symlinkSync(join(ROOT, linked), join(dir, linked));
  const built = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '-c', 'vite.server.config.ts', '--logLevel', 'warn'],
    {
      cwd: dir,
      stdio: 'inherit',
    },
  );
  if (built.status !== 0 || !existsSync(server)) throw new Error(`BENCH_VERSUS: ${ref}'s server did not build`);
  return server;
}

/**
 * node's arguments and extra environment to run a bench server as production runs it: the
 * compiled server for `src/server/server.ts`, the bare server compiled the same way for
 * `bench/bare-server.ts`; any other script (or `tsx:` and a script) through tsx.
 */
export async function benchServerCommand(script: string): Promise<{ args: string[]; env: Record<string, string> }> {
  if (script === 'src/server/server.ts') return serverCommand();
  if (script === 'bench/bare-server.ts') return { args: [await compileBareServer()], env: { NODE_ENV: 'production' } };
  if (script.startsWith('versus:')) return { args: [await versusServer(script.slice('versus:'.length))], env: { NODE_ENV: 'production' } };
  return { args: ['--import', 'tsx', script.replace(/^tsx:/, '')], env: {} };
}

/** A started server: its process and base URL (`http://127.0.0.1:<port>`). */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
}

/**
 * Starts `script` as production runs it ({@link benchServerCommand}: the compiled server, the bare
 * baseline compiled alike) on core 1 when {@link PINNED} (on either core
 * with `pinned: false`), with PORT and HOST set, warn-level logs, a submit rate limit no load
 * reaches, and `env`; resolves once it answers.
 * @throws Error when it exits or does not answer within 30 s.
 */
export async function start(script: string, env: Record<string, string>, options: { pinned?: boolean } = {}): Promise<ServerProcess> {
  const port = await freePort();
  const launch = await benchServerCommand(script);
  // BENCH_CPU_PROF=<dir>: each server writes a V8 CPU profile there when it stops (chrome://inspect or
  // speedscope read it); NODE_OPTIONS may not carry the flag, so it goes on the command line.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const command = [process.execPath, ...profile, ...launch.args];
  const [file, ...args] = PINNED ? ['taskset', '-c', options.pinned === false ? '0,1' : '1', ...command] : command;
  const child = spawn(file!, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      ...launch.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000000',
      ...BENCH_BOT_CHECK,
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300 && child.exitCode === null; i++) {
    try {
      await fetch(`${url}/api/syncPage/creators`, { method: 'OPTIONS' });
      return { child, url };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${script} did not start`);
}

/** Stops a server started by {@link start} and resolves once its process has exited. */
export async function stop(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill();
  await exited;
}
