import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicantPayload, defaultConfig } from '../../../tests/factories/application';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import { testDist } from '../../../tests/support/test-app';
import { TEST_SECRET } from '../../../tests/support/xsrf';
import type { ApplicationSummary, SummaryQuestion } from '../../shared/admin';
import { SESSION_COOKIE } from '../constants';
import { buildApp } from '../app';
import { openStore, type Store } from '../store/store';
import { createTestUser } from '../../../tests/support/users';

// The summary view's counts and the funnel's periods, through the real routes on both stores.

const EDITOR = { email: 'editor@brand.example', password: 'editor password 1' };
const VIEWER = { email: 'viewer@brand.example', password: 'viewer password 1' };
/** Noon UTC, 2026-06-15: the app's and the store's "now". */
const NOW = Date.parse('2026-06-15T12:00:00.000Z');

describe.each([
  ['SQLite', () => sqliteExecDatabase('summary-')],
  ['PostgreSQL', postgresExecDatabase],
])('summary and funnel on %s', (_storeName, createDatabase: () => Promise<ExecDatabase>) => {
  let database: ExecDatabase;
  let store: Store;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let dir: string;
  let viewer: string;
  let received = NOW - 10 * 86_400_000;

  beforeAll(async () => {
    ({ dir } = testDist('admin-summary-', { admin: true }));
    database = await createDatabase();
    // Each application one hour after the one before, from ten days ago.
    store = await openStore(database.url, { clock: () => (received += 3_600_000) });
    await createTestUser(store, EDITOR, 'editor');
    await createTestUser(store, VIEWER, 'viewer');
    app = await buildApp({ config: defaultConfig(), store, distDir: join(dir, 'dist'), rateLimitPerMinute: 10_000, secret: TEST_SECRET, clock: () => NOW });
    const save = (first: string, country: string, platform: { instagram?: string; tiktok?: string }, fields: Record<string, string>) => {
      const payload = applicantPayload({ firstName: first, lastName: 'Tester', email: `${first.toLowerCase()}@example.com`, country, ...platform, fields });
      return store.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload });
    };
    await save(
      'Ada',
      'GB',
      { instagram: 'ada.makes' },
      {
        howFamiliar: 'Super-Fan',
        howOften: 'Every day',
        whichProducts: 'Thinking Putty, Land of Dough',
        'campaign.value': 'Yes',
        'campaign.text': 'Brand A, Brand B',
        dreamCampaign: 'A castle',
      },
    );
    await save(
      'Kai',
      'GB',
      { tiktok: 'kai' },
      { howFamiliar: 'Super-Fan', howOften: 'Rarely', whichProducts: 'Land of Dough', 'campaign.value': 'No', dreamCampaign: 'A video' },
    );
    await save('Lena', 'FR', { instagram: 'lena' }, { howFamiliar: 'Unfamiliar', howOften: 'Every day', 'campaign.value': 'No', dreamCampaign: 'Stop motion' });
    // An option the page no longer offers, stored before it changed.
    await save('Omar', 'US', { tiktok: 'omar' }, { howFamiliar: 'Used to love it', whichProducts: 'Thinking Putty, Gone Putty', dreamCampaign: 'Unboxing' });
    // Broken text where the answers should be: matched, no answers, and the summary still answers.
    await store.applications.save({
      pageId: 'creators',
      emailAddress: 'zed@example.com',
      payload: { personalInfo: { firstName: 'Zed', lastName: 'Tester', emailAddress: 'zed@example.com' } },
    });
    await database.exec(`update applications set payload = '{"fields": {"howFamiliar": "Super' where email = 'zed@example.com'`);
    viewer = await signIn(VIEWER);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await store?.close();
    await database?.drop();
  });

  async function signIn(user: { email: string; password: string }) {
    const response = await app.inject({ method: 'POST', url: '/api/admin/session', payload: user });
    expect(response.statusCode).toBe(204);
    const session = response.cookies.find((cookie) => cookie.name === SESSION_COOKIE)!;
    return `${SESSION_COOKIE}=${session.value}`;
  }
  const get = (url: string, cookie = viewer) => app.inject({ method: 'GET', url, headers: { cookie } });
  const summary = async (query = ''): Promise<ApplicationSummary> => {
    const response = await get(`/api/admin/summary${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const question = (body: ApplicationSummary, key: string): SummaryQuestion => {
    const found = body.questions.find((q) => q.key === key);
    if (!found) throw new Error(`no question ${key}`);
    return found;
  };

  it('counts each option of every question with choices, zero included, in the configuration order, for a viewer', async () => {
    const body = await summary();
    expect(body.pageId).toBe('creators');
    expect(body.matched).toBe(5);
    expect(body.questions.map((q) => q.key)).toEqual([
      'fields.howFamiliar',
      'fields.howOften',
      'fields.whichProducts',
      'fields.campaign.value',
      'fields.campaign.text',
      'fields.dreamCampaign',
    ]);
    expect(question(body, 'fields.howFamiliar')).toEqual({
      key: 'fields.howFamiliar',
      label: "How familiar are you with Crazy Aaron's?",
      kind: 'choice',
      answered: 4,
      options: [
        { value: 'Super-Fan', label: 'Super-Fan', count: 2 },
        { value: 'Very familiar', label: 'Very familiar', count: 0 },
        { value: "I've heard about it", label: "I've heard about it", count: 0 },
        { value: 'Unfamiliar', label: 'Unfamiliar', count: 1 },
      ],
      other: 1,
    });
    expect(question(body, 'fields.howOften')).toMatchObject({ answered: 3, other: 0 });
    expect(question(body, 'fields.howOften').options.map((o) => o.count)).toEqual([2, 0, 0, 1, 0]);
  });

  it('counts every option picked in a multi-select, and a yes/no as Yes and No with the page labels', async () => {
    const body = await summary();
    expect(question(body, 'fields.whichProducts')).toMatchObject({
      kind: 'multiple',
      answered: 3,
      options: [
        { value: 'Thinking Putty', count: 2 },
        { value: 'Slime Charmers', count: 0 },
        { value: 'Land of Dough', count: 2 },
      ],
      other: 1,
    });
    expect(question(body, 'fields.campaign.value')).toMatchObject({
      kind: 'choice',
      label: 'Have you taken part in an influencer campaign before?',
      answered: 3,
      options: [
        { value: 'Yes', label: 'Yes', count: 1 },
        { value: 'No', label: 'No', count: 2 },
      ],
    });
    // Free text: how many answered, never what.
    expect(question(body, 'fields.campaign.text')).toEqual({
      key: 'fields.campaign.text',
      label: 'Which brands have you worked with?',
      kind: 'text',
      answered: 1,
      options: [],
      other: 0,
    });
    expect(question(body, 'fields.dreamCampaign')).toMatchObject({ kind: 'text', answered: 4, options: [] });
    expect(JSON.stringify(body)).not.toMatch(/castle|Brand A/);
  });

  it('counts the applicants who gave each platform the page offers', async () => {
    const body = await summary();
    expect(body.platforms).toEqual([
      { platform: 'instagram', label: 'Instagram', count: 2 },
      { platform: 'youtube', label: 'YouTube', count: 0 },
      { platform: 'tiktok', label: 'TikTok', count: 2 },
    ]);
  });

  it('applies the list filters', async () => {
    const british = await summary('?country=GB');
    expect(british.matched).toBe(2);
    expect(question(british, 'fields.howFamiliar').options[0]).toMatchObject({ value: 'Super-Fan', count: 2 });
    expect(question(british, 'fields.campaign.value').options.map((o) => o.count)).toEqual([1, 1]);
    const tiktok = await summary('?platform=tiktok&q=kai');
    expect(tiktok.matched).toBe(1);
    expect(tiktok.platforms.map((p) => p.count)).toEqual([0, 0, 1]);
    // Received from ten days ago, one hour apart: all on 2026-06-05.
    expect((await summary('?from=2026-06-06')).matched).toBe(0);
    // A period holding every application: the tallies less none outside it, as the whole page.
    const every = await summary('');
    expect(every.matched).toBeGreaterThan(0);
    expect(await summary('?from=2026-06-05')).toEqual(every);
    expect(await summary('?from=2000-01-01&to=2026-06-05')).toEqual(every);
    expect((await summary('?to=2026-06-04')).matched).toBe(0);
    const none = await summary('?status=declined');
    expect(none.matched).toBe(0);
    expect(question(none, 'fields.howFamiliar')).toMatchObject({ answered: 0, other: 0 });
    expect(question(none, 'fields.howFamiliar').options.every((o) => o.count === 0)).toBe(true);
  });

  it('counts under a free-text contains filter as under the same filter counted application by application', async () => {
    const castle = await summary('?contains=dreamCampaign:CASTLE');
    expect(castle.matched).toBe(1);
    expect(question(castle, 'fields.howFamiliar').options[0]).toMatchObject({ value: 'Super-Fan', count: 1 });
    expect(question(castle, 'fields.campaign.text')).toMatchObject({ answered: 1 });
    expect(castle.platforms.map((p) => p.count)).toEqual([1, 0, 0]);
    for (const query of [
      'contains=dreamCampaign:o',
      'contains=dreamCampaign:a&answer=howFamiliar:Super-Fan',
      'contains=dreamCampaign:o&platform=tiktok',
      'contains=dreamCampaign:nothing like it',
    ]) {
      // `from` far in the past: the same applications, counted on each one's answer rows.
      expect(await summary(`?${query}`), query).toEqual(await summary(`?${query}&from=2000-01-01`));
    }
  });

  it("records the page's choice questions as it starts, and counts no free text per value", async () => {
    const recorded = await database.query<{ key: string }>("select key from tallied_questions where page_id = 'creators' order by key");
    expect(recorded.map((row) => row.key)).toEqual(['campaign.value', 'howFamiliar', 'howOften', 'whichProducts']);
    expect(await database.query("select * from application_tallies where kind = 'answer' and key in ('dreamCampaign', 'campaign.text')")).toEqual([]);
    expect(await database.query("select * from application_tallies where kind = 'answer' and key = 'howFamiliar'")).not.toEqual([]);
  });

  it('answers 401 without a session, 400 problem+json on bad filters, 404 for an unknown page', async () => {
    const anonymous = await app.inject({ method: 'GET', url: '/api/admin/summary' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['content-type']).toMatch(/^application\/problem\+json/);
    for (const query of ['?country=Britain', '?from=2026-02-30', '?status=maybe', '?platform=myspace']) {
      const bad = await get(`/api/admin/summary${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(bad.json()).toMatchObject({ status: 400, detail: 'The filters are not valid.' });
    }
    const unknown = await get('/api/admin/summary?pageId=nope');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('reports the funnel of a chosen period beside the previous period of the same length', async () => {
    // 2026-06-01–07 and the week before it, 2026-05-25–31; a day outside both.
    const counts: [string, 'stepReached' | 'submitted' | 'signInClicked', number, number][] = [
      ['2026-06-01', 'stepReached', 0, 10],
      ['2026-06-07', 'stepReached', 0, 10],
      ['2026-06-03', 'stepReached', 1, 12],
      ['2026-06-03', 'stepReached', 2, 9],
      ['2026-06-03', 'stepReached', 3, 6],
      ['2026-06-04', 'submitted', -1, 5],
      ['2026-06-04', 'signInClicked', -1, 2],
      ['2026-05-25', 'stepReached', 0, 8],
      ['2026-05-31', 'stepReached', 1, 4],
      ['2026-05-31', 'submitted', -1, 1],
      ['2026-05-24', 'stepReached', 0, 100],
      ['2026-06-08', 'stepReached', 0, 100],
    ];
    for (const [day, event, step, times] of counts) for (let i = 0; i < times; i++) store.funnel.recordFunnelEvent('creators', day, event, step);
    const response = await get('/api/admin/funnel?pageId=creators&from=2026-06-01&to=2026-06-07&compare=previous');
    expect(response.statusCode, response.body).toBe(200);
    const report = response.json();
    expect(report).toMatchObject({ from: '2026-06-01', to: '2026-06-07', totals: { reached: [20, 12, 9, 6], submitted: 5, signInClicked: 2 } });
    expect(report.days).toHaveLength(7);
    expect(report.previous).toEqual({
      from: '2026-05-25',
      to: '2026-05-31',
      totals: { reached: [8, 4, 0, 0], submitted: 1, signInClicked: 0, ageEnded: 0 },
      conversion: [
        { from: 'Welcome', to: 'Introduce Yourself', rate: 0.5 },
        { from: 'Introduce Yourself', to: 'More Details', rate: 0 },
        { from: 'More Details', to: 'Creator Hub', rate: null },
      ],
    });
    // Without compare: no previous period; the default range is the 30 days up to the app's today.
    const plain = (await get('/api/admin/funnel')).json();
    expect(plain).not.toHaveProperty('previous');
    expect(plain).toMatchObject({ from: '2026-05-17', to: '2026-06-15' });
    expect(plain.days).toHaveLength(30);
    expect(plain.totals.reached[0]).toBe(228);
  });

  it('refuses a funnel range that ends before it starts, is longer than a year, or compares with something else', async () => {
    for (const query of ['from=2026-06-07&to=2026-06-01', 'from=2025-01-01&to=2026-06-01', 'compare=lastYear']) {
      const response = await get(`/api/admin/funnel?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    expect((await app.inject({ method: 'GET', url: '/api/admin/funnel?compare=previous' })).statusCode).toBe(401);
  });
});
