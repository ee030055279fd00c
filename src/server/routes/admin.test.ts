import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicantPayload, defaultConfig } from '../../../tests/factories/application';
import { testDist } from '../../../tests/support/test-app';
import { TEST_SECRET, xsrfPair } from '../../../tests/support/xsrf';
import { buildApp } from '../app';
import { openStore, type Store } from '../store/store';
import { neutralizeFormula } from '../inbox/csv';
import { SESSION_COOKIE } from '../constants';
import { steppingClock } from '../../../tests/support/clock';
import { createTestUser } from '../../../tests/support/users';

const EDITOR = { email: 'editor@brand.example', password: 'editor password 1' };
const VIEWER = { email: 'viewer@brand.example', password: 'viewer password 1' };

let dir: string;
let store: Store;
let app: Awaited<ReturnType<typeof buildApp>>;
const ids: Record<string, string> = {};

async function build(options: Partial<Parameters<typeof buildApp>[0]> = {}) {
  return buildApp({ config: defaultConfig(), store, distDir: join(dir, 'dist'), rateLimitPerMinute: 10_000, secret: TEST_SECRET, ...options });
}

beforeAll(async () => {
  ({ dir } = testDist('admin-api-', { admin: true }));
  store = await openStore(`sqlite:${join(dir, 'applications.db')}`, { clock: steppingClock() });
  await createTestUser(store, EDITOR, 'editor');
  await createTestUser(store, VIEWER, 'viewer');
  app = await build({ signInLimits: { perAccount: 3, perAddress: 1000 } });
  const save = async (name: string, payload: ReturnType<typeof applicantPayload>) => {
    ids[name] = (await store.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload })).id;
  };
  await save('ada', applicantPayload({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', country: 'GB', instagram: 'ada.makes' }));
  await save(
    'mallory',
    applicantPayload({
      firstName: '=HYPERLINK("http://evil.example","x")',
      lastName: '<img src=x onerror=alert(1)>',
      email: 'mallory@example.com',
      country: 'US',
      tiktok: 'mallory',
      fields: { howFamiliar: '+1+cmd|calc', dreamCampaign: 'Line one, "quoted"\nline two' },
    }),
  );
  await save('ada2', applicantPayload({ firstName: 'Ada', lastName: 'Lovelace', email: 'ADA@example.com', country: 'GB', instagram: 'ada.two' }));
});

afterAll(async () => {
  await app.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Signs in and returns the cookie header for the session plus the XSRF pair. */
async function signIn(user = EDITOR, target = app): Promise<string> {
  const response = await target.inject({ method: 'POST', url: '/api/admin/session', payload: { email: user.email, password: user.password } });
  expect(response.statusCode).toBe(204);
  const session = response.cookies.find((cookie) => cookie.name === SESSION_COOKIE)!;
  const xsrf = response.cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')!;
  return `${SESSION_COOKIE}=${session.value}; XSRF-TOKEN=${xsrf.value}`;
}

/** The XSRF token in a cookie header made by {@link signIn}. */
const xsrfOf = (cookie: string) => /XSRF-TOKEN=([^;]+)/.exec(cookie)?.[1] ?? '';
const as = (cookie: string, extra: Record<string, string> = {}) => ({ cookie, 'x-xsrf-token': xsrfOf(cookie), ...extra });

describe('sign-in and sessions (requirements §17)', () => {
  it('answers 401 problem+json on every admin route without a session, and the /admin pages still load (the sign-in form)', async () => {
    const routes: [string, string][] = [
      ['GET', '/api/admin/session'],
      ['DELETE', '/api/admin/session'],
      ['GET', '/api/admin/pages'],
      ['GET', '/api/admin/applications'],
      ['PATCH', '/api/admin/applications'],
      ['GET', '/api/admin/applications.csv'],
      ['GET', `/api/admin/applications/${ids.ada}`],
      ['PATCH', `/api/admin/applications/${ids.ada}`],
      ['DELETE', `/api/admin/applications/${ids.ada}`],
      ['GET', '/api/admin/funnel'],
    ];
    for (const [method, url] of routes) {
      const response = await app.inject({ method: method as 'GET', url, headers: xsrfPair().headers });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json()).toMatchObject({ status: 401, title: 'Unauthorized' });
    }
    const asset = await app.inject({ method: 'GET', url: '/admin/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await app.inject({ method: 'GET', url: '/admin/assets/missing-abc.js' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/admin/index.html' })).statusCode).toBe(302);
    for (const url of ['/admin', '/admin/', '/admin/applications/abc']) {
      const page = await app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<title>Inbox</title>');
      expect(page.cookies.some((cookie) => cookie.name === 'XSRF-TOKEN')).toBe(true);
    }
  });

  it('signs in with a session cookie that is HttpOnly and SameSite=Strict, Secure over HTTPS', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/admin/session', payload: { email: 'Editor@Brand.example', password: EDITOR.password } });
    expect(response.statusCode).toBe(204);
    const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie.secure).toBeFalsy();
    const behindTls = await build({ trustProxy: 1 });
    const secure = await behindTls.inject({
      method: 'POST',
      url: '/api/admin/session',
      headers: { 'x-forwarded-proto': 'https' },
      payload: { email: EDITOR.email, password: EDITOR.password },
    });
    expect(secure.cookies.find((c) => c.name === SESSION_COOKIE)).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict' });
    await behindTls.close();
    const who = await app.inject({ method: 'GET', url: '/api/admin/session', headers: { cookie: `${SESSION_COOKIE}=${cookie.value}` } });
    expect(who.json()).toEqual({ email: EDITOR.email, role: 'editor', stage: 'full' });
  });

  it('answers a wrong password and an unknown e-mail with the same 401', async () => {
    const wrong = await app.inject({ method: 'POST', url: '/api/admin/session', payload: { email: VIEWER.email, password: 'not the password' } });
    const unknown = await app.inject({ method: 'POST', url: '/api/admin/session', payload: { email: 'nobody@brand.example', password: 'not the password' } });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body).toBe(unknown.body);
    expect(wrong.cookies.some((c) => c.name === SESSION_COOKIE)).toBe(false);
    const malformed = await app.inject({ method: 'POST', url: '/api/admin/session', payload: { email: VIEWER.email } });
    expect(malformed.statusCode).toBe(400);
    const notJson = await app.inject({ method: 'POST', url: '/api/admin/session', headers: { 'content-type': 'text/plain' }, payload: 'x' });
    expect(notJson.statusCode).toBe(415);
  });

  it('rate limits failed sign-ins per account with 429 and Retry-After, even with the right password', async () => {
    const attempt = (password: string) => app.inject({ method: 'POST', url: '/api/admin/session', payload: { email: 'limited@brand.example', password } });
    await createTestUser(store, { email: 'limited@brand.example', password: 'limited password' }, 'editor');
    for (let i = 0; i < 3; i++) expect((await attempt('wrong password')).statusCode).toBe(401);
    const limited = await attempt('limited password');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toContain('application/problem+json');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another account from the same address is not locked out by it.
    expect((await app.inject({ method: 'POST', url: '/api/admin/session', payload: EDITOR })).statusCode).toBe(204);
  });

  it('rate limits failed sign-ins per client IP across accounts', async () => {
    const strict = await build({ signInLimits: { perAccount: 100, perAddress: 2 }, trustProxy: 1 });
    // Behind one balancer (the socket): the client IP is the address the balancer appended, the
    // right-most; what the client wrote to the left of it does not give it a new count.
    const from = (forwarded: string, email: string, password = 'wrong password') =>
      strict.inject({
        method: 'POST',
        url: '/api/admin/session',
        remoteAddress: '10.0.0.9',
        headers: { 'x-forwarded-for': forwarded },
        payload: { email, password },
      });
    expect((await from('198.51.100.1, 203.0.113.7', 'a@brand.example')).statusCode).toBe(401);
    expect((await from('198.51.100.2, 203.0.113.7', 'b@brand.example')).statusCode).toBe(401);
    expect((await from('198.51.100.3, 203.0.113.7', EDITOR.email, EDITOR.password)).statusCode).toBe(429);
    expect((await from('203.0.113.7', EDITOR.email, EDITOR.password)).statusCode).toBe(429);
    expect((await from('203.0.113.7, 203.0.113.8', EDITOR.email, EDITOR.password)).statusCode).toBe(204);
    // An IPv6 client is one /64: walking through its own addresses gives it no new count.
    expect((await from('2001:db8:0:9::1', 'c@brand.example')).statusCode).toBe(401);
    expect((await from('2001:db8:0:9::2', 'd@brand.example')).statusCode).toBe(401);
    expect((await from('2001:db8:0:9::3', EDITOR.email, EDITOR.password)).statusCode).toBe(429);
    expect((await from('2001:db8:0:a::1', EDITOR.email, EDITOR.password)).statusCode).toBe(204);
    await strict.close();
  });

  it('with a list of proxies, ignores X-Forwarded-For from any other address when counting failed sign-ins', async () => {
    const strict = await build({ signInLimits: { perAccount: 100, perAddress: 2 }, trustProxy: ['10.0.0.0/8'] });
    const from = (socket: string, forwarded: string, email: string, password = 'wrong password') =>
      strict.inject({
        method: 'POST',
        url: '/api/admin/session',
        remoteAddress: socket,
        headers: { 'x-forwarded-for': forwarded },
        payload: { email, password },
      });
    expect((await from('192.0.2.60', '198.51.100.1', 'c@brand.example')).statusCode).toBe(401);
    expect((await from('192.0.2.60', '198.51.100.2', 'd@brand.example')).statusCode).toBe(401);
    expect((await from('192.0.2.60', '198.51.100.3', EDITOR.email, EDITOR.password)).statusCode).toBe(429);
    // Through the listed balancer, the forwarded client is counted on its own.
    expect((await from('10.0.0.9', '192.0.2.60, 203.0.113.9', EDITOR.email, EDITOR.password)).statusCode).toBe(204);
    await strict.close();
  });

  it('ends a session that has expired and one that signed out', async () => {
    // The session's time is the app's clock: moved on by hand, not waited for.
    let now = Date.parse('2026-11-24T12:00:00.000Z');
    const shortLived = await build({ adminSession: { idleMs: 60 * 60_000, absoluteMs: 4 * 60 * 60_000 }, clock: () => now });
    const cookie = await signIn(EDITOR, shortLived);
    const list = () => shortLived.inject({ method: 'GET', url: '/api/admin/applications', headers: as(cookie) });
    expect((await list()).statusCode).toBe(200);
    // Used 59 minutes later: still signed in, and the idle hour starts again from here.
    now += 59 * 60_000;
    expect((await list()).statusCode).toBe(200);
    now += 59 * 60_000;
    expect((await list()).statusCode).toBe(200);
    // An hour unused: over.
    now += 61 * 60_000;
    expect((await list()).statusCode).toBe(401);
    await shortLived.close();

    // However often it is used, a session ends at its absolute lifetime.
    now = Date.parse('2026-11-25T12:00:00.000Z');
    const busy = await build({ adminSession: { idleMs: 60 * 60_000, absoluteMs: 2 * 60 * 60_000 }, clock: () => now });
    const busyCookie = await signIn(EDITOR, busy);
    for (let minutes = 30; minutes < 120; minutes += 30) {
      now += 30 * 60_000;
      expect((await busy.inject({ method: 'GET', url: '/api/admin/applications', headers: as(busyCookie) })).statusCode).toBe(200);
    }
    now += 31 * 60_000;
    expect((await busy.inject({ method: 'GET', url: '/api/admin/applications', headers: as(busyCookie) })).statusCode).toBe(401);
    await busy.close();

    const session = await signIn();
    const noXsrf = await app.inject({ method: 'DELETE', url: '/api/admin/session', headers: { cookie: session } });
    expect(noXsrf.statusCode).toBe(403);
    const out = await app.inject({ method: 'DELETE', url: '/api/admin/session', headers: as(session) });
    expect(out.statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url: '/api/admin/applications', headers: as(session) })).statusCode).toBe(401);
  });

  it('refuses mutations without the XSRF header or with one that does not match the cookie', async () => {
    const session = await signIn();
    const missing = await app.inject({
      method: 'PATCH',
      url: `/api/admin/applications/${ids.ada}`,
      headers: { cookie: session },
      payload: { status: 'declined' },
    });
    expect(missing.statusCode).toBe(403);
    const wrong = await app.inject({
      method: 'PATCH',
      url: `/api/admin/applications/${ids.ada}`,
      headers: as(session, { 'x-xsrf-token': 'y'.repeat(43) }),
      payload: { status: 'declined' },
    });
    expect(wrong.statusCode).toBe(403);
    // A token that merely matches itself, one made for the wizard (no session), and one of
    // another session are all refused; the session's own token passes.
    const sessionOnly = session.replace(/; XSRF-TOKEN=.*/, '');
    const other = await signIn();
    const wizardToken = xsrfPair().token;
    for (const token of ['a', 'x'.repeat(43), wizardToken, xsrfOf(other)]) {
      const forged = await app.inject({
        method: 'PATCH',
        url: `/api/admin/applications/${ids.ada}`,
        headers: { cookie: `${sessionOnly}; XSRF-TOKEN=${token}`, 'x-xsrf-token': token },
        payload: { status: 'declined' },
      });
      expect(forged.statusCode, token).toBe(403);
    }
    expect((await store.applications.getApplication(ids.ada!))!.status).toBe('new');
  });

  it("lets a viewer read and export but not change: another user's role is never borrowed", async () => {
    const viewer = await signIn(VIEWER);
    expect((await app.inject({ method: 'GET', url: '/api/admin/applications', headers: as(viewer) })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/admin/applications.csv', headers: as(viewer) })).statusCode).toBe(200);
    const patch = await app.inject({ method: 'PATCH', url: `/api/admin/applications/${ids.ada}`, headers: as(viewer), payload: { status: 'accepted' } });
    expect(patch.statusCode).toBe(403);
    const bulk = await app.inject({ method: 'PATCH', url: '/api/admin/applications', headers: as(viewer), payload: { ids: [ids.ada], status: 'accepted' } });
    expect(bulk.statusCode).toBe(403);
    const erase = await app.inject({ method: 'DELETE', url: `/api/admin/applications/${ids.ada}`, headers: as(viewer) });
    expect(erase.statusCode).toBe(403);
    expect((await store.applications.getApplication(ids.ada!))!.status).toBe('new');
    // A forged or stale cookie value is no session at all.
    const forged = await app.inject({
      method: 'GET',
      url: '/api/admin/applications',
      headers: as(`${SESSION_COOKIE}=${'A'.repeat(43)}; ${xsrfPair().cookie}`),
    });
    expect(forged.statusCode).toBe(401);
  });
});

