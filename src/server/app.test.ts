import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { renderPage } from './routes/page';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultConfig, rawDefaultConfig, validPayload } from '../../tests/factories/application';
import { parseWizardConfig } from '../shared/config';
import { flagUrl } from '../shared/data/flags';
import { phoneMetadataUrl } from '../shared/phone-metadata';
import { z } from '../shared/zod';
import { buildApp } from './app';
import type { TrustProxy } from './env';
import { openStore, type Store } from './store/store';
import { TEST_SECRET, xsrfPair } from '../../tests/support/xsrf';
import { synchronousWork } from '../../tests/support/synchronous-work';
import { LIBRARY_STYLE_HASHES } from './plugins/security-headers';

/** Every log line the app writes, parsed. */
const logLines: Record<string, unknown>[] = [];
const logStream = { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) };
let dir: string;
let store: Store;
let app: Awaited<ReturnType<typeof buildApp>>;
const { token: TOKEN, headers: xsrfHeaders } = xsrfPair();
const headers = { ...xsrfHeaders, 'content-type': 'application/json' };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wizard-server-'));
  const dist = join(dir, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><html lang="en"><head><title>Wizard</title><!--wizard-config--></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(dist, 'assets', 'main-abc123.js'), 'console.log(1)');
  // The build's Brotli and gzip copies beside it (vite.precompressed.ts).
  writeFileSync(join(dist, 'assets', 'main-abc123.js.br'), brotliCompressSync('console.log(1)'));
  writeFileSync(join(dist, 'assets', 'main-abc123.js.gz'), gzipSync('console.log(1)'));
  mkdirSync(join(dist, flagUrl('GB'), '..'), { recursive: true });
  writeFileSync(join(dist, flagUrl('GB')), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 480"/>');
  mkdirSync(join(dist, phoneMetadataUrl('44'), '..'), { recursive: true });
  writeFileSync(
    join(dist, phoneMetadataUrl('44')),
    JSON.stringify({ version: 4, country_calling_codes: { 44: ['GB'] }, countries: { GB: ['44', '00', '7\\d{9}'] }, nonGeographic: {} }).repeat(40),
  );
  store = await openStore(`sqlite:${join(dir, 'data', 'applications.db')}`);
  const raw = rawDefaultConfig();
  raw.title = 'Apply </title><script>alert(1)</script>';
  raw.steps[0].blocks[0].data.html = '<h1>Hi $& there</h1></script><script>alert(2)</script><p>Apply in <a href="/x" onclick="alert(3)">two steps</a>.</p>';
  const config = { ...parseWizardConfig(raw).config!, lang: 'en-GB' };
  app = await buildApp({ config, store, distDir: dist, rateLimitPerMinute: 10_000, secret: TEST_SECRET, logger: { level: 'info', stream: logStream } });
});

