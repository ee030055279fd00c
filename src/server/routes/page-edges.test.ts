import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWizardConfig } from '../../shared/config';
import type { PageDetail } from '../../shared/pages';
import type { ProblemDetails } from '../../shared/problem';
import { defaultConfig, rawDefaultConfig } from '../../../tests/factories/application';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import { inboxSession, testDist, type TestDist } from '../../../tests/support/test-app';
import { TEST_SECRET } from '../../../tests/support/xsrf';
import { buildApp } from '../app';
import { openStore, type Store } from '../store/store';
import { createTestUser } from '../../../tests/support/users';

// The outside attack on the submit path's edges (docs/decisions/021): URLs that broke every answer
// of a page, wildcards in its policy, applications sent to another site, paths that leave the site,
// the inbox on a campaign page's host name, page ids that differ in case only.

const EDITOR = { email: 'editor@brand.example', password: 'editor password 1' };
/** The one origin the operator allows besides this server (`SUBMIT_ORIGINS_ALLOWED`). */
const ALLOWED = 'https://crm.brand.example';

type Response = Awaited<ReturnType<Awaited<ReturnType<typeof buildApp>>['inject']>>;

const problem = (response: Response, status: number) => {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  return response.json<ProblemDetails & Record<string, unknown>>();
};

describe.each([
  ['SQLite', () => sqliteExecDatabase('page-edges-')],
  ['PostgreSQL', postgresExecDatabase],
])('the edges of a page on %s (decision 021’s outside attack on the submit path’s edges)', (_name, createDatabase) => {
  let database: ExecDatabase;
  let dist: TestDist;
  let store: Store;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let session: { cookie: string; xsrf: string };

  beforeAll(async () => {
    database = await createDatabase();
    dist = testDist('page-edges-', { admin: true });
    store = await openStore(database.url);
    await createTestUser(store, EDITOR, 'editor');
    app = await buildApp({ config: defaultConfig(), store, distDir: dist.distDir, rateLimitPerMinute: 10_000, secret: TEST_SECRET, submitOrigins: [ALLOWED] });
    session = await inboxSession(app, EDITOR);
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await database?.drop();
    dist?.remove();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method,
      url,
      headers: { cookie: session.cookie, 'x-xsrf-token': session.xsrf, ...headers },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  /** Page `id` made from the default page, its draft changed by `edit`, saved and published. */
  const publishWith = async (id: string, edit: (draft: ReturnType<typeof rawDefaultConfig>) => void) => {
    let page = (await call('GET', `/api/admin/pages/${id}`)).json<PageDetail>();
    if (page.id === undefined) {
      const created = await call('POST', '/api/admin/pages', { id, from: 'default' });
      expect(created.statusCode, created.body).toBe(201);
      page = created.json<PageDetail>();
    }
    const draft = structuredClone(page.draft) as ReturnType<typeof rawDefaultConfig>;
    edit(draft);
    const saved = await call('PUT', `/api/admin/pages/${id}/draft`, { config: draft, revision: page.revision });
    expect(saved.statusCode, saved.body).toBe(200);
    return call('POST', `/api/admin/pages/${id}/publish`, { revision: saved.json<{ revision: number }>().revision });
  };
  /** Publishes `config` as page `id`'s next version with no check: a version stored before these rules. */
  const storeUnchecked = async (id: string, config: unknown) => {
    const page = (await store.pages.get(id))!;
    expect(await store.pages.publish(id, page.revision, EDITOR.email, () => ({ config: config as never }))).toMatchObject({ version: expect.any(Number) });
    await app.pageRegistry.changed(id);
  };

  it('refuses at publish, at each field’s JSON path, a URL whose host is no host name (";", ",", "*"), and no stored one breaks the page', async () => {
    const refused = problem(
      await publishWith('edges', (draft) => {
        draft.logo = 'https://a.example;x/logo.png';
        draft.coverImages = [
          { src: '/uploads/0123456789abcdef-480.webp', srcset: '/uploads/0123456789abcdef-480.webp 480w, https://cdn.example;x/c.webp 960w' },
        ];
        draft.analytics = { token: 't', host: 'https://*' };
        draft.errorReporting = { dsn: 'https://key@sentry.example,x/1' };
      }),
      422,
    );
    expect(refused.errors?.map((error) => error.path).sort()).toEqual(['analytics.host', 'coverImages[0].srcset', 'errorReporting.dsn', 'logo']);
    expect(refused.errors?.find((error) => error.path === 'logo')?.message).toBe(
      '"a.example;x" is not a host name: use letters, digits, hyphens and dots only (such as cdn.brand.example)',
    );
    // The preview of that draft is shown (the schema refuses it: the empty shell), never a 500.
    const preview = await call('GET', '/preview/edges');
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.headers['content-security-policy']).not.toMatch(/;x|,x|\*/);

    // Published right, on a host name.
    const published = await publishWith('edges', (draft) => {
      draft.logo = 'https://cdn.brand.example/logo.png';
      draft.coverImages = [];
      delete draft.analytics;
      delete draft.errorReporting;
    });
    expect(published.statusCode, published.body).toBe(201);
    expect((await call('PATCH', '/api/admin/pages/edges', { hosts: ['apply.edges.example'] })).statusCode).toBe(200);
    const page = await app.inject({ method: 'GET', url: '/', headers: { host: 'apply.edges.example' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("img-src 'self' data: https://cdn.brand.example;");

    // A version stored before the rule, with every such value: its host, its ?page= and its
    // preview answer 200 (the default page: a version the schema now refuses is not served).
    const hostile = {
      ...parseWizardConfig({ ...rawDefaultConfig(), pageId: 'edges' }).config!,
      logo: 'https://a.example;x/logo.png',
      analytics: { token: 't', host: 'https://a.example,x' },
    };
    await storeUnchecked('edges', hostile);
    for (const request of [
      { url: '/', headers: { host: 'apply.edges.example' } },
      { url: '/?page=edges', headers: {} },
    ]) {
      const answer = await app.inject({ method: 'GET', ...request });
      expect(answer.statusCode, request.url).toBe(200);
      expect(answer.body).toContain(`"pageId":"${defaultConfig().pageId}"`);
      expect(answer.headers['content-security-policy']).not.toMatch(/;x|,x/);
    }
    expect((await call('GET', '/preview/edges')).statusCode).toBe(200);
  });

  it('refuses protocol-relative and backslash paths, which leave the site, in signUpUrl and footer links', async () => {
    const refused = problem(
      await publishWith('paths', (draft) => {
        draft.signUpUrl = '//evil.example/phish';
        draft.footerLinks = [
          { text: 'Terms', url: '/\\evil.example/phish' },
          { text: 'Privacy', url: '/privacy' },
        ];
      }),
      422,
    );
    expect(refused.errors?.map((error) => `${error.path}: ${error.message}`)).toEqual([
      'signUpUrl: expected a path on this site: one "/" first, not "//" or "/\\" (a browser reads those as another site\'s address)',
      'footerLinks[0].url: expected a path on this site: one "/" first, not "//" or "/\\" (a browser reads those as another site\'s address)',
    ]);
    expect(
      (
        await publishWith('paths', (draft) => {
          draft.signUpUrl = '/sign-up';
          draft.footerLinks = [{ text: 'Privacy', url: '/privacy' }];
        })
      ).statusCode,
    ).toBe(201);
  });

  it('sends applications only to this server’s own submit path or an origin the operator allows', async () => {
    for (const requestUrl of ['https://evil.example/collect', '/api/admin/pages/paths/draft', '//evil.example/collect']) {
      const refused = problem(await publishWith('elsewhere', (draft) => (draft.requestUrl = requestUrl)), 422);
      expect(
        refused.errors?.map((error) => error.path),
        requestUrl,
      ).toEqual(['requestUrl']);
    }
    expect(problem(await publishWith('elsewhere', (draft) => (draft.requestUrl = 'https://evil.example/collect')), 422).errors?.[0]?.message).toBe(
      `applications may be sent to this server or to an origin the operator allows (SUBMIT_ORIGINS_ALLOWED: ${ALLOWED}), not to https://evil.example`,
    );
    // The preview says so too.
    expect((await call('GET', '/preview/elsewhere')).body).toContain('SUBMIT_ORIGINS_ALLOWED');

    // An allowed origin publishes, and the page may reach it (connect-src).
    const allowed = await publishWith('elsewhere', (draft) => (draft.requestUrl = `${ALLOWED}/collect`));
    expect(allowed.statusCode, allowed.body).toBe(201);
    const served = await app.inject({ method: 'GET', url: '/?page=elsewhere' });
    expect(served.body).toContain(`${ALLOWED}/collect`);
    expect(served.headers['content-security-policy']).toContain(`connect-src 'self' ${ALLOWED};`);

    // A version stored before the rule that sends elsewhere is not served: the default page.
    await storeUnchecked('elsewhere', {
      ...parseWizardConfig({ ...rawDefaultConfig(), pageId: 'elsewhere' }).config!,
      requestUrl: 'https://evil.example/collect',
    });
    const notServed = await app.inject({ method: 'GET', url: '/?page=elsewhere' });
    expect(notServed.statusCode).toBe(200);
    expect(notServed.body).not.toContain('evil.example');
    expect(notServed.headers['content-security-policy']).not.toContain('evil.example');
  });

  it('serves neither the inbox nor the preview on a campaign page’s host name: a redirect to the page, 404 for the API', async () => {
    // Version 1 of the page (published right above) served again at its host name.
    expect((await call('POST', '/api/admin/pages/edges/versions/1/publish')).statusCode).toBe(200);
    const campaign = { host: 'apply.edges.example' };
    for (const url of ['/admin', '/admin/pages/edges', '/preview/edges']) {
      const answer = await call('GET', url, undefined, campaign);
      expect(answer.statusCode, url).toBe(302);
      expect(answer.headers.location, url).toBe('/');
    }
    for (const [method, url, body] of [
      ['GET', '/api/admin/pages', undefined],
      ['GET', '/api/admin/session', undefined],
      ['POST', '/api/admin/session', EDITOR],
      ['PATCH', '/api/admin/pages/edges', { hosts: [] }],
    ] as const) {
      const answer = await call(method, url, body, campaign);
      expect(problem(answer, 404).detail, url).toBe(`Nothing is at ${method} ${url}.`);
      expect(answer.headers['set-cookie'], url).toBeUndefined();
    }
    // The page itself, its submit path and its images are there; the inbox's own address keeps the inbox.
    expect((await app.inject({ method: 'GET', url: '/', headers: campaign })).body).toContain('https://cdn.brand.example/logo.png');
    expect((await call('GET', '/api/admin/pages/edges')).json<PageDetail>().hosts).toEqual(['apply.edges.example']);
    expect((await call('GET', '/admin')).statusCode).toBe(200);
    expect((await call('GET', '/preview/edges')).statusCode).toBe(200);
  });

  it('refuses a page id that differs from another (or the default page’s) in case only, also when both are created at once', async () => {
    const create = (id: string) => call('POST', '/api/admin/pages', { id, from: 'default' });
    expect((await create('summer')).statusCode).toBe(201);
    const summer = problem(await create('SUMMER'), 409);
    expect(summer.detail).toBe('There is a page "summer" already: an id may not differ from another in case only.');
    expect(summer.errors).toEqual([{ path: 'id', message: 'Too like "summer"' }]);
    expect(problem(await create('summer'), 409).errors).toEqual([{ path: 'id', message: 'This id is taken' }]);
    expect(problem(await create(defaultConfig().pageId.toUpperCase()), 409).errors).toEqual([{ path: 'id', message: `Too like "${defaultConfig().pageId}"` }]);
    const both = await Promise.all(['Autumn', 'AUTUMN', 'autumn'].map(create));
    expect(both.map((answer) => answer.statusCode).sort()).toEqual([201, 409, 409]);
    expect((await store.pages.list()).filter((page) => page.id.toLowerCase() === 'autumn')).toHaveLength(1);
  });

  it("reports a published page's funnel, as the default page's", async () => {
    expect((await publishWith('funnelled', (draft) => void (draft.title = 'Funnelled'))).statusCode).toBe(201);
    const beacon = (body: unknown) =>
      app.inject({ method: 'POST', url: '/api/funnel/funnelled', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    for (const body of [{ event: 'stepReached', step: 0 }, { event: 'stepReached', step: 0 }, { event: 'stepReached', step: 1 }, { event: 'ageEnded' }])
      expect((await beacon(body)).statusCode).toBe(204);
    const report = await call('GET', '/api/admin/funnel?pageId=funnelled');
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json<{ totals: unknown }>().totals).toEqual({ reached: [2, 1, 0, 0], submitted: 0, signInClicked: 0, ageEnded: 1 });
    expect(problem(await call('GET', '/api/admin/funnel?pageId=never-made'), 404).detail).toBe('There is no page "never-made".');
  });
});
