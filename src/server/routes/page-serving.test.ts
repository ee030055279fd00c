import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageDetail } from '../../shared/pages';
import type { ProblemDetails } from '../../shared/problem';
import { escapeHtml } from '../../shared/html';
import { DEFAULT_MESSAGES } from '../../shared/messages';
import { defaultConfig, validPayload } from '../../../tests/factories/application';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import { TEST_SECRET, xsrfPair } from '../../../tests/support/xsrf';
import { buildApp } from '../app';
import { SESSION_COOKIE } from '../constants';
import { openStore, type Store } from '../store/store';
import { createTestUser } from '../../../tests/support/users';

const EDITOR = { email: 'editor@brand.example', password: 'editor password 1' };
/** The built page's shape: a style sheet, the root, the noscript line, the configuration's marker and the inline first script. */
const TEMPLATE =
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Creator application</title><link rel="stylesheet" crossorigin href="/assets/index-abc.css"></head>' +
  '<body><div id="root"></div><noscript>This application form needs JavaScript.</noscript><!--wizard-config--><script type="module">boot()</script></body></html>';
const BOOT_HASH = `'sha256-${createHash('sha256').update('boot()').digest('base64')}'`;
/** The default page's title as its `<title>` writes it. */
const DEFAULT_TITLE = escapeHtml(defaultConfig().title);
const THEME = { primary: '#0f6b66', surface: '#fffaf3', text: '#1d2327', radius: 16 };

