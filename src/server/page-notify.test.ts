import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PageDetail } from '../shared/pages';
import { escapeHtml } from '../shared/html';
import { DEFAULT_MESSAGES } from '../shared/messages';
import { defaultConfig, validPayload } from '../../tests/factories/application';
import { startServer, type RunningServer } from '../../tests/e2e/support';
import { postgresExecDatabase, type ExecDatabase } from '../../tests/support/databases';
import { testDist } from '../../tests/support/test-app';
import { TEST_SECRET, xsrfPair } from '../../tests/support/xsrf';
import { buildApp } from './app';
import { PAGES_CHANNEL } from './store/page-notify';
import { openStore, type Store } from './store/store';
import { createTestUser } from '../../tests/support/users';

const EDITOR = { email: 'editor@brand.example', password: 'editor password 1' };
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
/** The closed page's message in place of the wizard (the wizard's inlined configuration holds the text too). */
const isClosedPage = (html: string) =>
  html.includes(`<main class="closed-page"><h1>${escapeHtml(titleOf(html) ?? '')}</h1><p>${escapeHtml(DEFAULT_MESSAGES.closed)}</p></main>`);
/** The statement the listening connections last ran: how the test finds their backends. */
const LISTENERS = `select pid from pg_stat_activity where datname = current_database() and query = 'listen ${PAGES_CHANNEL}'`;

