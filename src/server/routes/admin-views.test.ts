import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationList, ApplicationListItem } from '../../shared/admin';
import { defaultConfig, validPayload } from '../../../tests/factories/application';
import { steppingClock } from '../../../tests/support/clock';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import { testDist } from '../../../tests/support/test-app';
import { TEST_SECRET } from '../../../tests/support/xsrf';
import { buildApp } from '../app';
import { SESSION_COOKIE } from '../constants';
import { openStore, type Store } from '../store/store';
import { createTestUser } from '../../../tests/support/users';

const EDITOR = { email: 'editor@brand.example', password: 'editor password 1' };
const VIEWER = { email: 'viewer@brand.example', password: 'viewer password 1' };

/** The applicants of these tests: name, country, followers per platform and two answers. */
const APPLICANTS = [
  {
    first: 'zoë',
    last: 'Adams',
    country: 'US',
    instagram: '1200',
    tiktok: '90000',
    familiar: 'Super-Fan',
    products: 'Thinking Putty, Land of Dough',
    dream: 'A PUTTY castle on the beach',
  },
  { first: 'Ada', last: 'Lovelace', country: 'GB', instagram: '5000', familiar: 'Unfamiliar', products: 'Slime Charmers', dream: 'Short one' },
  {
    first: 'bob',
    last: 'Brown',
    country: 'FR',
    youtube: '250000',
    familiar: 'Super-Fan',
    products: 'Slime Charmers',
    dream: `${'x'.repeat(300)} putty at the end`,
  },
  { first: 'Cleo', last: 'Park', country: 'US', familiar: 'Very familiar', products: 'Thinking Putty', dream: 'Stop motion' },
  { first: 'Dan', last: 'Ng', country: 'DE', instagram: '5000', familiar: 'Super-Fan', products: 'Land of Dough', dream: 'Unboxing' },
] as const;