describe('review (requirements §17)', () => {
  let session: string;
  beforeAll(async () => {
    session = await signIn();
  });
  const get = (url: string) => app.inject({ method: 'GET', url, headers: as(session) });

  it('lists newest first with the contract fields, duplicates marked, and pages with nextCursor', async () => {
    const list = (await get('/api/admin/applications')).json();
    expect(list.items.map((item: { id: string }) => item.id)).toEqual([ids.ada2, ids.mallory, ids.ada]);
    expect(list.items[0]).toEqual({
      id: ids.ada2,
      pageId: 'creators',
      receivedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      status: 'new',
      firstName: 'Ada',
      lastName: 'Lovelace',
      emailAddress: 'ADA@example.com',
      countryCode: 'GB',
      platforms: { instagram: { handle: 'ada.two', followers: '1200' } },
      totalFollowers: 1200,
      topPlatform: { platform: 'instagram', followers: 1200 },
      duplicateOf: ids.ada,
      tags: [],
    });
    expect(list.nextCursor).toBeUndefined();
    const first = (await get('/api/admin/applications?limit=2')).json();
    expect(first.items).toHaveLength(2);
    const second = (await get(`/api/admin/applications?limit=2&cursor=${first.nextCursor}`)).json();
    expect(second.items.map((item: { id: string }) => item.id)).toEqual([ids.ada]);
    expect(second.nextCursor).toBeUndefined();
  });

  it('searches and filters, and answers 400 problem+json with field paths for bad filters', async () => {
    const names = async (query: string) => (await get(`/api/admin/applications?${query}`)).json().items.map((item: { id: string }) => item.id);
    expect(await names('q=mallory')).toEqual([ids.mallory]);
    expect(await names('q=ada.makes')).toEqual([ids.ada]);
    expect(await names('country=GB&platform=instagram')).toEqual([ids.ada2, ids.ada]);
    expect(await names('platform=tiktok')).toEqual([ids.mallory]);
    expect(await names('pageId=other')).toEqual([]);
    const bad = await get('/api/admin/applications?status=maybe&from=yesterday&limit=0&cursor=nope');
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((error: { path: string }) => error.path)
        .sort(),
    ).toEqual(['from', 'limit', 'status']);
    expect((await get('/api/admin/applications?cursor=bm9wZQ')).statusCode).toBe(400);
  });

  it('counts what the filters match in each status, for the status tabs', async () => {
    const counts = (await get('/api/admin/applications/counts?q=lovelace&status=declined')).json();
    expect(Object.keys(counts).sort()).toEqual(['accepted', 'all', 'declined', 'new', 'shortlisted']);
    expect(counts.all).toBe(2);
    expect(counts.new + counts.shortlisted + counts.accepted + counts.declined).toBe(2);
    const bad = await get('/api/admin/applications/counts?country=Britain');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((error: { path: string }) => error.path)).toEqual(['country']);
  });

  it('shows one application with labelled answers in configuration order, profile links and earlier submissions', async () => {
    const detail = (await get(`/api/admin/applications/${ids.ada2}`)).json();
    expect(detail.answers.slice(0, 5)).toEqual([
      { key: 'personalInfo.firstName', label: 'First name', value: 'Ada' },
      { key: 'personalInfo.lastName', label: 'Last name', value: 'Lovelace' },
      { key: 'personalInfo.emailAddress', label: 'Email', value: 'ADA@example.com' },
      { key: 'personalInfo.countryCode', label: 'Country', value: 'GB' },
      { key: 'platforms.instagram.handle', label: 'Instagram handle', value: 'ada.two' },
    ]);
    expect(detail.answers).toContainEqual({ key: 'fields.howFamiliar', label: "How familiar are you with Crazy Aaron's?", value: 'Super-Fan' });
    expect(detail.platforms).toEqual({ instagram: { handle: 'ada.two', followers: '1200' } });
    expect(detail.profiles).toEqual([{ platform: 'instagram', handle: 'ada.two', followers: '1200', profileUrl: 'https://www.instagram.com/ada.two' }]);
    expect(detail.earlierSubmissions).toEqual([
      { id: ids.ada, pageId: 'creators', receivedAt: expect.any(String), status: 'new', firstName: 'Ada', lastName: 'Lovelace', matchedBy: ['email'] },
    ]);
    expect(detail.audit).toEqual([]);
    expect((await get('/api/admin/applications/00000000-0000-0000-0000-000000000000')).statusCode).toBe(404);
  });

  it('changes status and note, writes the audit log, and refuses unknown statuses', async () => {
    const patch = (body: unknown) =>
      app.inject({ method: 'PATCH', url: `/api/admin/applications/${ids.ada}`, headers: as(session), payload: body as Record<string, string> });
    expect((await patch({ status: 'maybe' })).statusCode).toBe(400);
    expect((await patch({ status: 'shortlisted', extra: 1 })).statusCode).toBe(400);
    const ok = await patch({ status: 'shortlisted', note: 'Strong portfolio' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: ids.ada, status: 'shortlisted', note: 'Strong portfolio' });
    const detail = (await get(`/api/admin/applications/${ids.ada}`)).json();
    expect(detail.audit).toEqual([
      { at: expect.any(String), actor: EDITOR.email, action: 'status', from: 'new', to: 'shortlisted' },
      { at: expect.any(String), actor: EDITOR.email, action: 'note' },
      { at: expect.any(String), actor: EDITOR.email, action: 'note-added' },
    ]);
  });

  it('changes the status of a selection at once', async () => {
    const bulk = await app.inject({
      method: 'PATCH',
      url: '/api/admin/applications',
      headers: as(session),
      payload: { ids: [ids.ada2, ids.mallory], status: 'declined' },
    });
    expect(bulk.json()).toEqual({ updated: 2 });
    const declined = (await get('/api/admin/applications?status=declined')).json();
    expect(declined.items.map((item: { id: string }) => item.id)).toEqual([ids.ada2, ids.mallory]);
    expect(
      (await app.inject({ method: 'PATCH', url: '/api/admin/applications', headers: as(session), payload: { ids: [], status: 'declined' } })).statusCode,
    ).toBe(400);
  });
});

