import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject, vi } from 'vitest';
import { chromiumLaunchOptions } from '../support/chromium';
import { recordOutput, reportError } from '../support/console-errors';
import { createTestDatabase } from '../support/postgres';
import { ROOT, serverCommand } from '../support/server-process';
import { TEST_SECRET } from '../support/xsrf';

/**
 * Reports a page's console errors and uncaught exceptions to tests/support/console-errors.ts, which
 * fails the running test unless it allowed them (decision 017).
 */
function watchErrors(page: Page) {
  page.on('console', (message) => {
    // A resource that failed to load is named by the message's location, not by its text.
    if (message.type() === 'error') reportError('browser console.error', `${message.text()} (${message.location().url || page.url()})`);
  });
  page.on('pageerror', (error) => reportError('browser pageerror', `${error.name}: ${error.message} (${page.url()})`));
}

/**
 * What Chromium logs as a console error for a request to `path` that failed with `answer` (an HTTP
 * status, or a network error such as `net::ERR_CONNECTION_REFUSED`), for a test that causes that
 * failure to allow it: `expectConsoleError(failedLoad(503, '/api/syncPage/creators'))`.
 */
export function failedLoad(answer: number | `net::${string}`, path: string): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const why = typeof answer === 'number' ? `the server responded with a status of ${answer} \\([^)]*\\)` : escape(answer);
  return new RegExp(`^Failed to load resource: ${why} \\(https?://[^/]+${escape(path)}(\\?[^)]*)?\\)$`);
}

/**
 * A Chromium to drive (Debian's: `CHROME_PATH` or /usr/bin/chromium). Under Vitest, the one the
 * e2e project's setup started for the whole run (tests/setup/e2e.ts), connected to: each test file
 * opens its own contexts in it, and `close()` closes those and disconnects, leaving the browser to
 * the other files. With `extraArgs` (flags a browser takes at its start), outside Vitest (the
 * bench) or in another project, a Chromium of its own. Under Vitest every page of its contexts,
 * `browser.newPage()`'s included, is watched for errors (see {@link watchErrors}).
 * @param extraArgs - more Chromium flags, e.g. `--host-resolver-rules=MAP brand-a.test 127.0.0.1`
 *   to reach the server under a host name of a campaign page.
 */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  const shared = process.env.VITEST && extraArgs.length === 0 ? inject('chromiumEndpoint') : undefined;
  const browser = shared ? await chromium.connect(shared) : await chromium.launch(chromiumLaunchOptions(extraArgs));
  // Under Vitest only (the bench launches its browser here too). browser.newPage() opens its
  // context through browser.newContext().
  if (!process.env.VITEST) return browser;
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...options: Parameters<Browser['newContext']>): Promise<BrowserContext> => {
    const context = await newContext(...options);
    context.on('page', watchErrors);
    return context;
  };
  if (shared) browser.newPage = pagesInKeptContexts(browser);
  return browser;
}

/** A context `browser.newPage()` keeps for the next page asked with the same options. */
interface KeptContext {
  context: BrowserContext;
  /** A page left open on the site the tests' pages were on, so that its renderer process stays. */
  keeper?: Page;
  /** The origins its pages asked anything of: their storage is cleared before the next page. */
  origins: Set<string>;
  /** Closed (by a test, or with the browser): never given again. */
  closed: boolean;
}

/**
 * `browser.newPage(options)` for the shared Chromium: a page in a context of its own, as Playwright
 * gives, whose state (cookies, storage, permissions, HTTP cache, offline) is that of a new context;
 * but the context is one a page closed before left behind, cleared, and the renderer process of its
 * site is kept for the next page (`--process-per-site`, tests/setup/e2e.ts, and a page left on the
 * site). Starting a renderer process costs this machine about 1.6 s of CPU: one per page was most
 * of the browser files' CPU. A context is given to one open page at a time.
 */