describe('page changes between processes on PostgreSQL (LISTEN/NOTIFY)', () => {
  let database: ExecDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await postgresExecDatabase();
    store = await openStore(database.url);
    await createTestUser(store, EDITOR, 'editor');
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('a listener hears every notification, and after its connection drops, connects again and says it may have missed some', async () => {
    const changed: string[] = [];
    let missed = 0;
    const errors: unknown[] = [];
    const listener = await store.pageChanges!.listen({
      changed: (id) => changed.push(id),
      missed: () => void (missed += 1),
      error: (error) => errors.push(error),
    });
    try {
      expect(listener.listening).toBe(true);
      await store.pageChanges!.notify('summer');
      await vi.waitFor(() => expect(changed).toEqual(['summer']), { timeout: 2000, interval: 10 });
      // PostgreSQL ends the backend, as a restart or a failing network would.
      await database.exec(`select pg_terminate_backend(pid) from (${LISTENERS}) as listeners`);
      await vi.waitFor(() => expect(missed).toBe(1), { timeout: 5000, interval: 10 });
      expect(errors.length).toBeGreaterThan(0);
      await store.pageChanges!.notify('winter');
      await vi.waitFor(() => expect(changed).toEqual(['summer', 'winter']), { timeout: 2000, interval: 10 });
    } finally {
      await listener.close();
    }
    expect(listener.listening).toBe(false);
    expect(await database.query(LISTENERS)).toEqual([]);
  });

  it('an app listens on a connection of its own from its start, and ends it when it closes', async () => {
    const dist = testDist('page-notify-');
    try {
      const before = (await database.query(LISTENERS)).length;
      const app = await buildApp({ config: defaultConfig(), store, distDir: dist.distDir, secret: TEST_SECRET });
      expect(await database.query(LISTENERS)).toHaveLength(before + 1);
      await app.close();
      await vi.waitFor(async () => expect(await database.query(LISTENERS)).toHaveLength(before), { timeout: 2000, interval: 20 });
    } finally {
      dist.remove();
    }
  });

  describe('two server processes', () => {
    let servers: RunningServer[] = [];
    let session: { cookie: string; xsrf: string };

    beforeAll(async () => {
      // The store above migrated the database: both processes start on it.
      // What each process serves and takes, not who sends it: no bot check (docs/decisions/032).
      const env = { DATABASE_URL: database.url, BOT_CHECK: 'off' };
      servers = await Promise.all([startServer(env), startServer(env)]);
      const signedIn = await fetch(`${servers[0]!.url}/api/admin/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(EDITOR),
      });
      expect(signedIn.status).toBe(204);
      const cookies = signedIn.headers.getSetCookie().map((line) => line.split(';')[0]!);
      const xsrf = decodeURIComponent(cookies.find((cookie) => cookie.startsWith('XSRF-TOKEN='))!.slice('XSRF-TOKEN='.length));
      session = { cookie: cookies.join('; '), xsrf };
    });
    afterAll(async () => {
      await Promise.all(servers.map((server) => server.stop()));
    });

    /** The admin pages API of the first process: the answer's JSON, and when it came (ms). */
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${servers[0]!.url}/api/admin${path}`, {
        method,
        headers: { cookie: session.cookie, 'x-xsrf-token': session.xsrf, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const answeredAt = performance.now();
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      return { json: (await response.json()) as PageDetail, answeredAt };
    };
    /** Polls the second process's `GET /?page=summer` until `done` holds; ms from `since` to that answer. */
    const servedWithin = async (since: number, done: (html: string) => boolean) => {
      for (;;) {
        const html = await (await fetch(`${servers[1]!.url}/?page=summer`)).text();
        if (done(html)) return performance.now() - since;
        if (performance.now() - since > 5000) throw new Error('not served within 5 s');
        await new Promise((resolve) => setImmediate(resolve));
      }
    };

    it("serves a page published through one process from the other within a second, and the other's changes too", async () => {
      const { json: created } = await call('POST', '/pages', { id: 'summer', from: 'default' });
      await call('PUT', '/pages/summer/draft', { config: { ...(created.draft as object), title: 'Summer creators' }, revision: created.revision });
      expect(titleOf(await (await fetch(`${servers[1]!.url}/?page=summer`)).text())).not.toBe('Summer creators');

      const published = await call('POST', '/pages/summer/publish', { revision: created.revision + 1 });
      expect(await servedWithin(published.answeredAt, (html) => titleOf(html) === 'Summer creators')).toBeLessThan(1000);

      // Closed through the first process: the second says so, and its submit answers 410.
      const closed = await call('PATCH', '/pages/summer', { status: 'closed' });
      expect(await servedWithin(closed.answeredAt, isClosedPage)).toBeLessThan(1000);
      const xsrf = xsrfPair();
      const submitted = await fetch(`${servers[1]!.url}/api/syncPage/summer`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...xsrf.headers },
        body: JSON.stringify(validPayload()),
      });
      expect(submitted.status).toBe(410);

      // A rollback too.
      const { json: page } = await call('GET', '/pages/summer');
      await call('PUT', '/pages/summer/draft', { config: { ...(page.draft as object), title: 'Summer, second take' }, revision: page.revision });
      await call('POST', '/pages/summer/publish', { revision: page.revision + 1 });
      await call('PATCH', '/pages/summer', { status: 'published' });
      await servedWithin(performance.now(), (html) => titleOf(html) === 'Summer, second take');
      const rolledBack = await call('POST', '/pages/summer/versions/1/publish');
      expect(await servedWithin(rolledBack.answeredAt, (html) => titleOf(html) === 'Summer creators')).toBeLessThan(1000);
    });

    it('closes a page at its cap in every process: the one that reaches it tells the others', async () => {
      const { json: page } = await call('GET', '/pages/summer');
      await call('PATCH', '/pages/summer', { maxApplications: page.applications + 1 });
      const xsrf = xsrfPair();
      // The second process still counts what it read; the first takes the last application.
      const submitted = await fetch(`${servers[0]!.url}/api/syncPage/summer`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...xsrf.headers },
        body: JSON.stringify(validPayload()),
      });
      expect(submitted.status).toBe(201);
      expect(await servedWithin(performance.now(), isClosedPage)).toBeLessThan(1000);
    });

    it('holds a cap exactly across the two processes: 20 submits at once, 10 to each, to a page with room for 10 store 10 (decision 021, the fifth outside attack, F2)', async () => {
      const { json: page } = await call('GET', '/pages/summer');
      await call('PATCH', '/pages/summer', { maxApplications: page.applications + 10 });
      const xsrf = xsrfPair();
      const statuses = await Promise.all(
        Array.from({ length: 20 }, async (_, index) => {
          const response = await fetch(`${servers[index % 2]!.url}/api/syncPage/summer`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json', ...xsrf.headers },
            body: JSON.stringify(validPayload()),
          });
          return response.status;
        }),
      );
      expect(statuses.filter((status) => status === 201)).toHaveLength(10);
      expect(statuses.filter((status) => status === 410)).toHaveLength(10);
      expect(await database.query(`select id from applications where page_id = 'summer'`)).toHaveLength(page.applications + 10);
      // Both now say the page is closed.
      expect(await servedWithin(performance.now(), isClosedPage)).toBeLessThan(1000);
    });
  });
});