describe('export', () => {
  it('streams RFC 4180 CSV with a BOM, one column per answer in configuration order, formulas neutralised, for the current filter', async () => {
    const session = await signIn(VIEWER);
    const response = await app.inject({ method: 'GET', url: '/api/admin/applications.csv?country=US', headers: as(session) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="applications-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(response.body).toContain('\r\n');
    const rows = parse(response.body, { bom: true }) as string[][];
    const [header, ...records] = rows;
    expect(header!.slice(0, 10)).toEqual(['ID', 'Page', 'Received', 'Status', 'Note', 'Tags', 'First name', 'Last name', 'Phone number', 'Email']);
    expect(header).toContain("How familiar are you with Crazy Aaron's?");
    expect(header!.indexOf('Instagram handle')).toBeLessThan(header!.indexOf("How familiar are you with Crazy Aaron's?"));
    expect(records).toHaveLength(1);
    const row = Object.fromEntries(header!.map((name, index) => [name, records[0]![index]]));
    expect(row).toMatchObject({
      ID: ids.mallory,
      'First name': `'=HYPERLINK("http://evil.example","x")`,
      'Last name': '<img src=x onerror=alert(1)>',
      Email: 'mallory@example.com',
      'TikTok handle': 'mallory',
      "How familiar are you with Crazy Aaron's?": "'+1+cmd|calc",
      'Describe your dream campaign with us': 'Line one, "quoted"\nline two',
    });
  });

  it('neutralises every formula-starting character and leaves other text alone', () => {
    expect(['=1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', 'ok', ''].map(neutralizeFormula)).toEqual(["'=1", "'+1", "'-1", "'@SUM(A1)", "'\tx", "'\rx", 'ok', '']);
  });
});

describe('erasure (GDPR)', () => {
  it('deletes the application and leaves an audit entry without personal data', async () => {
    const session = await signIn();
    const erase = await app.inject({ method: 'DELETE', url: `/api/admin/applications/${ids.mallory}`, headers: as(session) });
    expect(erase.statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url: `/api/admin/applications/${ids.mallory}`, headers: as(session) })).statusCode).toBe(404);
    expect(await store.applications.findById(ids.mallory!)).toBeUndefined();
    const csv = await app.inject({ method: 'GET', url: '/api/admin/applications.csv', headers: as(session) });
    expect(csv.body).not.toContain('mallory');
    const db = (await import('better-sqlite3')).default(join(dir, 'applications.db'), { readonly: true });
    const audit = db.prepare('select * from audit_log where application_id = ?').all(ids.mallory);
    const handles = db.prepare('select * from application_handles where application_id = ?').all(ids.mallory);
    db.close();
    expect(audit).toContainEqual(expect.objectContaining({ action: 'erased', actor: EDITOR.email, from_value: null, to_value: null }));
    expect(JSON.stringify(audit)).not.toMatch(/mallory|HYPERLINK/i);
    expect(handles).toEqual([]);
  });
});