describe.each([
  ['SQLite', () => sqliteExecDatabase('page-serving-')],
  ['PostgreSQL', postgresExecDatabase],
])('GET / serves stored pages by host name and ?page= on %s', (_name, createDatabase) => {
  let database: ExecDatabase;
  let dir: string;
  let store: Store;
  let app: Awaited<ReturnType<typeof buildApp>>;
  /** The time the app reads, in ms: moved by the tests, never waited for. */
  let now = Date.parse('2026-12-01T12:00:00Z');
  let session: { cookie: string; xsrf: string };

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown) => {
    const response = await app.inject({
      method,
      url: `/api/admin${url}`,
      headers: { cookie: session.cookie, 'x-xsrf-token': session.xsrf },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json<PageDetail>();
  };
  /** Creates page `id` from the default page with `changes` to its configuration and publishes it; its host names. */
  const publish = async (id: string, changes: Record<string, unknown>, hosts?: string[]) => {
    const created = await call('POST', '/pages', { id, from: 'default' });
    await call('PUT', `/pages/${id}/draft`, { config: { ...(created.draft as object), ...changes }, revision: created.revision });
    await call('POST', `/pages/${id}/publish`, { revision: created.revision + 1 });
    if (hosts) await call('PATCH', `/pages/${id}`, { hosts });
  };
  const get = (url: string, host = 'apply.example.org', method: 'GET' | 'HEAD' = 'GET') => app.inject({ method, url, headers: { host } });
  const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
  const submit = (pageId: string) =>
    app.inject({
      method: 'PUT',
      url: `/api/syncPage/${pageId}`,
      headers: { ...xsrfPair().headers, 'content-type': 'application/json' },
      payload: JSON.stringify(validPayload()),
    });

  beforeAll(async () => {
    database = await createDatabase();
    dir = mkdtempSync(join(tmpdir(), 'page-serving-'));
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'index.html'), TEMPLATE);
    store = await openStore(database.url, { clock: () => now });
    await createTestUser(store, EDITOR, 'editor');
    app = await buildApp({ config: defaultConfig(), store, distDir: join(dir, 'dist'), rateLimitPerMinute: 10_000, secret: TEST_SECRET, clock: () => now });
    const signedIn = await app.inject({ method: 'POST', url: '/api/admin/session', payload: EDITOR });
    const xsrf = signedIn.cookies.find((c) => c.name === 'XSRF-TOKEN')!.value;
    session = { cookie: `${SESSION_COOKIE}=${signedIn.cookies.find((c) => c.name === SESSION_COOKIE)!.value}; XSRF-TOKEN=${xsrf}`, xsrf };
    const base = defaultConfig();
    await publish('brand-a', { title: 'Brand A creators', styleConfig: { ...base.styleConfig, theme: THEME } }, ['brand-a.test', 'apply.brand-a.test']);
    await publish(
      'brand-b',
      {
        title: 'Brand B creators',
        analytics: { token: 't', host: 'https://api-eu.mixpanel.example' },
        messages: { closed: 'Brand B ne prend plus de candidatures.' },
      },
      ['brand-b.test'],
    );
    await call('POST', '/pages', { id: 'draft-only', from: 'default' });
    await call('PATCH', '/pages/draft-only', { hosts: ['draft.test'] });
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves a page at the root of its host names, whatever the case, port or trailing dot', async () => {
    for (const host of ['brand-a.test', 'apply.brand-a.test', 'Brand-A.TEST:8080', 'brand-a.test.', 'BRAND-A.test.:443']) {
      const response = await get('/', host);
      expect(response.statusCode, host).toBe(200);
      expect(titleOf(response.body), host).toBe('Brand A creators');
    }
    expect(titleOf((await get('/', 'brand-b.test')).body)).toBe('Brand B creators');
    // Another host, or a host of a page never published: the default page.
    expect(titleOf((await get('/', 'apply.example.org')).body)).toBe(DEFAULT_TITLE);
    expect(titleOf((await get('/', 'draft.test')).body)).toBe(DEFAULT_TITLE);
    // The configuration inlined is the page's: its submits go to its own id.
    expect((await get('/', 'brand-a.test')).body).toContain('"pageId":"brand-a"');
  });

  it('believes X-Forwarded-Host only from a proxy TRUST_PROXY trusts', async () => {
    const forwarded = { host: 'apply.example.org', 'x-forwarded-host': 'brand-b.test' };
    // inject() connects from 127.0.0.1: not trusted by this app, trusted by the one below.
    const direct = await app.inject({ method: 'GET', url: '/', headers: forwarded });
    expect(titleOf(direct.body)).toBe(DEFAULT_TITLE);
    expect(direct.headers.vary ?? '').not.toMatch(/x-forwarded-host/i);
    const behindProxy = await buildApp({
      config: defaultConfig(),
      store,
      distDir: join(dir, 'dist'),
      secret: TEST_SECRET,
      clock: () => now,
      trustProxy: ['127.0.0.1'],
    });
    try {
      const proxied = await behindProxy.inject({ method: 'GET', url: '/', headers: forwarded });
      expect(titleOf(proxied.body)).toBe('Brand B creators');
      // The page depends on the header: a cache keeps one per host (decision 021, the fifth outside attack, F8).
      expect(proxied.headers.vary).toMatch(/(^|, *)X-Forwarded-Host(,|$)/i);
      expect(titleOf((await behindProxy.inject({ method: 'GET', url: '/', headers: { ...forwarded, 'x-forwarded-host': 'Brand-A.test:443' } })).body)).toBe(
        'Brand A creators',
      );
    } finally {
      await behindProxy.close();
    }
  });

  it('refuses a request with two Host headers, 400 (RFC 9112 §3.2; decision 021, the fifth outside attack, F8)', async () => {
    const server = await buildApp({ config: defaultConfig(), store, distDir: join(dir, 'dist'), secret: TEST_SECRET, clock: () => now });
    try {
      await server.listen({ port: 0, host: '127.0.0.1' });
      const { port } = server.server.address() as AddressInfo;
      const ask = (headers: string) =>
        new Promise<string>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () => socket.end(`GET / HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`));
          let text = '';
          socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
          socket.on('end', () => resolve(text));
          socket.on('error', reject);
        });
      expect(await ask('Host: apply.example.org\r\nHost: brand-b.test\r\n')).toMatch(/^HTTP\/1\.1 400 .*application\/problem\+json.*Host header/s);
      expect(await ask('Host: brand-b.test\r\n')).toMatch(/^HTTP\/1\.1 200 .*<title>Brand B creators<\/title>/s);
    } finally {
      await server.close();
    }
  });

  it('serves ?page={id} on any other host; an unknown or unpublished id gets the default page', async () => {
    expect(titleOf((await get('/?page=brand-b')).body)).toBe('Brand B creators');
    expect(titleOf((await get('/?page=brand-a&utm_source=x')).body)).toBe('Brand A creators');
    for (const url of ['/?page=nothing', '/?page=draft-only', `/?page=${defaultConfig().pageId}`, '/?page=', '/?page=brand-a&page=brand-b']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(titleOf(response.body), url).toBe(DEFAULT_TITLE);
    }
    // A brand's own host name shows its own page only.
    expect(titleOf((await get('/?page=brand-b', 'brand-a.test')).body)).toBe('Brand A creators');
  });

  it('redirects every other path to the root, keeping the page ?page= names and nothing else', async () => {
    const redirect = await get('/apply?page=brand-b&x=1');
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe('/?page=brand-b');
    expect((await get('/apply?page=<script>')).headers.location).toBe('/');
    expect((await get('/a/b?c=d')).headers.location).toBe('/');
  });

  it("sends each page's own Content Security Policy with helmet's other headers", async () => {
    const a = await get('/', 'brand-a.test');
    const b = await get('/', 'brand-b.test');
    const byDefault = await get('/');
    const policies = [a, b, byDefault].map((response) => String(response.headers['content-security-policy']));
    expect(new Set(policies).size).toBe(3);
    for (const policy of policies) {
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain(`script-src 'self' ${BOOT_HASH};`);
      expect(policy).not.toContain('unsafe-inline');
    }
    // A's theme by its hash; B's analytics host.
    const css = /<style>([^<]*)<\/style>/.exec(a.body)![1]!;
    expect(policies[0]).toContain(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    expect(policies[1]).toContain("connect-src 'self' https://api-eu.mixpanel.example");
    expect(policies[2]).not.toContain('mixpanel');
    // The same headers as helmet sends on other documents, the policy apart.
    const other = await get('/robots.txt');
    const security = (headers: Record<string, unknown>) =>
      Object.keys(headers)
        .filter((name) => /^(content-security-policy|cross-origin|origin-agent|referrer|strict-transport|x-(?!xsrf))/.test(name))
        .sort();
    expect(security(a.headers)).toEqual(security(other.headers));
    for (const name of security(other.headers).filter((name) => name !== 'content-security-policy')) expect(a.headers[name], name).toBe(other.headers[name]);
    expect(a.headers['cache-control']).toBe('no-cache');
    expect(a.cookies.map((c) => c.name)).toContain('XSRF-TOKEN');
  });

  it("counts a stored page's funnel beacons against its served version's steps", async () => {
    const beacon = (pageId: string, step: number) => app.inject({ method: 'POST', url: `/api/funnel/${pageId}`, payload: { event: 'stepReached', step } });
    expect((await beacon('brand-a', 1)).statusCode).toBe(204);
    expect((await beacon('brand-a', defaultConfig().steps.length)).statusCode).toBe(400);
    expect((await beacon('draft-only', 1)).statusCode).toBe(404);
    expect((await beacon('nothing', 1)).statusCode).toBe(404);
  });

  it('answers HEAD as GET, without the body', async () => {
    const head = await get('/', 'brand-b.test', 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-security-policy']).toBe((await get('/', 'brand-b.test')).headers['content-security-policy']);
  });

  it('serves a closed page in its own words, without the wizard, by status, dates and cap', async () => {
    const closedPage = async (host: string) => {
      const response = await get('/', host);
      expect(response.statusCode).toBe(200);
      return response;
    };
    const isClosed = async (host: string) => (await closedPage(host)).body.includes('<main class="closed-page">');
    await call('PATCH', '/pages/brand-b', { status: 'closed' });
    const closed = await closedPage('brand-b.test');
    expect(closed.body).toContain('<p>Brand B ne prend plus de candidatures.</p>');
    expect(titleOf(closed.body)).toBe('Brand B creators');
    expect(closed.body).not.toContain('<script');
    expect(closed.body).not.toContain('<noscript');
    expect(closed.body).toContain('href="/assets/index-abc.css"');
    expect(String(closed.headers['content-security-policy'])).toContain("script-src 'self';");
    // Its submit says the same.
    const refused = await submit('brand-b');
    expect(refused.statusCode).toBe(410);
    expect(refused.json<ProblemDetails>().detail).toBe('Brand B ne prend plus de candidatures.');
    await call('PATCH', '/pages/brand-b', { status: 'published' });
    expect(await isClosed('brand-b.test')).toBe(false);

    // Dates, at the app's clock: closed before it opens and from when it closes.
    const hour = 3_600_000;
    await call('PATCH', '/pages/brand-a', { opensAt: new Date(now + hour).toISOString(), closesAt: new Date(now + 3 * hour).toISOString() });
    expect(await isClosed('brand-a.test')).toBe(true);
    now += 2 * hour;
    expect(await isClosed('brand-a.test')).toBe(false);
    now += hour;
    const after = await closedPage('brand-a.test');
    expect(after.body).toContain(`<p>${escapeHtml(DEFAULT_MESSAGES.closed)}</p>`);
    // The closed form keeps the page's theme, allowed by its hash.
    const css = /<style>([^<]*)<\/style>/.exec(after.body)![1]!;
    expect(String(after.headers['content-security-policy'])).toContain(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    await call('PATCH', '/pages/brand-a', { opensAt: null, closesAt: null });

    // The cap: closed once it holds that many applications.
    const { applications } = await call('GET', '/pages/brand-a');
    await call('PATCH', '/pages/brand-a', { maxApplications: applications + 1 });
    expect(await isClosed('brand-a.test')).toBe(false);
    expect((await submit('brand-a')).statusCode).toBe(201);
    expect(await isClosed('brand-a.test')).toBe(true);
    await call('PATCH', '/pages/brand-a', { maxApplications: null });
    expect(await isClosed('brand-a.test')).toBe(false);
  });

  it('serves the version published now: a new version replaces the cached one, and so does a rollback', async () => {
    const page = await call('GET', '/pages/brand-a');
    await call('PUT', '/pages/brand-a/draft', { config: { ...(page.draft as object), title: 'Brand A, second season' }, revision: page.revision });
    const before = await get('/', 'brand-a.test');
    expect(titleOf(before.body)).toBe('Brand A creators');
    await call('POST', '/pages/brand-a/publish', { revision: page.revision + 1 });
    const second = await get('/', 'brand-a.test');
    expect(titleOf(second.body)).toBe('Brand A, second season');
    expect(titleOf((await get('/?page=brand-a')).body)).toBe('Brand A, second season');
    await call('POST', '/pages/brand-a/versions/1/publish');
    const rolledBack = await get('/', 'brand-a.test');
    expect(titleOf(rolledBack.body)).toBe('Brand A creators');
    expect(rolledBack.body).toBe(before.body);
    // Host names moved to another page are served as that page's at once.
    await call('PATCH', '/pages/brand-a', { hosts: ['brand-a.test'] });
    await call('PATCH', '/pages/brand-b', { hosts: ['brand-b.test', 'apply.brand-a.test'] });
    expect(titleOf((await get('/', 'apply.brand-a.test')).body)).toBe('Brand B creators');
  });
});
