import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE } from '../../src/server/routes/admin';

/** The smallest page shell `buildApp` serves: a title and the marker the page's configuration replaces. */
const PAGE_SHELL = '<!doctype html><html lang="en"><head><title>W</title><!--wizard-config--></head><body></body></html>';

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