describe('funnel', () => {
  it('counts anonymous beacons and reports them per day with conversion', async () => {
    const beacon = (body: unknown, pageId = 'creators') =>
      app.inject({ method: 'POST', url: `/api/funnel/${pageId}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    for (const step of [0, 0, 0, 0, 1, 1, 2]) expect((await beacon({ event: 'stepReached', step })).statusCode).toBe(204);
    expect((await beacon({ event: 'submitted' })).statusCode).toBe(204);
    expect((await beacon({ event: 'signInClicked' })).statusCode).toBe(204);
    expect((await beacon({ event: 'stepReached', step: 9 })).statusCode).toBe(400);
    expect((await beacon({ event: 'stepReached', step: 0, email: 'ada@example.com' })).statusCode).toBe(400);
    expect((await beacon({ event: 'submitted' }, 'nope')).statusCode).toBe(404);
    const session = await signIn(VIEWER);
    const report = (await app.inject({ method: 'GET', url: '/api/admin/funnel?pageId=creators', headers: as(session) })).json();
    expect(report.steps).toEqual(['Welcome', 'Introduce Yourself', 'More Details', 'Creator Hub']);
    expect(report.days).toHaveLength(30);
    expect(report.days.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), reached: [4, 2, 1, 0], submitted: 1, signInClicked: 1, ageEnded: 0 });
    expect(report.totals).toEqual({ reached: [4, 2, 1, 0], submitted: 1, signInClicked: 1, ageEnded: 0 });
    expect(report.conversion).toEqual([
      { from: 'Welcome', to: 'Introduce Yourself', rate: 0.5 },
      { from: 'Introduce Yourself', to: 'More Details', rate: 0.5 },
      { from: 'More Details', to: 'Creator Hub', rate: 0 },
    ]);
  });
});

describe('the order of the checks (outside review)', () => {
  it('refuses a viewer 403 before judging the body: a viewer learns nothing of what a change takes', async () => {
    const viewer = await signIn(VIEWER);
    for (const [url, payload] of [
      [`/api/admin/applications/${ids.ada}`, { status: 'bogus' }],
      ['/api/admin/applications', { ids: 'x' }],
      ['/api/admin/applications', undefined],
    ] as const) {
      const response = await app.inject({ method: 'PATCH', url, headers: as(viewer), ...(payload === undefined ? {} : { payload }) });
      expect(response.statusCode).toBe(403);
      expect(response.json()).not.toHaveProperty('errors');
    }
  });

  it('counts beacons to an unknown page against the client limit before answering 404', async () => {
    const limited = await build({ rateLimitPerMinute: 2 });
    const statuses: number[] = [];
    for (let index = 0; index < 10; index++) {
      const response = await limited.inject({ method: 'POST', url: '/api/funnel/nope', remoteAddress: '192.0.2.77', payload: { event: 'submitted' } });
      statuses.push(response.statusCode);
    }
    await limited.close();
    // Four beacons per allowed submission: eight 404s, then 429s.
    expect(statuses).toEqual([...Array(8).fill(404), 429, 429]);
  });

  it("names the route's own body limit in a 413", async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/funnel/creators',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ event: 'submitted', pad: 'x'.repeat(2048) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ detail: 'The body is larger than 1 KiB.' });
  });

  it('reads a status or a role it does not know as the safest one, and never fails the page over it', async () => {
    const raw = new Database(join(dir, 'applications.db'));
    try {
      raw.prepare("update applications set status = 'archived' where id = ?").run(ids.ada2);
      await createTestUser(store, { email: 'admin@brand.example', password: 'admin password 12' }, 'viewer');
      raw.prepare("update admin_users set role = 'administrator' where email = 'admin@brand.example'").run();
      const session = await signIn();
      const list = await app.inject({ method: 'GET', url: '/api/admin/applications', headers: as(session) });
      expect(list.statusCode).toBe(200);
      expect(list.json().items.find((item: { id: string }) => item.id === ids.ada2)).toMatchObject({ status: 'new' });
      const detail = await app.inject({ method: 'GET', url: `/api/admin/applications/${ids.ada2}`, headers: as(session) });
      expect(detail.statusCode).toBe(200);
      const owner = await signIn({ email: 'admin@brand.example', password: 'admin password 12' });
      const who = await app.inject({ method: 'GET', url: '/api/admin/session', headers: as(owner) });
      expect(who.json()).toEqual({ email: 'admin@brand.example', role: 'viewer', stage: 'full' });
      expect(
        (await app.inject({ method: 'PATCH', url: `/api/admin/applications/${ids.ada2}`, headers: as(owner), payload: { status: 'accepted' } })).statusCode,
      ).toBe(403);
    } finally {
      raw.prepare("update applications set status = 'new' where id = ?").run(ids.ada2);
      raw.close();
    }
  });
});