afterAll(async () => {
  await app.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const put = (body: unknown, extra: Record<string, string> = {}, pageId = 'creators') =>
  app.inject({
    method: 'PUT',
    url: `/api/syncPage/${pageId}`,
    headers: { ...headers, ...extra },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

const rowCount = () => {
  const db = new Database(join(dir, 'data', 'applications.db'), { readonly: true });
  try {
    return (db.prepare('select count(*) as n from applications').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('GET / (requirements §13)', () => {
  it("says in the page's language that the form needs JavaScript (noScript)", () => {
    const base = defaultConfig();
    const template =
      '<!doctype html><html lang="en"><head><title>x</title></head><body><noscript>This application form needs JavaScript.</noscript><div id="root"></div></body></html>';
    const french = renderPage(template, { ...base, lang: 'fr', messages: { ...base.messages, noScript: 'Ce formulaire a besoin de <JavaScript>.' } });
    expect(french).toContain('<noscript>Ce formulaire a besoin de &#60;JavaScript&#62;.</noscript>');
    expect(french).not.toContain('This application form');
  });

  it('serves the page with title, lang and the configuration inlined as inert JSON, and sets the XSRF cookie', async () => {
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('<html lang="en-GB">');
    expect(response.body).toContain('<title>Apply &#60;/title&#62;&#60;script&#62;alert(1)&#60;/script&#62;</title>');
    expect(response.body).toMatch(/<script type="application\/json" id="wizard-config">\{.*"pageId":"creators"/);
    expect(response.body).not.toContain('</script><script>alert(2)');
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/^XSRF-TOKEN=[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}; Path=\/; SameSite=Strict$/);
  });

  it('compresses the page and assets for clients that accept it, and preloads the first cover image', async () => {
    const page = await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br, gzip' } });
    expect(page.headers['content-encoding']).toBe('br');
    const plain = await app.inject({ method: 'GET', url: '/' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(brotliDecompressSync(page.rawPayload).toString()).toBe(plain.body);
    // Compressed once for the page's version: the same bytes for the next browser, and gzip's own.
    expect((await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } })).rawPayload).toEqual(page.rawPayload);
    const gzip = await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br;q=0, GZIP' } });
    expect([gzip.headers['content-encoding'], gunzipSync(gzip.rawPayload).toString()]).toEqual(['gzip', plain.body]);
    for (const answer of [page, plain, gzip]) expect(answer.headers.vary).toBe('Accept-Encoding');
    expect((await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'identity' } })).body).toBe(plain.body);
    // A refusal holds against the wildcard.
    expect((await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br;q=0, *' } })).headers['content-encoding']).toBe('gzip');
    const head = plain.body.slice(0, plain.body.indexOf('</head>'));
    expect(head).toContain(
      '<link rel="preload" as="image" imageSrcSet="/images/cover-1-480.webp 480w, /images/cover-1-640.webp 640w, /images/cover-1-800.webp 800w, /images/cover-1-960.webp 960w" imageSizes="(max-width: 979px) 100vw, min(40vw, 960px)" fetchPriority="high"/>',
    );
    const asset = await app.inject({ method: 'GET', url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(asset.statusCode).toBe(200);
  });

  it('renders the first step on the server: heading, cover <img>, step bar, Continue, meta description; configuration HTML sanitised', async () => {
    const { body } = await app.inject({ method: 'GET', url: '/' });
    const root = body.slice(body.indexOf('<div id="root">'), body.lastIndexOf('</body>'));
    expect(root).toContain('<h1>Hi $&amp; there</h1>');
    expect(root).toMatch(
      /<img src="\/images\/cover-1-960\.webp" srcSet="\/images\/cover-1-480\.webp 480w, [^"]*960w" sizes="\(max-width: 979px\) 100vw, min\(40vw, 960px\)" alt="" fetchPriority="high" decoding="async"\/>/,
    );
    expect(root).toContain('<li class="step-bar-item active" aria-current="step">');
    expect(root).toContain('<button type="submit" class="button button-primary">Continue</button>');
    // Sanitised by the server: no script, no handler; links open a new tab.
    expect(root).toContain('<p>Apply in <a href="/x" target="_blank" rel="noopener noreferrer">two steps</a>.</p>');
    expect(root).not.toMatch(/alert\([23]\)|<script|onclick/);
    // The description defaults to the first step's text.
    expect(body).toContain('<meta name="description" content="Hi $&#38; there. Apply in two steps.">');
    // The inlined configuration carries the same sanitised HTML.
    const json = /<script type="application\/json" id="wizard-config">(.*?)<\/script>/.exec(body)![1]!;
    const inlined = JSON.parse(json) as { steps: { blocks: { data: { html: string } }[] }[] };
    expect(inlined.steps[0]!.blocks[0]!.data.html).toBe(
      '<h1>Hi $&amp; there</h1><p>Apply in <a href="/x" target="_blank" rel="noopener noreferrer">two steps</a>.</p>',
    );
    expect(json).not.toContain('</');
  });

  it('answers /robots.txt as text/plain: the page may be indexed, the inbox and the API not', async () => {
    const response = await app.inject({ method: 'GET', url: '/robots.txt' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body.split('\n')).toEqual(['User-agent: *', 'Allow: /', 'Disallow: /admin', 'Disallow: /api/', 'Disallow: /preview/', '']);
  });

  it('keeps an existing token it signed, and replaces a made-up or foreign one', async () => {
    const kept = await app.inject({ method: 'GET', url: '/', headers: { cookie: `XSRF-TOKEN=${TOKEN}` } });
    expect(kept.headers['set-cookie']).toBeUndefined();
    for (const planted of ['a'.repeat(43), xsrfPair('', 'another server secret, also 32 characters').token]) {
      const replaced = await app.inject({ method: 'GET', url: '/', headers: { cookie: `XSRF-TOKEN=${planted}` } });
      expect(String(replaced.headers['set-cookie'])).toMatch(/^XSRF-TOKEN=[A-Za-z0-9_-]{43}\./);
      expect(String(replaced.headers['set-cookie'])).not.toContain(planted);
    }
  });

  it('serves hashed assets as immutable', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/main-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves the flags as immutable SVG files, which the page may show (img-src self)', async () => {
    const response = await app.inject({ method: 'GET', url: flagUrl('GB') });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await app.inject({ method: 'GET', url: '/' });
    expect(String(page.headers['content-security-policy'])).toMatch(/img-src 'self'/);
  });

  it('serves the phone metadata by calling code as immutable JSON, compressed (decision 010)', async () => {
    const response = await app.inject({ method: 'GET', url: phoneMetadataUrl('44'), headers: { 'accept-encoding': 'gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it.each(['/apply', '/index.html', '/a/b?c=d', '/assets/missing.js'])('redirects GET %s to /', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
  });

  it('unknown API paths are 404 problem+json, not redirects', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/nothing' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});

describe('PUT /api/syncPage/{pageId} (requirements §13)', () => {
  it('201 with id and receivedAt, and the stored row equals what was sent', async () => {
    const payload = validPayload();
    const response = await put(payload, { 'user-agent': 'vitest' });
    expect(response.statusCode).toBe(201);
    const body = response.json<{ id: string; receivedAt: string }>();
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(body.receivedAt).toISOString()).toBe(body.receivedAt);
    const stored = await store.applications.findById(body.id);
    expect(stored).toMatchObject({ pageId: 'creators', email: 'ada@example.com', payload, receivedAt: body.receivedAt, userAgent: 'vitest' });
  });

  it('stores the JSON text as received, byte for byte (spacing, key order, escapes)', async () => {
    const text = JSON.stringify(validPayload(), null, 1).replace('"Ada"', '"\\u0041da"');
    const { id } = (await put(text)).json<{ id: string }>();
    const db = new Database(join(dir, 'data', 'applications.db'), { readonly: true });
    try {
      expect((db.prepare('select payload from applications where id = ?').get(id) as { payload: string }).payload).toBe(text);
    } finally {
      db.close();
    }
    expect((await store.applications.findById(id))?.payload).toEqual(validPayload());
  });

  it('stores the e-mail lower-cased beside the payload, cleaned as the wizard cleans it', async () => {
    const payload = validPayload({
      personalInfo: { ...validPayload().personalInfo, emailAddress: ' Ada@Example.COM' },
      platforms: { instagram: { handle: 'ada.makes ', followers: '12,000' } },
    });
    const { id } = (await put(payload)).json<{ id: string }>();
    const stored = await store.applications.findById(id);
    expect(stored?.email).toBe('ada@example.com');
    expect(stored?.payload).toEqual({
      ...payload,
      personalInfo: { ...payload.personalInfo, emailAddress: 'Ada@example.com' },
      platforms: { instagram: { handle: 'ada.makes', followers: '12000' } },
    });
  });

  it('the same Idempotency-Key stores one row and answers 200 with the first id', async () => {
    const key = '5b0f7c1e-8a44-4c1b-9a2e-3f6d2d1b7e10';
    const before = rowCount();
    const first = await put(validPayload(), { 'idempotency-key': key });
    const second = await put(validPayload(), { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(rowCount()).toBe(before + 1);
  });

  it('400 problem+json with field paths and messages for an invalid application; nothing stored', async () => {
    const before = rowCount();
    const response = await put(validPayload({ personalInfo: { ...validPayload().personalInfo, lastName: '', emailAddress: 'ada@' } }));
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
    });
    expect(response.json().errors).toEqual([
      { path: 'personalInfo.lastName', message: 'This field is required' },
      { path: 'personalInfo.emailAddress', message: 'Enter a valid email address' },
    ]);
    expect(rowCount()).toBe(before);
  });

  it.each([
    ['malformed JSON', '{"personalInfo":', 400],
    ['an empty body', '', 400],
    ['a JSON array', '[]', 400],
    ['JSON null', 'null', 400],
    ['prototype keys', '{"__proto__":{"admin":true},"personalInfo":{}}', 400],
  ])('%s is a 4xx problem+json, never a 500', async (_name, body, status) => {
    const response = await put(body);
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it('403 without the XSRF header, or with one that does not match the cookie', async () => {
    const missing = await app.inject({
      method: 'PUT',
      url: '/api/syncPage/creators',
      headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${TOKEN}` },
      payload: JSON.stringify(validPayload()),
    });
    expect(missing.statusCode).toBe(403);
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
    const wrong = await put(validPayload(), { 'x-xsrf-token': 'b'.repeat(43) });
    expect(wrong.statusCode).toBe(403);
    const noCookie = await app.inject({
      method: 'PUT',
      url: '/api/syncPage/creators',
      headers: { 'content-type': 'application/json', 'x-xsrf-token': TOKEN },
      payload: '{}',
    });
    expect(noCookie.statusCode).toBe(403);
  });

  it('404 for an unknown pageId', async () => {
    const response = await put(validPayload(), {}, 'someone-else');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ status: 404, title: 'Not Found' });
  });

  it('415 for a body that is not JSON', async () => {
    const response = await put('firstName=Ada', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(response.statusCode).toBe(415);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    const text = await put(JSON.stringify(validPayload()), { 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(415);
  });

  it('413 for a body over 64 KiB', async () => {
    const payload = validPayload({ fields: { dreamCampaign: 'x'.repeat(70 * 1024) } });
    const response = await put(payload);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ status: 413, title: 'Payload Too Large' });
  });

  it('a store failure is a 503 problem with Retry-After and no internals', async () => {
    const broken = await buildApp({
      config: defaultConfig(),
      distDir: join(dir, 'dist'),
      store: Object.assign(Object.create(store) as Store, {
        applications: Object.assign(Object.create(store.applications) as Store['applications'], {
          save: () => Promise.reject(new Error('SQLITE_FULL: secret path /var/db')),
        }),
      }),
      secret: TEST_SECRET,
    });
    const response = await broken.inject({ method: 'PUT', url: '/api/syncPage/creators', headers, payload: JSON.stringify(validPayload()) });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.body).not.toContain('SQLITE_FULL');
    expect(response.json()).toMatchObject({ status: 503, type: 'about:blank', title: 'Service Unavailable' });
    await broken.close();
  });

  it('rate-limits submissions per client IP: 429 problem+json with Retry-After', async () => {
    const limited = await buildApp({ config: defaultConfig(), distDir: join(dir, 'dist'), store, rateLimitPerMinute: 3, secret: TEST_SECRET });
    const send = (ip: string) =>
      limited.inject({ method: 'PUT', url: '/api/syncPage/creators', headers, payload: JSON.stringify(validPayload()), remoteAddress: ip });
    for (let i = 0; i < 3; i++) expect((await send('10.0.0.1')).statusCode).toBe(201);
    const refused = await send('10.0.0.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ status: 429, title: 'Too Many Requests' });
    // Another client is not affected; the page itself is not limited.
    expect((await send('10.0.0.2')).statusCode).toBe(201);
    expect((await limited.inject({ method: 'GET', url: '/', remoteAddress: '10.0.0.1' })).statusCode).toBe(200);
    await limited.close();
  });

  describe('client IP behind a load balancer (TRUST_PROXY, decision 006)', () => {
    const BALANCER = '10.0.0.9';
    const limitedApp = (trustProxy: TrustProxy) =>
      buildApp({ config: defaultConfig(), distDir: join(dir, 'dist'), store, rateLimitPerMinute: 2, trustProxy, secret: TEST_SECRET });
    const submitVia = (target: Awaited<ReturnType<typeof buildApp>>, socket: string, forwarded?: string) =>
      target.inject({
        method: 'PUT',
        url: '/api/syncPage/creators',
        headers: { ...headers, ...(forwarded ? { 'x-forwarded-for': forwarded } : {}) },
        payload: JSON.stringify(validPayload()),
        remoteAddress: socket,
      });

    it('with a hop count of 1, limits the address the balancer appended: a made-up left part does not get past', async () => {
      const limited = await limitedApp(1);
      // The client writes the left entries; the balancer appends the address it saw.
      expect((await submitVia(limited, BALANCER, '198.51.100.1, 203.0.113.1')).statusCode).toBe(201);
      expect((await submitVia(limited, BALANCER, '198.51.100.2, 203.0.113.1')).statusCode).toBe(201);
      const refused = await submitVia(limited, BALANCER, '198.51.100.3, 203.0.113.1');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await submitVia(limited, BALANCER, '203.0.113.1')).statusCode).toBe(429);
      // Another client behind the same balancer has its own budget.
      expect((await submitVia(limited, BALANCER, '198.51.100.1, 203.0.113.2')).statusCode).toBe(201);
      await limited.close();
    });

    it('with an address list, believes X-Forwarded-For only from a listed proxy', async () => {
      const limited = await limitedApp(['10.0.0.0/8', '::1']);
      // From the balancer: the right-most address that is not a listed proxy is the client.
      expect((await submitVia(limited, BALANCER, '198.51.100.1, 203.0.113.1, 10.1.2.3')).statusCode).toBe(201);
      expect((await submitVia(limited, BALANCER, '198.51.100.2, 203.0.113.1')).statusCode).toBe(201);
      expect((await submitVia(limited, BALANCER, '198.51.100.3, 203.0.113.1')).statusCode).toBe(429);
      // From anywhere else X-Forwarded-For is ignored: the socket's address is the client.
      const direct = '192.0.2.50';
      expect((await submitVia(limited, direct, '198.51.100.4')).statusCode).toBe(201);
      expect((await submitVia(limited, direct, '198.51.100.5')).statusCode).toBe(201);
      expect((await submitVia(limited, direct, '198.51.100.6')).statusCode).toBe(429);
      await limited.close();
    });

    it('off (the default) ignores X-Forwarded-For', async () => {
      const limited = await limitedApp(false);
      expect((await submitVia(limited, BALANCER, '203.0.113.1')).statusCode).toBe(201);
      expect((await submitVia(limited, BALANCER, '203.0.113.2')).statusCode).toBe(201);
      expect((await submitVia(limited, BALANCER, '203.0.113.3')).statusCode).toBe(429);
      await limited.close();
    });
  });
});

describe('overload', () => {
  it('answers 503 problem+json with Retry-After while the event loop is stalled, and the request goes no further', async () => {
    const logged: string[] = [];
    const pressed = await buildApp({
      config: defaultConfig(),
      distDir: join(dir, 'dist'),
      store,
      maxEventLoopDelayMs: 20,
      pressureSampleIntervalMs: 5,
      secret: TEST_SECRET,
      logger: { level: 'warn', stream: { write: (line: string) => void logged.push(line) } },
    });
    await pressed.ready();
    // Stall the event loop, as a burst of work would.
    synchronousWork(300);
    // under-pressure measures the delay on its next sample (every 10 ms at most), and forgets it
    // on the one after: wait for the measure, then ask at once (the request's hooks run before
    // the next timer can).
    await vi.waitFor(() => expect(pressed.isUnderPressure()).toBe(true), { timeout: 5_000, interval: 1 });
    const shed = validPayload({ personalInfo: { ...validPayload().personalInfo, emailAddress: 'shed.under.pressure@example.com' } });
    // Both asked at once, in the same sample: an application, and a request no route answers.
    const [response, unrouted, liveness, readiness] = await Promise.all([
      pressed.inject({ method: 'PUT', url: '/api/syncPage/creators', headers, payload: JSON.stringify(shed) }),
      pressed.inject({ method: 'OPTIONS', url: '/api/syncPage/creators' }),
      pressed.inject({ method: 'GET', url: '/healthz' }),
      pressed.inject({ method: 'GET', url: '/readyz' }),
    ]);
    expect(unrouted.statusCode).toBe(503);
    // Alive however busy (liveness is never shed); not ready for more meanwhile.
    expect(liveness.statusCode).toBe(200);
    expect(readiness.statusCode).toBe(503);
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    // Answered 503, the request goes no further: the application is not stored behind the
    // applicant's back. An application submitted once the pressure is gone is stored after
    // anything the first could have stored, so it is there by then.
    await vi.waitFor(() => expect(pressed.isUnderPressure()).toBe(false), { timeout: 5_000, interval: 1 });
    const after = await pressed.inject({ method: 'PUT', url: '/api/syncPage/creators', headers, payload: JSON.stringify(validPayload()) });
    expect(after.statusCode, after.body).toBe(201);
    expect(await store.applications.idsByEmail('shed.under.pressure@example.com')).toEqual([]);
    // Nor is it answered twice (a second answer is an error in the log: "Reply was already sent").
    expect(logged.map((line) => (JSON.parse(line) as { msg: string }).msg).filter((message) => !message.includes('uploads'))).toEqual([]);
    await pressed.close();
  });

  it('does not shed the requests that follow its start: the lag of starting is not overload', async () => {
    const starting = await buildApp({
      config: defaultConfig(),
      distDir: join(dir, 'dist'),
      store,
      maxEventLoopDelayMs: 20,
      pressureSampleIntervalMs: 250,
      secret: TEST_SECRET,
      logger: false,
    });
    // The start's own work, before the server is ready, holds the event loop (as compiling routes
    // on a loaded machine would).
    synchronousWork(600);
    await starting.ready();
    // The sample that covers the start says "under pressure"; the requests that follow are served.
    await vi.waitFor(() => expect(starting.isUnderPressure()).toBe(true), { timeout: 5_000, interval: 1 });
    const [page, readiness] = await Promise.all([starting.inject({ method: 'GET', url: '/' }), starting.inject({ method: 'GET', url: '/readyz' })]);
    expect(page.statusCode).toBe(200);
    expect(readiness.statusCode).toBe(200);
    await starting.close();
  });
});

describe('protection headers and logs', () => {
  it('sends security headers and a Content Security Policy without inline script', async () => {
    const response = await app.inject({ method: 'GET', url: '/' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBeDefined();
  });

  it('answers the submit route with nosniff and without document headers', async () => {
    const created = await put(validPayload());
    expect(created.headers['x-content-type-options']).toBe('nosniff');
    expect(created.headers['content-security-policy']).toBeUndefined();
    const refused = await put(validPayload(), { 'x-xsrf-token': 'wrong' });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['x-content-type-options']).toBe('nosniff');
  });

  it("sends the build's compressed copy of a file as it is to a browser that accepts it, never as a path of its own", async () => {
    const asset = (encoding?: string, url = '/assets/main-abc123.js') =>
      app.inject({ method: 'GET', url, headers: encoding === undefined ? {} : { 'accept-encoding': encoding } });
    const brotli = await asset('gzip, deflate, br, zstd');
    expect(brotli.headers).toMatchObject({ 'content-encoding': 'br', 'content-type': 'application/javascript; charset=utf-8', vary: 'Accept-Encoding' });
    expect(brotli.rawPayload).toEqual(brotliCompressSync('console.log(1)'));
    const gzip = await asset('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.rawPayload).toEqual(gzipSync('console.log(1)'));
    const plain = await asset();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
    expect(plain.headers.vary).toBe('Accept-Encoding');
    // No ranges: a range of the copy would be other bytes than the file's.
    const ranged = await app.inject({ method: 'GET', url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'br', range: 'bytes=0-3' } });
    expect([ranged.statusCode, ranged.headers['accept-ranges']]).toEqual([200, undefined]);
    expect(ranged.rawPayload).toEqual(brotliCompressSync('console.log(1)'));
    // Answered as a path of no file is (redirected to the page).
    const unknown = await asset(undefined, '/assets/no-such-file.js');
    expect(unknown.statusCode).not.toBe(200);
    for (const copy of ['/assets/main-abc123.js.br', '/assets/main-abc123.js.gz']) {
      const answer = await asset('br', copy);
      expect([answer.statusCode, answer.headers.location]).toEqual([unknown.statusCode, unknown.headers.location]);
    }
  });

  it("sends every other answer helmet's headers with the default page's policy: a static file, the health check, an unknown path, an error", async () => {
    const answers = await Promise.all([
      app.inject({ method: 'GET', url: '/assets/main-abc123.js' }),
      app.inject({ method: 'GET', url: '/healthz' }),
      app.inject({ method: 'GET', url: '/api/no-such-path' }),
      app.inject({ method: 'GET', url: '/api/admin/applications' }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 404, 401]);
    const page = await app.inject({ method: 'GET', url: '/' });
    for (const answer of answers) {
      expect(answer.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
      expect(answer.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'no-referrer',
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'origin-agent-cluster': '?1',
        'x-dns-prefetch-control': 'off',
        'x-download-options': 'noopen',
        'x-permitted-cross-domain-policies': 'none',
        'x-xss-protection': '0',
      });
      expect(answer.headers['cross-origin-embedder-policy']).toBeUndefined();
    }
  });

  it('allows only the configured analytics and error-reporting hosts to be contacted', async () => {
    const raw = rawDefaultConfig();
    raw.analytics = { token: 't', host: 'https://api-eu.mixpanel.example' };
    raw.errorReporting = { dsn: 'https://key@o1.ingest.sentry.example/42' };
    const configured = await buildApp({
      config: { ...defaultConfig(), analytics: raw.analytics, errorReporting: raw.errorReporting },
      distDir: join(dir, 'dist'),
      store,
    });
    const csp = String((await configured.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(csp).toContain("connect-src 'self' https://api-eu.mixpanel.example https://o1.ingest.sentry.example");
    await configured.close();
  });

  it("writes the brand's theme into the page, allowed by its hash and no other inline style", async () => {
    const plain = await app.inject({ method: 'GET', url: '/' });
    expect(plain.body).not.toContain('<style>');
    // Besides the page's own, only the style the inbox's React Aria adds, by its hash.
    const library = LIBRARY_STYLE_HASHES.join(' ');
    expect(String(plain.headers['content-security-policy'])).toContain(`style-src 'self' ${library};`);
    const theme = { primary: '#0f6b66', surface: '#fffaf3', text: '#1d2327', radius: 16 };
    const base = defaultConfig();
    const themed = await buildApp({ config: { ...base, styleConfig: { ...base.styleConfig, theme } }, distDir: join(dir, 'dist'), store });
    const response = await themed.inject({ method: 'GET', url: '/' });
    const css = ':root{--brand:#0f6b66;--surface:#fffaf3;--text:#1d2327;--radius:16px}';
    expect(response.body).toContain(`<style>${css}</style></head>`);
    const hash = createHash('sha256').update(css).digest('base64');
    expect(String(response.headers['content-security-policy'])).toContain(`style-src 'self' 'sha256-${hash}' ${library};`);
    expect(String(response.headers['content-security-policy'])).not.toContain('unsafe-inline');
    await themed.close();
  });

  it('logs one line per request, without the payload or the e-mail', async () => {
    logLines.length = 0;
    await put(validPayload({ personalInfo: { ...validPayload().personalInfo, emailAddress: 'secret.person@example.com' } }));
    const text = JSON.stringify(logLines);
    expect(logLines.filter((line) => line.msg === 'request')).toHaveLength(1);
    expect(logLines).toHaveLength(1);
    expect(logLines[0]).toMatchObject({ method: 'PUT', url: '/api/syncPage/creators', statusCode: 201 });
    expect(text).not.toContain('secret.person');
    expect(text).not.toContain('Lovelace');
  });

  it("logs a signed link's route, never its secret (the guardian's page, a consent's withdrawal)", async () => {
    logLines.length = 0;
    const secret = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.Zm9yZ2VkLW1hYy1mb3ItdGhlLWxvZw';
    for (const url of [`/guardian/${secret}`, `/consents/${secret}`]) {
      await app.inject({ method: 'GET', url });
      await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'answer=consent' });
    }
    // Paths that are not the route hold the secret all the same: a trailing slash, another case, two slashes, another method.
    for (const url of [`/guardian/${secret}/`, `/Guardian/${secret}`, `//consents/${secret}`]) await app.inject({ method: 'GET', url });
    await app.inject({ method: 'PUT', url: `/guardian/${secret}` });
    expect(logLines.map((line) => `${String(line.method)} ${String(line.url)}`)).toEqual([
      'GET /guardian/:token',
      'POST /guardian/:token',
      'GET /consents/:token',
      'POST /consents/:token',
      'GET /guardian/:token',
      'GET /guardian/:token',
      'GET /consents/:token',
      'PUT /guardian/:token',
    ]);
    expect(JSON.stringify(logLines)).not.toContain('Zm9yZ2Vk');
  });
});

describe('health', () => {
  it('/healthz and /readyz answer ok while the store is reachable', async () => {
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ok' });
  });
});

describe('route schemas (zod, through the type provider)', () => {
  it('validate a body into a problem with field paths, and serialise only what the answer schema declares', async () => {
    const memoryStore = await openStore('sqlite::memory:');
    const schemaApp = await buildApp({ config: defaultConfig(), store: memoryStore, distDir: join(dir, 'dist'), secret: TEST_SECRET });
    try {
      schemaApp.post(
        '/api/schema-check',
        {
          schema: { body: z.object({ name: z.string() }), response: { 200: z.object({ name: z.string() }) } },
          config: { invalid: 'Send a name.' },
        },
        // The answer holds more than its schema declares: only `name` is sent.
        async (request) => ({ ...request.body, undeclared: 'left out by the response schema' }),
      );
      const valid = await schemaApp.inject({ method: 'POST', url: '/api/schema-check', headers, payload: { name: 'Ana' } });
      expect(valid.statusCode).toBe(200);
      expect(valid.json()).toEqual({ name: 'Ana' });
      const invalid = await schemaApp.inject({ method: 'POST', url: '/api/schema-check', headers, payload: { other: 1 } });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(invalid.json()).toMatchObject({ status: 400, detail: 'Send a name.', errors: [{ path: 'name' }] });
    } finally {
      await schemaApp.close();
      await memoryStore.close();
    }
  });
});