describe.each([
  ['SQLite', () => sqliteExecDatabase('admin-views-')],
  ['PostgreSQL', postgresExecDatabase],
])('the list on %s: sorts and answer filters', (_name, createDatabase) => {
  let database: ExecDatabase;
  let dir: string;
  let store: Store;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let cookie: string;
  let xsrf: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    database = await createDatabase();
    ({ dir } = testDist('admin-views-', { admin: true }));
    store = await openStore(database.url, { clock: steppingClock() });
    await createTestUser(store, EDITOR, 'editor');
    app = await buildApp({ config: defaultConfig(), store, distDir: join(dir, 'dist'), rateLimitPerMinute: 10_000, secret: TEST_SECRET });
    for (const applicant of APPLICANTS) {
      const valid = validPayload();
      const platforms: Record<string, { handle: string; followers: string }> = {};
      for (const platform of ['instagram', 'tiktok', 'youtube'] as const) {
        const followers = (applicant as Record<string, string | undefined>)[platform];
        if (followers) platforms[platform] = { handle: `${applicant.first.toLowerCase()}.${platform}`, followers };
      }
      const payload = {
        ...valid,
        personalInfo: {
          ...valid.personalInfo,
          firstName: applicant.first,
          lastName: applicant.last,
          emailAddress: `${applicant.last.toLowerCase()}@example.com`,
          countryCode: applicant.country,
        },
        platforms,
        fields: { ...valid.fields, howFamiliar: applicant.familiar, whichProducts: applicant.products, dreamCampaign: applicant.dream },
      };
      ids[applicant.first] = (await store.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload })).id;
    }
    const response = await app.inject({ method: 'POST', url: '/api/admin/session', payload: EDITOR });
    const session = response.cookies.find((c) => c.name === SESSION_COOKIE)!;
    xsrf = response.cookies.find((c) => c.name === 'XSRF-TOKEN')!.value;
    cookie = `${SESSION_COOKIE}=${session.value}; XSRF-TOKEN=${xsrf}`;
    await createTestUser(store, VIEWER, 'viewer');
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const list = async (query: string) => {
    const response = await app.inject({ method: 'GET', url: `/api/admin/applications?${query}`, headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ApplicationList>();
  };
  const names = (items: ApplicationListItem[]) => items.map((item) => item.firstName);
  /** Every page of a view, one row a page, following the cursors. */
  const walk = async (query: string) => {
    const seen: ApplicationListItem[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(`${query}&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return names(seen);
  };

  it('sorts by received, name, country, total followers and the largest platform, both ways, page after page', async () => {
    expect(await walk('sort=received&dir=desc')).toEqual(['Dan', 'Cleo', 'bob', 'Ada', 'zoë']);
    expect(await walk('sort=received&dir=asc')).toEqual(['zoë', 'Ada', 'bob', 'Cleo', 'Dan']);
    // The name sort ignores case: bob between Ada and Cleo; zoë last.
    expect(await walk('sort=name&dir=asc')).toEqual(['Ada', 'bob', 'Cleo', 'Dan', 'zoë']);
    expect(await walk('sort=name&dir=desc')).toEqual(['zoë', 'Dan', 'Cleo', 'bob', 'Ada']);
    // Ties (two US) by time received, in the sort's direction.
    expect(await walk('sort=country&dir=asc')).toEqual(['Dan', 'bob', 'Ada', 'zoë', 'Cleo']);
    // Total: bob 250 000, zoë 91 200, Ada 5 000, Dan 5 000 (received later), Cleo none.
    expect(await walk('sort=followers&dir=desc')).toEqual(['bob', 'zoë', 'Dan', 'Ada', 'Cleo']);
    expect(await walk('sort=followers&dir=asc')).toEqual(['Cleo', 'Ada', 'Dan', 'zoë', 'bob']);
    // Largest platform: bob's YouTube 250 000, zoë's TikTok 90 000.
    expect(await walk('sort=topPlatform&dir=desc')).toEqual(['bob', 'zoë', 'Dan', 'Ada', 'Cleo']);
  });

  it('lists each row with its total followers and largest platform', async () => {
    const { items } = await list('sort=followers&dir=desc&limit=2');
    expect(items.map((item) => [item.totalFollowers, item.topPlatform])).toEqual([
      [250000, { platform: 'youtube', followers: 250000 }],
      [91200, { platform: 'tiktok', followers: 90000 }],
    ]);
    const cleo = (await list('q=cleo')).items[0]!;
    expect(cleo.totalFollowers).toBe(0);
    expect(cleo.topPlatform).toBeUndefined();
  });

  it('filters on answers: options of one question are alternatives, questions all hold, one option of a multi-select is enough', async () => {
    expect(names((await list('answer=howFamiliar:Super-Fan')).items)).toEqual(['Dan', 'bob', 'zoë']);
    expect(names((await list('answer=howFamiliar:Super-Fan&answer=howFamiliar:Unfamiliar')).items)).toEqual(['Dan', 'bob', 'Ada', 'zoë']);
    // "Super-Fans who want Thinking Putty".
    expect(names((await list('answer=howFamiliar:Super-Fan&answer=whichProducts:Thinking%20Putty')).items)).toEqual(['zoë']);
    expect(names((await list('answer=whichProducts:Land%20of%20Dough&sort=name&dir=asc')).items)).toEqual(['Dan', 'zoë']);
    expect((await list('answer=howFamiliar:Nobody')).items).toEqual([]);
    // With the other filters, and sorted.
    expect(names((await list('answer=howFamiliar:Super-Fan&country=US')).items)).toEqual(['zoë']);
    expect(await walk('answer=howFamiliar:Super-Fan&sort=followers&dir=desc')).toEqual(['bob', 'zoë', 'Dan']);
  });

  it("finds free text anywhere in a long answer, case-insensitively, with like's wildcards taken literally", async () => {
    expect(names((await list('contains=dreamCampaign:putty')).items)).toEqual(['bob', 'zoë']);
    expect(names((await list('contains=dreamCampaign:putty&answer=howFamiliar:Super-Fan&country=FR')).items)).toEqual(['bob']);
    expect((await list('contains=dreamCampaign:%25')).items).toEqual([]);
    expect((await list('contains=dreamCampaign:_')).items).toEqual([]);
  });

  it('counts each status under the answer filters', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/admin/applications/counts?answer=howFamiliar:Super-Fan&contains=dreamCampaign:putty',
      headers: { cookie },
    });
    expect(response.json()).toEqual({ new: 2, shortlisted: 0, accepted: 0, declined: 0, all: 2 });
  });

  it('refuses a cursor of another sort, and malformed sorts and answer filters, with problem details naming the parameter', async () => {
    const first = await list('sort=name&dir=asc&limit=1');
    const other = await app.inject({ method: 'GET', url: `/api/admin/applications?sort=followers&dir=asc&cursor=${first.nextCursor}`, headers: { cookie } });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ errors: [{ path: 'cursor' }] });
    for (const [query, path] of [
      ['sort=age', 'sort'],
      ['dir=up', 'dir'],
      ['answer=nocolon', 'answer'],
      ['answer=:value', 'answer'],
      ['answer=key%22):x', 'answer'],
      ['contains=dreamCampaign:', 'contains'],
      [`answer=${Array.from({ length: 51 }, (_, i) => `a:${i}`).join('&answer=')}`, 'answer'],
      // Blank texts would match every answer; each `contains` reads its question's answers, so a view holds ten.
      ['contains=dreamCampaign:%20%20%20', 'contains'],
      [`contains=${Array.from({ length: 11 }, (_, i) => `dreamCampaign:${i}`).join('&contains=')}`, 'contains'],
      [
        `answer=${Array.from({ length: 45 }, (_, i) => `a:${i}`).join('&answer=')}&contains=${Array.from({ length: 6 }, (_, i) => `b:${i}`).join('&contains=')}`,
        'answer',
      ],
      ['answer=howFamiliar:%00', 'answer'],
    ] as const) {
      const response = await app.inject({ method: 'GET', url: `/api/admin/applications?${query}`, headers: { cookie } });
      expect(response.statusCode, query).toBe(400);
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(JSON.stringify(response.json<{ errors: { path: string }[] }>().errors.map((e) => e.path)), query).toContain(path);
    }
    // A term given many times is one term.
    const repeatedTerm = await app.inject({
      method: 'GET',
      url: `/api/admin/applications/counts?contains=${Array.from({ length: 50 }, () => 'dreamCampaign:putty').join('&contains=')}`,
      headers: { cookie },
    });
    expect(repeatedTerm.json()).toMatchObject({ all: 2 });
    // A hand-made cursor whose key is not a number, or holds a NUL, is refused too.
    for (const forged of [
      ['followers', 'asc', 'ten', new Date(0).toISOString(), ids.Ada],
      ['name', 'asc', 'a\u0000b', new Date(0).toISOString(), ids.Ada],
    ]) {
      const cursor = Buffer.from(JSON.stringify(forged)).toString('base64url');
      const response = await app.inject({ method: 'GET', url: `/api/admin/applications?sort=${forged[0]}&dir=asc&cursor=${cursor}`, headers: { cookie } });
      expect(response.statusCode).toBe(400);
    }
  });

  it('lists each page with the questions its list filters on: choices with their options, texts', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/admin/pages', headers: { cookie } });
    const [page] =
      response.json<{ pageId: string; questions: { key: string; kind: string; label: string; options?: { value: string; label: string }[] }[] }[]>();
    expect(page!.questions.map((question) => [question.key, question.kind])).toEqual([
      ['howFamiliar', 'choice'],
      ['howOften', 'choice'],
      ['whichProducts', 'multiple'],
      ['campaign.value', 'choice'],
      ['campaign.text', 'text'],
      ['dreamCampaign', 'text'],
    ]);
    const familiar = page!.questions[0]!;
    expect(familiar.label).not.toMatch(/\*$/);
    expect(familiar.options!.map((option) => option.value)).toEqual(['Super-Fan', 'Very familiar', "I've heard about it", 'Unfamiliar']);
    expect(page!.questions[3]!.options!.map((option) => option.value)).toEqual(['Yes', 'No']);
  });

  it('names the previous and next application of a view, for triage without the list', async () => {
    const neighbours = async (id: string, query: string) => {
      const response = await app.inject({ method: 'GET', url: `/api/admin/applications/${id}/neighbours?${query}`, headers: { cookie } });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ previous?: string; next?: string }>();
    };
    // Most followers first: bob, zoë, Dan, Ada, Cleo.
    expect(await neighbours(ids.bob!, 'sort=followers&dir=desc')).toEqual({ next: ids.zoë });
    expect(await neighbours(ids.zoë!, 'sort=followers&dir=desc')).toEqual({ previous: ids.bob, next: ids.Dan });
    expect(await neighbours(ids.Cleo!, 'sort=followers&dir=desc')).toEqual({ previous: ids.Ada });
    // Newest first by default; within the Super-Fans of the followers sort: bob, zoë, Dan.
    expect(await neighbours(ids.bob!, '')).toEqual({ previous: ids.Cleo, next: ids.Ada });
    expect(await neighbours(ids.zoë!, 'sort=followers&dir=desc&answer=howFamiliar:Super-Fan')).toEqual({ previous: ids.bob, next: ids.Dan });
    expect(await neighbours(ids.Dan!, 'sort=name&dir=asc&country=US')).toEqual({ previous: ids.Cleo, next: ids.zoë });
    const unknown = await app.inject({ method: 'GET', url: '/api/admin/applications/no-such-id/neighbours', headers: { cookie } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/problem\+json/);
    const bad = await app.inject({ method: 'GET', url: `/api/admin/applications/${ids.bob}/neighbours?sort=age`, headers: { cookie } });
    expect(bad.statusCode).toBe(400);
  });

  it('saves views per user: a name for the filters and sort, replaced when saved again, refused when not a view of the list', async () => {
    const post = (body: unknown, headers: Record<string, string> = { cookie, 'x-xsrf-token': xsrf }) =>
      app.inject({ method: 'POST', url: '/api/admin/views', headers, payload: body as object });
    const saved = await post({ name: ' Super-Fans by reach ', query: 'answer=howFamiliar%3ASuper-Fan&sort=followers&dir=desc' });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json()).toMatchObject({ name: 'Super-Fans by reach', query: 'answer=howFamiliar%3ASuper-Fan&sort=followers&dir=desc' });
    expect((await post({ name: 'Super-Fans by reach', query: '?status=shortlisted' })).statusCode).toBe(201);
    const listed = await app.inject({ method: 'GET', url: '/api/admin/views', headers: { cookie } });
    expect(listed.json()).toEqual([expect.objectContaining({ name: 'Super-Fans by reach', query: 'status=shortlisted' })]);
    for (const [query, message] of [
      ['sort=age', /valid view/],
      ['cursor=abc', /no filter "cursor"/],
      ['answer=nocolon', /valid view/],
      ['rm=-rf', /no filter "rm"/],
    ] as const) {
      const refused = await post({ name: 'bad', query });
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json<{ errors: { path: string; message: string }[] }>().errors[0]).toMatchObject({
        path: 'query',
        message: expect.stringMatching(message),
      });
    }
    expect((await post({ name: '   ', query: '' })).statusCode).toBe(400);
    expect((await post({ name: 'x'.repeat(81), query: '' })).statusCode).toBe(400);
    // The anti-forgery header is needed, as for every change.
    expect((await post({ name: 'no header', query: '' }, { cookie })).statusCode).toBe(403);

    // Another user (a viewer may save views too) sees none of these, and cannot delete them.
    const signedIn = await app.inject({ method: 'POST', url: '/api/admin/session', payload: VIEWER });
    const viewerXsrf = signedIn.cookies.find((c) => c.name === 'XSRF-TOKEN')!.value;
    const viewerCookie = `${SESSION_COOKIE}=${signedIn.cookies.find((c) => c.name === SESSION_COOKIE)!.value}; XSRF-TOKEN=${viewerXsrf}`;
    expect((await app.inject({ method: 'GET', url: '/api/admin/views', headers: { cookie: viewerCookie } })).json()).toEqual([]);
    const id = listed.json<{ id: string }[]>()[0]!.id;
    expect(
      (await app.inject({ method: 'DELETE', url: `/api/admin/views/${id}`, headers: { cookie: viewerCookie, 'x-xsrf-token': viewerXsrf } })).statusCode,
    ).toBe(404);
    expect((await post({ name: 'Mine', query: 'country=FR' }, { cookie: viewerCookie, 'x-xsrf-token': viewerXsrf })).statusCode).toBe(201);
    expect((await app.inject({ method: 'DELETE', url: `/api/admin/views/${id}`, headers: { cookie, 'x-xsrf-token': xsrf } })).statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url: '/api/admin/views', headers: { cookie } })).json()).toEqual([]);
  });

  it('erasing an application removes its answer rows', async () => {
    const extra = validPayload();
    const { id } = await store.applications.save({
      pageId: 'creators',
      emailAddress: 'gone@example.com',
      payload: {
        ...extra,
        personalInfo: { ...extra.personalInfo, emailAddress: 'gone@example.com' },
        fields: { ...extra.fields, howFamiliar: 'I\u2019ve heard about it' },
      },
    });
    expect((await list('answer=howFamiliar:I%E2%80%99ve%20heard%20about%20it')).items.map((item) => item.id)).toEqual([id]);
    expect(await store.applications.eraseApplication(id, EDITOR.email)).toBe(true);
    expect((await list('answer=howFamiliar:I%E2%80%99ve%20heard%20about%20it')).items).toEqual([]);
  });
});
