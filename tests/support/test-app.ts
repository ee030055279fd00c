import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/server/app';
import { SESSION_COOKIE } from '../../src/server/constants';
import { openStore, type Store } from '../../src/server/store/store';
import { defaultConfig } from '../factories/application';
import { fillApplications } from '../factories/fill';
import type { ExecDatabase } from './databases';
import { TEST_SECRET } from './xsrf';
import { createTestUser } from './users';

/** The smallest page shell `buildApp` serves: a title, a style sheet, the marker the page's configuration replaces and the root element. */
const PAGE_SHELL =
  '<!doctype html><html lang="en"><head><title>W</title><link rel="stylesheet" crossorigin href="/assets/index-test.css"><!--wizard-config--></head><body><div id="root"></div></body></html>';

/** A temporary folder for one test file's server, with a `dist/` it can serve. */
export interface TestDist {
  /** The temporary folder itself (a SQLite file may live here too). */
  dir: string;
  /** `<dir>/dist`: `buildApp`'s `distDir`. */
  distDir: string;
  /** Deletes the folder and all in it. */
  remove(): void;
}

/**
 * Makes a temporary folder holding `dist/index.html` (the page shell) and, with `admin`, the
 * inbox's `dist/admin/index.html` and one hashed asset (`dist/admin/assets/index-abc123.js`).
 * @param prefix - the start of the folder's name under the OS's temporary folder.
 */
export function testDist(prefix: string, options: { admin?: boolean } = {}): TestDist {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const distDir = join(dir, 'dist');
  mkdirSync(distDir, { recursive: true });
  writeFileSync(join(distDir, 'index.html'), PAGE_SHELL);
  if (options.admin) {
    mkdirSync(join(distDir, 'admin', 'assets'), { recursive: true });
    writeFileSync(join(distDir, 'admin', 'index.html'), '<!doctype html><html lang="en"><head><title>Inbox</title></head><body></body></html>');
    writeFileSync(join(distDir, 'admin', 'assets', 'index-abc123.js'), 'console.log(1)');
  }
  return { dir, distDir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Signs `user` in to the inbox through the real route and returns the `Cookie` header value that
 * carries its session (`<SESSION_COOKIE>=<value>`).
 * @throws Error when the sign-in is refused.
 */
export async function inboxSessionCookie(app: FastifyInstance, user: { email: string; password: string }): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/admin/session', payload: user });
  const session = response.cookies.find((cookie) => cookie.name === SESSION_COOKIE);
  if (!session) throw new Error(`signing ${user.email} in answered ${response.statusCode}: ${response.body}`);
  return `${SESSION_COOKIE}=${session.value}`;
}

/**
 * Signs `user` in to the inbox through the real route, as a browser would for the inbox's writes:
 * the `Cookie` header value with its session and its anti-forgery cookie, and the token the
 * `X-XSRF-TOKEN` header must repeat.
 * @throws Error when the sign-in is refused.
 */
export async function inboxSession(app: FastifyInstance, user: { email: string; password: string }): Promise<{ cookie: string; xsrf: string }> {
  const response = await app.inject({ method: 'POST', url: '/api/admin/session', payload: user });
  const session = response.cookies.find((cookie) => cookie.name === SESSION_COOKIE);
  const xsrf = response.cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value;
  if (!session || xsrf === undefined) throw new Error(`signing ${user.email} in answered ${response.statusCode}: ${response.body}`);
  return { cookie: `${SESSION_COOKIE}=${session.value}; XSRF-TOKEN=${xsrf}`, xsrf };
}

/** A signed-in inbox over a filled store, served over real HTTP ({@link filledInboxServer}). */
export interface FilledInbox {
  database: ExecDatabase;
  store: Store;
  app: FastifyInstance;
  /** `http://127.0.0.1:<port>`. */
  address: string;
  /** The `Cookie` header value of a viewer's session. */
  cookie: string;
  /** `buildApp`'s `distDir`, for a second server over the same store. */
  distDir: string;
  /** Closes the server and the store, drops the database and deletes the temporary folder. */
  close(): Promise<void>;
}

/** The viewer {@link filledInboxServer} signs in. */
export const TEST_VIEWER = { email: 'viewer@brand.example', password: 'viewer password 1' };

/**
 * Opens a store on a new database, fills it with `rows` applications (`fillApplications`), lets
 * `seed` add what the test needs, creates {@link TEST_VIEWER}, and serves the app (default page
 * configuration, {@link TEST_SECRET}, `app` options) on a free port with the viewer signed in.
 * @param database - makes the test's database (`sqliteExecDatabase`, `postgresExecDatabase`).
 */
export async function filledInboxServer(options: {
  database: () => Promise<ExecDatabase>;
  rows: number;
  /** The free-text answer's length in characters (`fillApplications`). */
  answerLength?: number;
  seed?: (store: Store, database: ExecDatabase) => Promise<void>;
  app?: Partial<AppOptions>;
}): Promise<FilledInbox> {
  const database = await options.database();
  const dist = testDist('inbox-dist-');
  const store = await openStore(database.url);
  const close = async (app?: FastifyInstance) => {
    await app?.close();
    await store.close();
    await database.drop();
    dist.remove();
  };
  try {
    await fillApplications(store, options.rows, options.answerLength);
    await options.seed?.(store, database);
    await createTestUser(store, TEST_VIEWER, 'viewer');
  } catch (error) {
    await close();
    throw error;
  }
  const app = await buildApp({ config: defaultConfig(), store, distDir: dist.distDir, secret: TEST_SECRET, ...options.app });
  try {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const cookie = await inboxSessionCookie(app, TEST_VIEWER);
    return { database, store, app, address, cookie, distDir: dist.distDir, close: () => close(app) };
  } catch (error) {
    await close(app);
    throw error;
  }
}
