import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSES_BEFORE_OPENING, MAX_DRAFT_DEPTH, SaveDraftSchema, type PageDetail, type PageSummary } from '../../shared/pages';
import { DEFAULT_MESSAGES } from '../../shared/messages';
import type { ProblemDetails } from '../../shared/problem';
import { defaultConfig, validPayload } from '../../../tests/factories/application';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import { inboxSession, testDist } from '../../../tests/support/test-app';
import { TEST_SECRET, xsrfPair } from '../../../tests/support/xsrf';
import { buildApp } from '../app';
import { openStore, type Store } from '../store/store';
import { createTestUser } from '../../../tests/support/users';

const EDITOR = { email: 'editor@brand.example', password: 'editor password 1' };
const OTHER = { email: 'other@brand.example', password: 'other password 12' };
const VIEWER = { email: 'viewer@brand.example', password: 'viewer password 1' };

describe.each([
  ['SQLite', () => sqliteExecDatabase('admin-pages-')],
  ['PostgreSQL', postgresExecDatabase],
])('campaign pages on %s', (_name, createDatabase) => {
  let database: ExecDatabase;
  let dir: string;
  let store: Store;
  let app: Awaited<ReturnType<typeof buildApp>>;
  /** The time the app reads, in ms: moved by the tests, never waited for. */
  let now = Date.parse('2026-12-01T12:00:00Z');
  const sessions: Record<string, { cookie: string; xsrf: string }> = {};

  const signIn = (user: { email: string; password: string }) => inboxSession(app, user);

  beforeAll(async () => {
    database = await createDatabase();
    ({ dir } = testDist('admin-pages-', { admin: true }));
    store = await openStore(database.url, { clock: () => now });
    await createTestUser(store, EDITOR, 'editor');
    await createTestUser(store, OTHER, 'editor');
    await createTestUser(store, VIEWER, 'viewer');
    app = await buildApp({ config: defaultConfig(), store, distDir: join(dir, 'dist'), rateLimitPerMinute: 10_000, secret: TEST_SECRET, clock: () => now });
    sessions.editor = await signIn(EDITOR);
    sessions.other = await signIn(OTHER);
    sessions.viewer = await signIn(VIEWER);
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown, as: 'editor' | 'other' | 'viewer' = 'editor') =>
    app.inject({
      method,
      url: `/api/admin${url}`,
      headers: { cookie: sessions[as]!.cookie, 'x-xsrf-token': sessions[as]!.xsrf },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  const submit = (pageId: string, payload: unknown = validPayload()) =>
    app.inject({
      method: 'PUT',
      url: `/api/syncPage/${pageId}`,
      headers: { ...xsrfPair().headers, 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
  const problem = (response: { statusCode: number; headers: Record<string, unknown>; json: () => unknown }, status: number) => {
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    return response.json() as ProblemDetails & Record<string, unknown>;
  };
  const pageVersionOf = async (id: string) =>
    (await store.applications.findById(id)) &&
    (await database.query<{ page_version: number | string | null }>(`select page_version from applications where id = '${id}'`))[0]!.page_version;

  it('creates drafts from the default page or another page, never over a taken id', async () => {
    const created = await call('POST', '/pages', { id: 'summer', from: 'default' });
    expect(created.statusCode, created.body).toBe(201);
    const page = created.json<PageDetail>();
    expect(page).toMatchObject({ id: 'summer', status: 'draft', revision: 1, publishedVersion: null, updatedBy: EDITOR.email, versions: [] });
    expect((page.draft as { pageId: string }).pageId).toBe('summer');
    expect((page.draft as { title: string }).title).toBe(defaultConfig().title);

    expect(problem(await call('POST', '/pages', { id: 'summer', from: 'default' }), 409).errors).toEqual([{ path: 'id', message: 'This id is taken' }]);
    expect(problem(await call('POST', '/pages', { id: defaultConfig().pageId, from: 'default' }), 409).errors?.[0]?.path).toBe('id');
    expect(problem(await call('POST', '/pages', { id: 'copy', from: 'nowhere' }), 400).errors?.[0]?.path).toBe('from');
    expect(problem(await call('POST', '/pages', { id: 'no spaces', from: 'default' }), 400).errors?.[0]?.path).toBe('id');

    const copy = await call('POST', '/pages', { id: 'winter', from: 'summer' });
    expect(copy.statusCode).toBe(201);
    expect((copy.json<PageDetail>().draft as { pageId: string }).pageId).toBe('winter');
  });

  it('lets viewers read and only editors change, with the anti-forgery header', async () => {
    const list = await call('GET', '/pages', undefined, 'viewer');
    expect(list.statusCode).toBe(200);
    const pages = list.json<PageSummary[]>();
    expect(pages[0]).toMatchObject({ id: defaultConfig().pageId, default: true, status: 'published' });
    expect(pages.map((p) => p.id)).toEqual([defaultConfig().pageId, 'summer', 'winter']);
    expect((await call('GET', '/pages/summer', undefined, 'viewer')).statusCode).toBe(200);
    problem(await call('POST', '/pages', { id: 'viewers', from: 'default' }, 'viewer'), 403);
    problem(await call('PUT', '/pages/summer/draft', { config: {}, revision: 1 }, 'viewer'), 403);
    problem(await call('POST', '/pages/summer/publish', { revision: 1 }, 'viewer'), 403);
    problem(await call('PATCH', '/pages/summer', { status: 'closed' }, 'viewer'), 403);
    const noHeader = await app.inject({
      method: 'POST',
      url: '/api/admin/pages',
      headers: { cookie: sessions.editor!.cookie },
      payload: { id: 'x', from: 'default' },
    });
    problem(noHeader, 403);
    problem(await app.inject({ method: 'GET', url: '/api/admin/pages' }), 401);
    problem(await call('GET', '/pages/nothing'), 404);
  });

  it('saves drafts with a revision check that names who changed the page', async () => {
    const page = (await call('GET', '/pages/summer')).json<PageDetail>();
    const draft = { ...(page.draft as object), title: 'Summer creators' };
    now += 1000;
    const saved = await call('PUT', '/pages/summer/draft', { config: draft, revision: 1 }, 'other');
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ revision: 2, updatedAt: new Date(now).toISOString() });

    const stale = problem(await call('PUT', '/pages/summer/draft', { config: { ...draft, title: 'Mine' }, revision: 1 }), 409);
    expect(stale).toMatchObject({ updatedBy: OTHER.email, updatedAt: new Date(now).toISOString(), revision: 2 });
    expect(stale.errors?.[0]?.path).toBe('revision');
    // Autosave keeps what was typed, valid or not, but only JSON objects of at most 256 KiB.
    expect((await call('PUT', '/pages/winter/draft', { config: { title: '', steps: 'soon' }, revision: 1 })).statusCode).toBe(200);
    expect(problem(await call('PUT', '/pages/winter/draft', { config: [], revision: 2 }), 400).errors?.[0]?.path).toBe('config');
    // Nesting deep enough to exhaust JSON.stringify's stack is a 400 naming config, never a 500 (fourth attack, F5).
    for (const depth of [MAX_DRAFT_DEPTH, 5000, 100_000]) {
      const deep = await app.inject({
        method: 'PUT',
        url: '/api/admin/pages/winter/draft',
        headers: { cookie: sessions.editor!.cookie, 'x-xsrf-token': sessions.editor!.xsrf, 'content-type': 'application/json' },
        payload: `{"config":{"title":"x","junk":${'['.repeat(depth)}${']'.repeat(depth)}},"revision":2}`,
      });
      expect(problem(deep, 400).errors?.[0]?.path).toBe('config');
    }
    expect(
      SaveDraftSchema.safeParse({
        config: { title: 'x', junk: JSON.parse('['.repeat(MAX_DRAFT_DEPTH - 1) + ']'.repeat(MAX_DRAFT_DEPTH - 1)) as unknown },
        revision: 2,
      }).success,
    ).toBe(true);
    const huge = await call('PUT', '/pages/winter/draft', { config: { html: 'x'.repeat(256 * 1024) }, revision: 2 });
    expect(problem(huge, 413).errors).toEqual([{ path: 'config', message: 'At most 256 KiB of JSON' }]);
    // Over the limit by its multibyte characters only, its body too large to read: the same answer (decision 021, the fifth outside attack, F8).
    const wide = await call('PUT', '/pages/winter/draft', { config: { html: 'é'.repeat(140 * 1024) }, revision: 2 });
    expect(problem(wide, 413).errors).toEqual([{ path: 'config', message: 'At most 256 KiB of JSON' }]);
    problem(await call('PUT', '/pages/nothing/draft', { config: {}, revision: 1 }), 404);
    expect((await call('GET', '/pages/summer')).json<PageDetail>()).toMatchObject({ title: 'Summer creators', revision: 2, updatedBy: OTHER.email });
  });

  it('publishes only a page that passes the configuration checks, as consecutive immutable versions', async () => {
    const invalid = problem(await call('POST', '/pages/winter/publish', { revision: 2 }), 422);
    expect(invalid.errors!.length).toBeGreaterThan(0);
    expect(invalid.errors!.map((e) => e.path)).toEqual(expect.arrayContaining(['steps']));
    problem(await call('POST', '/pages/summer/publish', { revision: 1 }), 409);
    expect(problem(await submit('summer'), 404).detail).toMatch(/no page/);

    const first = await call('POST', '/pages/summer/publish', { revision: 2 });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toEqual({ version: 1 });
    // Five publishes at once of the draft served: no version more, each answers the one served (decision 021, the fifth outside attack, F7).
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => call('POST', '/pages/summer/publish', { revision: 2 })));
    expect(concurrent.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(concurrent.map((r) => r.json<{ version: number }>().version)).toEqual([1, 1, 1, 1, 1]);
    // Each new draft published: consecutive versions.
    for (let take = 2; take <= 6; take += 1) {
      const current = (await call('GET', '/pages/summer')).json<PageDetail>();
      await call('PUT', '/pages/summer/draft', {
        config: { ...(current.draft as object), title: `Summer creators, take ${take}` },
        revision: current.revision,
      });
      const published = await call('POST', '/pages/summer/publish', { revision: current.revision + 1 });
      expect(published.statusCode, published.body).toBe(201);
      expect(published.json()).toEqual({ version: take });
    }
    const page = (await call('GET', '/pages/summer', undefined, 'viewer')).json<PageDetail>();
    expect(page).toMatchObject({ status: 'published', publishedVersion: 6 });
    expect(page.versions.map((v) => v.version)).toEqual([1, 2, 3, 4, 5, 6]);
    const version = await call('GET', '/pages/summer/versions/1', undefined, 'viewer');
    expect(version.json()).toMatchObject({ pageId: 'summer', title: 'Summer creators' });
    problem(await call('GET', '/pages/summer/versions/99'), 404);
    expect(problem(await call('GET', '/pages/summer/versions/zero'), 400).errors?.[0]?.path).toBe('n');
    // A version is written in digits only (decision 021, the fifth outside attack, F8).
    for (const n of ['1e0', '0x1', '%201', '01', '1.0', '+1', '2147483648']) {
      expect(problem(await call('GET', `/pages/summer/versions/${n}`), 400).errors?.[0]?.path, n).toBe('n');
      expect(problem(await call('POST', `/pages/summer/versions/${n}/publish`), 400).errors?.[0]?.path, n).toBe('n');
    }
  });

  it('answers the JSON path of a semantic error and refuses another pageId', async () => {
    const page = (await call('GET', '/pages/winter')).json<PageDetail>();
    const config = (await call('GET', '/pages/summer')).json<PageDetail>().draft as Record<string, unknown>;
    await call('PUT', '/pages/winter/draft', { config: { ...config, pageId: 'summer' }, revision: page.revision });
    const wrongId = problem(await call('POST', '/pages/winter/publish', { revision: page.revision + 1 }), 422);
    expect(wrongId.errors).toEqual([{ path: 'pageId', message: 'must be "winter", the page\'s id' }]);
    const steps = structuredClone(config.steps) as { blocks: { data: Record<string, unknown> }[] }[];
    steps[1]!.blocks[0]!.data.fields = ['notAField'];
    await call('PUT', '/pages/winter/draft', { config: { ...config, pageId: 'winter', steps }, revision: page.revision + 1 });
    const semantic = problem(await call('POST', '/pages/winter/publish', { revision: page.revision + 2 }), 422);
    expect(semantic.errors?.[0]?.path).toMatch(/^steps\[1\]\.blocks\[0\]/);
  });

  it('takes applications for a published page against its version, and rolls back', async () => {
    const response = await submit('summer');
    expect(response.statusCode, response.body).toBe(201);
    expect(Number(await pageVersionOf(response.json<{ id: string }>().id))).toBe(6);
    const rollback = await call('POST', '/pages/summer/versions/2/publish');
    expect(rollback.statusCode, rollback.body).toBe(200);
    expect(Number(await pageVersionOf((await submit('summer')).json<{ id: string }>().id))).toBe(2);
    problem(await call('POST', '/pages/summer/versions/42/publish'), 404);
    problem(await call('POST', '/pages/nothing/versions/1/publish'), 404);
    // The default page as before: no version stored.
    const onDefault = await submit(defaultConfig().pageId);
    expect(onDefault.statusCode).toBe(201);
    expect(await pageVersionOf(onDefault.json<{ id: string }>().id)).toBeNull();
    const list = (await call('GET', '/pages')).json<PageSummary[]>();
    expect(list.find((p) => p.id === 'summer')).toMatchObject({ applications: 2, publishedVersion: 2 });
  });

  it('closes a page by status, dates and cap: its submit answers 410', async () => {
    const patch = async (body: unknown) => {
      const response = await call('PATCH', '/pages/summer', body);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<PageDetail>();
    };
    expect(await patch({ status: 'closed' })).toMatchObject({ status: 'closed' });
    expect(problem(await submit('summer'), 410).detail).toMatch(/closed/);
    await patch({ status: 'published' });
    expect((await submit('summer')).statusCode).toBe(201);

    const hour = 3_600_000;
    expect(await patch({ opensAt: new Date(now + hour).toISOString().replace('Z', '+00:00'), closesAt: new Date(now + 3 * hour).toISOString() })).toMatchObject(
      {
        opensAt: new Date(now + hour).toISOString(),
      },
    );
    problem(await submit('summer'), 410);
    now += 2 * hour;
    expect((await submit('summer')).statusCode).toBe(201);
    now += 2 * hour;
    problem(await submit('summer'), 410);
    // Against the closing time stored, and (by the schema) against the one sent with it.
    expect(problem(await call('PATCH', '/pages/summer', { opensAt: new Date(now + 5 * hour).toISOString() }), 400).errors).toEqual([
      { path: 'closesAt', message: CLOSES_BEFORE_OPENING },
    ]);
    expect(
      problem(await call('PATCH', '/pages/summer', { opensAt: new Date(now + 5 * hour).toISOString(), closesAt: new Date(now + 5 * hour).toISOString() }), 400)
        .errors,
    ).toEqual([{ path: 'closesAt', message: CLOSES_BEFORE_OPENING }]);
    await patch({ opensAt: null, closesAt: null });

    // At the cap (the tallies' count, then this process's own submits), closed.
    const stored = (await call('GET', '/pages/summer')).json<PageDetail>().applications;
    expect(stored).toBe(4);
    await patch({ maxApplications: stored + 1 });
    expect((await submit('summer')).statusCode).toBe(201);
    problem(await submit('summer'), 410);
    await patch({ maxApplications: null });
    expect((await submit('summer')).statusCode).toBe(201);
  });

  it('holds a cap exactly: 30 submits at once to a page with room for 5 store 5 and answer 410 to the rest (decision 021, the fifth outside attack, F1)', async () => {
    const created = (await call('POST', '/pages', { id: 'capped', from: 'default' })).json<PageDetail>();
    expect((await call('POST', '/pages/capped/publish', { revision: created.revision })).statusCode).toBeLessThan(300);
    expect((await call('PATCH', '/pages/capped', { maxApplications: 5 })).statusCode).toBe(200);
    const answers = await Promise.all(Array.from({ length: 30 }, () => submit('capped')));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 410)).toHaveLength(25);
    const refused = answers.find((answer) => answer.statusCode === 410)!;
    expect(problem(refused, 410).detail).toBe(DEFAULT_MESSAGES.closed);
    expect(await database.query(`select id from applications where page_id = 'capped'`)).toHaveLength(5);
    // A higher cap makes room for exactly the difference; without a cap, no slot is needed.
    expect((await call('PATCH', '/pages/capped', { maxApplications: 7 })).statusCode).toBe(200);
    const more = await Promise.all(Array.from({ length: 6 }, () => submit('capped')));
    expect(more.filter((answer) => answer.statusCode === 201)).toHaveLength(2);
    expect((await call('PATCH', '/pages/capped', { maxApplications: null })).statusCode).toBe(200);
    expect((await submit('capped')).statusCode).toBe(201);
    // A cap set again counts the applications stored (8): one more slot at 9.
    expect((await call('PATCH', '/pages/capped', { maxApplications: 9 })).statusCode).toBe(200);
    const last = await Promise.all(Array.from({ length: 3 }, () => submit('capped')));
    expect(last.filter((answer) => answer.statusCode === 201)).toHaveLength(1);
  });

  it('answers a retry of a stored application as the first time, after its page filled or closed (decision 021, the fifth outside attack, F4)', async () => {
    const created = (await call('POST', '/pages', { id: 'replayed', from: 'default' })).json<PageDetail>();
    expect((await call('POST', '/pages/replayed/publish', { revision: created.revision })).statusCode).toBeLessThan(300);
    expect((await call('PATCH', '/pages/replayed', { maxApplications: 1 })).statusCode).toBe(200);
    const key = crypto.randomUUID();
    const keyed = (payload: unknown = validPayload()) =>
      app.inject({
        method: 'PUT',
        url: '/api/syncPage/replayed',
        headers: { ...xsrfPair().headers, 'content-type': 'application/json', 'idempotency-key': key },
        payload: JSON.stringify(payload),
      });
    const first = await keyed();
    expect(first.statusCode, first.body).toBe(201);
    // Full now: the same application again is the first one, a new one is refused.
    const again = await keyed();
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    problem(await submit('replayed'), 410);
    // Closed by its status: the same.
    expect((await call('PATCH', '/pages/replayed', { status: 'closed' })).statusCode).toBe(200);
    const closed = await keyed();
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toEqual(first.json());
    const other = validPayload();
    other.personalInfo.firstName = 'Someone';
    expect(problem(await keyed(other), 422).errors).toEqual([{ path: 'Idempotency-Key', message: 'Used before with another body' }]);
    problem(await submit('replayed'), 410);
    expect(await database.query(`select id from applications where page_id = 'replayed'`)).toHaveLength(1);
  });

  it('takes one slot for one application sent five times at once with one key (decision 021, the fifth outside attack, F1)', async () => {
    const created = (await call('POST', '/pages', { id: 'retried', from: 'default' })).json<PageDetail>();
    expect((await call('POST', '/pages/retried/publish', { revision: created.revision })).statusCode).toBeLessThan(300);
    expect((await call('PATCH', '/pages/retried', { maxApplications: 3 })).statusCode).toBe(200);
    const key = crypto.randomUUID();
    const body = JSON.stringify(validPayload());
    const same = await Promise.all(
      Array.from({ length: 5 }, () =>
        app.inject({
          method: 'PUT',
          url: '/api/syncPage/retried',
          headers: { ...xsrfPair().headers, 'content-type': 'application/json', 'idempotency-key': key },
          payload: body,
        }),
      ),
    );
    expect(same.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(same.map((answer) => answer.json<{ id: string }>().id)).size).toBe(1);
    // Two slots left, no more.
    expect((await Promise.all(Array.from({ length: 4 }, () => submit('retried')))).map((answer) => answer.statusCode).sort()).toEqual([201, 201, 410, 410]);
    expect(await database.query(`select taken from pages where id = 'retried'`)).toEqual([{ taken: 3 }]);
  });

  it('makes one version of five publishes of one draft at once: the others answer 200 with it (decision 021, the fifth outside attack, F7)', async () => {
    const created = (await call('POST', '/pages', { id: 'twice', from: 'default' })).json<PageDetail>();
    const answers = await Promise.all(Array.from({ length: 5 }, () => call('POST', '/pages/twice/publish', { revision: created.revision })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(answers.map((answer) => answer.json<{ version: number }>().version)).toEqual([1, 1, 1, 1, 1]);
    expect((await call('GET', '/pages/twice')).json<PageDetail>().versions).toHaveLength(1);
    expect((await store.pages.auditOf('twice')).filter((entry) => entry.action === 'page-published')).toHaveLength(1);
    // Closed, the same draft published opens it again as a new version, as before.
    expect((await call('PATCH', '/pages/twice', { status: 'closed' })).statusCode).toBe(200);
    const reopened = await call('POST', '/pages/twice/publish', { revision: created.revision });
    expect(reopened.statusCode).toBe(201);
    expect((await call('GET', '/pages/twice')).json<PageDetail>()).toMatchObject({ status: 'published', publishedVersion: 2 });
  });

  it('gives a host name to one page only, naming the index that is taken', async () => {
    const mine = await call('PATCH', '/pages/summer', { hosts: ['summer.brand.example', 'apply.brand.example'] });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json<PageDetail>().hosts).toEqual(['apply.brand.example', 'summer.brand.example']);
    const taken = problem(await call('PATCH', '/pages/winter', { hosts: ['winter.brand.example', 'apply.brand.example'] }), 409);
    expect(taken.errors).toEqual([{ path: 'hosts.1', message: 'Taken by the page "summer"' }]);
    expect(problem(await call('PATCH', '/pages/winter', { hosts: ['a.example', 'a.example'] }), 400).errors?.[0]?.path).toBe('hosts.1');
    expect(problem(await call('PATCH', '/pages/winter', { hosts: ['Upper.Example:8080'] }), 400).errors?.[0]?.path).toBe('hosts.0');
    expect(problem(await call('PATCH', '/pages/winter', { opensAt: 'tomorrow' }), 400).errors?.[0]?.path).toBe('opensAt');
    expect(problem(await call('PATCH', '/pages/winter', { status: 'published' }), 409).errors?.[0]?.path).toBe('status');
    // Closed neither: a page never published has nothing to close (decision 021, the fifth outside attack, F5).
    const closing = problem(await call('PATCH', '/pages/winter', { status: 'closed' }), 409);
    expect(closing.errors).toEqual([{ path: 'status', message: 'The page has no published version' }]);
    expect((await call('GET', '/pages/winter')).json<PageDetail>().status).toBe('draft');
    // Freed by its page, a name can be taken.
    expect((await call('PATCH', '/pages/summer', { hosts: ['summer.brand.example'] })).statusCode).toBe(200);
    expect((await call('PATCH', '/pages/winter', { hosts: ['apply.brand.example'] })).statusCode).toBe(200);
  });

  it("refuses host names that would take the inbox's own address: IP literals, localhost, single labels, the inbox's host (decision 021, the fifth outside attack, F3)", async () => {
    const refused = async (hosts: string[], status = 400) =>
      problem(await call('PATCH', '/pages/winter', { hosts: ['ok.brand.example', ...hosts] }), status).errors?.[0];
    for (const name of ['127.0.0.1', '127.1', '2130706433', '0x7f000001', '10.0.0.0x1', 'localhost', 'app.localhost', 'intranet', '[::1]', '::1']) {
      expect(await refused([name]), name).toMatchObject({ path: 'hosts.1' });
    }
    expect((await refused(['192.168.0.1']))?.message).toBe('expected a host name, not an IP address');
    // The host the inbox is reached at (a proxy's X-Forwarded-Host only when trusted).
    const own = await app.inject({
      method: 'PATCH',
      url: '/api/admin/pages/winter',
      headers: { host: 'Inbox.Brand.Example:8443', cookie: sessions.editor!.cookie, 'x-xsrf-token': sessions.editor!.xsrf },
      payload: { hosts: ['ok.brand.example', 'inbox.brand.example'] },
    });
    expect(problem(own, 409).errors).toEqual([{ path: 'hosts.1', message: "The inbox's own host name" }]);
    expect((await call('PATCH', '/pages/winter', { hosts: ['1password.brand.example', 'x1.example'] })).statusCode).toBe(200);
    expect((await call('PATCH', '/pages/winter', { hosts: ['apply.brand.example'] })).statusCode).toBe(200);
  });

  it('audits every change of a page: who, when and what', async () => {
    const entries = await store.pages.auditOf('summer');
    expect(entries.map((e) => e.action)).toEqual(expect.arrayContaining(['page-created', 'page-draft', 'page-published', 'page-republished', 'page-updated']));
    expect(entries).toContainEqual(expect.objectContaining({ action: 'page-draft', actor: OTHER.email, from_value: '1', to_value: '2' }));
    expect(entries.filter((e) => e.action === 'page-published')).toHaveLength(6);
    expect(entries.every((e) => typeof e.at === 'string' && e.at.endsWith('Z'))).toBe(true);
  });

  it('audits what a change was and became, and writes nothing for a change that changes nothing (decision 021, the fifth outside attack, F6)', async () => {
    const count = async () => (await store.pages.auditOf('summer')).length;
    const before = await count();
    expect(problem(await call('PATCH', '/pages/summer', {}), 400).errors).toEqual([
      { path: '(body)', message: 'expected at least one of status, hosts, opensAt, closesAt, maxApplications' },
    ]);
    expect((await call('PATCH', '/pages/summer', { maxApplications: 40, hosts: ['b.summer.example', 'a.summer.example'] })).statusCode).toBe(200);
    // (Entries made within one millisecond of the tests' clock have no order among them: found by what they say.)
    const updates = (await store.pages.auditOf('summer'))
      .filter((e) => e.action === 'page-updated')
      .map((e) => ({ from: JSON.parse(e.from_value!) as unknown, to: JSON.parse(e.to_value!) as unknown }));
    expect(updates).toContainEqual({
      from: { hosts: ['summer.brand.example'], maxApplications: null },
      to: { hosts: ['a.summer.example', 'b.summer.example'], maxApplications: 40 },
    });
    // The same again: no entry.
    expect((await call('PATCH', '/pages/summer', { maxApplications: 40, hosts: ['a.summer.example', 'b.summer.example'] })).statusCode).toBe(200);
    expect(await count()).toBe(before + 1);
    expect((await call('PATCH', '/pages/summer', { maxApplications: null, hosts: ['summer.brand.example'] })).statusCode).toBe(200);
    // A publish records the draft's revision it made its version from.
    const page = (await call('GET', '/pages/summer')).json<PageDetail>();
    await call('PUT', '/pages/summer/draft', { config: { ...(page.draft as object), title: 'Summer creators, audited' }, revision: page.revision });
    const published = (await call('POST', '/pages/summer/publish', { revision: page.revision + 1 })).json<{ version: number }>();
    const publishes = (await store.pages.auditOf('summer')).filter((e) => e.action === 'page-published').map((e) => ({ from: e.from_value, to: e.to_value }));
    expect(publishes).toContainEqual({ from: 'published', to: JSON.stringify({ version: published.version, revision: page.revision + 1 }) });
  });
});