function pagesInKeptContexts(browser: Browser): Browser['newPage'] {
  const idle = new Map<string, KeptContext[]>();
  return async (options = {}) => {
    // The viewport is the page's own (set below): pages of every size share a context.
    const { viewport, ...rest } = options;
    const contextOptions = viewport === null ? options : rest;
    const key = JSON.stringify(contextOptions);
    const waiting = idle.get(key) ?? [];
    idle.set(key, waiting);
    let entry = waiting.pop();
    while (entry?.closed) entry = waiting.pop();
    if (!entry) {
      const created: KeptContext = { context: await browser.newContext(contextOptions), origins: new Set(), closed: false };
      created.context.on('close', () => (created.closed = true));
      created.context.on('request', (request) => {
        const { protocol, origin } = new URL(request.url());
        if (protocol === 'http:' || protocol === 'https:') created.origins.add(origin);
      });
      entry = created;
    }
    const { context } = entry;
    const page = await context.newPage();
    if (viewport) await page.setViewportSize(viewport);
    const closePage = page.close.bind(page);
    let given = true;
    page.close = async (closeOptions) => {
      if (!given || entry.closed) return closePage(closeOptions);
      given = false;
      const url = new URL(page.url());
      if (!entry.keeper && url.protocol === 'http:' && url.hostname === '127.0.0.1') {
        const keeper = await context.newPage();
        try {
          await keeper.goto(`${url.origin}/healthz`);
          entry.keeper = keeper;
        } catch {
          // Its server has stopped: the context closes with the page (below).
          await keeper.close();
        }
      }
      await closePage(closeOptions);
      if (!entry.keeper) return context.close();
      try {
        const session = await context.newCDPSession(entry.keeper);
        for (const origin of entry.origins) await session.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
        await session.send('Network.clearBrowserCache');
        await session.detach();
        entry.origins.clear();
        await context.clearCookies();
        await context.clearPermissions();
        await context.setOffline(false);
      } catch {
        return context.close().catch(() => undefined);
      }
      waiting.push(entry);
    };
    return page;
  };
}

/** A TCP port free on 127.0.0.1 now (the kernel's choice): for a server a test starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A running server process on a free port with its own SQLite file. */
export interface RunningServer {
  url: string;
  dbFile: string;
  /** Rows of the applications table, oldest first. */
  rows(): { id: string; page_id: string; idempotency_key: string | null; email: string; payload: string; user_agent: string | null }[];
  /** Stops the process (SIGTERM, or SIGKILL to crash it), keeping port and database for {@link RunningServer.restart}. */
  halt(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the process again on the same port and database. */
  restart(): Promise<void>;
  /** Stops the process and removes its files. */
  stop(): Promise<void>;
}

/**
 * The pattern of a record a server of {@link startServer} logs at level error or above (a store it
 * cannot reach, a count it cannot write), for a test that causes it on purpose, e.g. by cutting the
 * database, to allow it: `allowConsoleError(serverLog('store unavailable'))`. Matches the record's
 * message, whatever error it names after it.
 */
export function serverLog(message: string): RegExp {
  return new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\(|$)`);
}

/** pino's numeric level of `error` (`fatal` is 60): a record at or above it is an error the test must allow. */
const ERROR_LEVEL = 50;

/**
 * Reads a server process's output line by line: every line is kept for the running test
 * (tests/support/console-errors.ts shows them only if it fails); a log record at level error or
 * above, and any line on stderr, is reported as an error, which fails the test unless it allowed it
 * ({@link serverLog}). `stderr` lines are also kept in `lines`, for the message of a failed start.
 */
function watchServerOutput(output: Readable, source: 'stdout' | 'stderr', lines: string[]) {
  createInterface({ input: output, crlfDelay: Infinity }).on('line', (line) => {
    recordOutput(line);
    if (source === 'stderr') {
      lines.push(line);
      reportError('server stderr', line);
      return;
    }
    let record: { level?: unknown; msg?: unknown; err?: { type?: unknown; message?: unknown } } | undefined;
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      record = undefined;
    }
    if (typeof record?.level === 'number' && record.level >= ERROR_LEVEL) {
      const error = record.err ? ` (${String(record.err.type)}: ${String(record.err.message)})` : '';
      reportError('server log', `${String(record.msg)}${error}`);
    }
  });
}

/**
 * Starts the real server as `npm start` does (the compiled `build/server/server.mjs`), minus
 * the build (`npm test` and the test projects build first), with `SECRET` set to the tests' own so
 * that `xsrfPair()` makes tokens it accepts.
 *
 * Its log (pino, `LOG_LEVEL=warn` unless `env` says otherwise) and its stderr are read, not
 * printed: a passing test prints nothing of them, a failing one shows them, and an error among them
 * fails the test unless it allows it (see {@link serverLog}; decision 017).
 * @param env - extra environment, e.g. `WIZARD_CONFIG`.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!existsSync(join(ROOT, 'dist', 'index.html'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does).');
  const dir = mkdtempSync(join(tmpdir(), 'wizard-e2e-'));
  const dbFile = join(dir, 'applications.db');
  // A test that must know the address before the server starts (its PUBLIC_URL) chooses the port.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const command = serverCommand();
  /** The processes told to stop (by {@link RunningServer.halt} or `stop`), whose exit is expected. */
  const halting = new WeakSet<ChildProcess>();
  const spawnServer = async () => {
    const process_ = spawn(process.execPath, command.args, {
      cwd: ROOT,
      env: {
        ...process.env,
        ...command.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: `sqlite:${dbFile}`,
        LOG_LEVEL: 'warn',
        SECRET: TEST_SECRET,
        // Tests fill a page in less than the three seconds a person takes; the bot check's own test sets it.
        MIN_FILL_SECONDS: '0',
        // Each page a test opens solves a challenge in the background: up to a thousand digests
        // (the same path) instead of the 50 000 a phone is given, which cost about half a second of
        // CPU a page on a two-core machine, every browser file's pages together minutes of a run.
        BOT_CHECK_MAX_NUMBER: '1000',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = process_;
    const stderr: string[] = [];
    watchServerOutput(process_.stdout!, 'stdout', stderr);
    watchServerOutput(process_.stderr!, 'stderr', stderr);
    // A server that stops without being told to (halt) is an error too, once it has started: it
    // names the signal that ended it, e.g. a SIGKILL from outside the test.
    let started = false;
    process_.once('exit', (code, signal) => {
      if (started && !halting.has(process_)) reportError('server exit', `the server stopped by itself (exit code ${code}, signal ${signal})`);
    });
    // Ready once /healthz answers (a refused connection: not listening yet); a server that exits
    // first fails the start at once, with what it wrote to stderr (once its output is read).
    const exited = new Promise<never>((_, reject) =>
      process_.once('close', (code) => reject(new Error(`server exited with ${code}${stderr.length > 0 ? `: ${stderr.join('\n')}` : ''}`))),
    );
    const ready = vi.waitFor(
      async () => {
        if (!(await fetch(`${url}/healthz`)).ok) throw new Error('/healthz is not ok yet');
      },
      { timeout: 30_000, interval: 100 },
    );
    exited.catch(() => undefined);
    ready.catch(() => undefined);
    await Promise.race([ready, exited]).catch((error: unknown) => {
      throw process_.exitCode === null && process_.signalCode === null ? new Error('server did not start within 30 s', { cause: error }) : error;
    });
    started = true;
  };
  const halt = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child && child.exitCode === null && child.signalCode === null) {
      halting.add(child);
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill(signal);
      await exited;
    }
  };

  await spawnServer();
  return {
    url,
    dbFile,
    rows() {
      const db = new Database(dbFile, { readonly: true });
      try {
        return db.prepare('select * from applications order by received_at').all() as ReturnType<RunningServer['rows']>;
      } finally {
        db.close();
      }
    },
    halt,
    restart: spawnServer,
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A local HTTP endpoint standing in for the analytics and error-reporting hosts. */
export interface Collector {
  origin: string;
  port: number;
  /** Requests received so far (not OPTIONS), with their raw bodies. */
  received: { path: string; body: string }[];
  /** Mixpanel events decoded from `/track` requests. */
  events(): { event: string; properties: Record<string, unknown> }[];
  close(): Promise<void>;
}

function decodeMixpanel(body: string): { event: string; properties: Record<string, unknown> }[] {
  const data = new URLSearchParams(body).get('data') ?? body;
  const trimmed = data.trim();
  const json = trimmed.startsWith('[') || trimmed.startsWith('{') ? trimmed : Buffer.from(trimmed, 'base64').toString('utf8');
  const parsed = JSON.parse(json) as unknown;
  return (Array.isArray(parsed) ? parsed : [parsed]) as { event: string; properties: Record<string, unknown> }[];
}

/** Starts a {@link Collector} on a free loopback port; it answers 200 with permissive CORS. */
export async function startCollector(): Promise<Collector> {
  const received: Collector['received'] = [];
  const server = createHttpServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      if (request.method !== 'OPTIONS') received.push({ path: request.url ?? '', body });
      response.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*', 'Content-Type': 'application/json' });
      response.end('1');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    received,
    events: () => received.filter((r) => r.path.startsWith('/track')).flatMap((r) => decodeMixpanel(r.body)),
    // Its connections closed too: a page's context is kept for the next page (`pagesInKeptContexts`),
    // and a connection it keeps open would hold `close()` until the file's hook times out.
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Writes a configuration to a temporary file for `WIZARD_CONFIG`; returns its path. */
export function writeConfig(raw: unknown, name = 'config.json'): string {
  const file = join(mkdtempSync(join(tmpdir(), 'wizard-config-')), name);
  writeFileSync(file, JSON.stringify(raw));
  return file;
}

/** A TCP proxy to a local service, to cut and restore the connection as an outage would. */
export interface TcpProxy {
  port: number;
  /** Refuses new connections and drops open ones. */
  down(): Promise<void>;
  /** Accepts connections again on the same port (after {@link hang}: drops the silent ones first). */
  up(): Promise<void>;
  /** Goes silent: open and new connections stay open, and nothing passes either way. */
  hang(): void;
  close(): Promise<void>;
}

/** The server and browser a test file shares (see {@link useServerAndBrowser}). */
export interface ServerAndBrowser {
  readonly server: RunningServer;
  readonly browser: Browser;
}

/**
 * Starts a server and Chromium in the calling file's `beforeAll` and stops both in its `afterAll`.
 * `env` is the server's environment, or a function that prepares it (writes a configuration,
 * starts a collector) and returns it. Read `server` and `browser` in tests and later hooks only:
 * they exist once the `beforeAll` has run (hooks run in the order they are declared).
 * `browserArgs` are more Chromium flags ({@link launchBrowser}), e.g. host-resolver rules.
 */
export function useServerAndBrowser(
  env: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>) = {},
  browserArgs: readonly string[] = [],
): ServerAndBrowser {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    const environment = typeof env === 'function' ? await env() : env;
    [server, browser] = await Promise.all([startServer(environment), launchBrowser(browserArgs)]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  const started = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`the e2e ${name} is not started: read it inside a test or a later hook`);
    return value;
  };
  return {
    get server() {
      return started(server, 'server');
    },
    get browser() {
      return started(browser, 'browser');
    },
  };
}

/** Starts a {@link TcpProxy} on a free loopback port forwarding to `targetPort`. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  // While down, a connection accepted in the same tick as the close is dropped too: an outage
  // leaves no way through (the server's pool opens connections at any moment, e.g. to write counts).
  let accepting = true;
  let silent = false;
  const server = createServer((client) => {
    if (!accepting) {
      client.destroy();
      return;
    }
    sockets.add(client);
    if (silent) return void client.on('error', () => client.destroy());
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  const port = await freePort();
  const listen = () =>
    new Promise<void>((resolve) => {
      accepting = true;
      if (silent) {
        silent = false;
        for (const socket of sockets) socket.destroy();
        sockets.clear();
      }
      if (server.listening) return resolve();
      server.listen(port, '127.0.0.1', resolve);
    });
  const hang = () => {
    silent = true;
    // Sockets stay open; what arrives is read and dropped, nothing is forwarded.
    for (const socket of sockets) {
      socket.unpipe();
      socket.removeAllListeners('data');
      socket.on('data', () => undefined);
    }
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      accepting = false;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  await listen();
  return { port, down: stop, up: listen, hang, close: stop };
}

/** A server on a fresh PostgreSQL database reached through a {@link TcpProxy}, to cut the database. */
export interface ServerBehindProxy {
  server: RunningServer;
  proxy: TcpProxy;
  /** The database's direct URL (not through the proxy), for checking rows. */
  databaseUrl: string;
  stop(): Promise<void>;
}

/** Starts a {@link ServerBehindProxy}; `env` as for {@link startServer}. */
export async function startServerBehindProxy(env: Record<string, string> = {}): Promise<ServerBehindProxy> {
  const database = await createTestDatabase();
  const proxy = await startTcpProxy(Number(new URL(database.url).port || 5432));
  const url = new URL(database.url);
  url.port = String(proxy.port);
  const server = await startServer({ ...env, DATABASE_URL: url.toString() });
  return {
    server,
    proxy,
    databaseUrl: database.url,
    async stop() {
      await server.stop();
      await proxy.close();
      await database.drop();
    },
  };
}
