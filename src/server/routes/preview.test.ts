import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WizardConfig } from '../../shared/config';
import type { PageDetail } from '../../shared/pages';
import { escapeHtml } from '../../shared/html';
import { PREVIEW_ELEMENT_ID, type PreviewMarker } from '../../shared/preview';
import { defaultConfig } from '../../../tests/factories/application';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import { inboxSession, testDist, type TestDist } from '../../../tests/support/test-app';
import { TEST_SECRET } from '../../../tests/support/xsrf';
import { buildApp } from '../app';
import { previewPage } from './preview';
import { openStore, type Store } from '../store/store';
import { createTestUser } from '../../../tests/support/users';

const EDITOR = { email: 'editor@brand.example', password: 'editor password 1' };
const VIEWER = { email: 'viewer@brand.example', password: 'viewer password 1' };

/** The built page's shape where it matters here: the public page's inline first script, the root, the configuration's marker. */
const TEMPLATE =
  '<!doctype html><html lang="en"><head><title>W</title></head><body><div id="root"></div><!--wizard-config-->\n<script type="module">startPublicWizard()</script>\n</body></html>';

describe.each([
  ['SQLite', () => sqliteExecDatabase('preview-')],
  ['PostgreSQL', postgresExecDatabase],
])('the preview route on %s', (_name, createDatabase) => {
  let database: ExecDatabase;
  let dist: TestDist;
  let store: Store;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const sessions: Record<string, { cookie: string; xsrf: string }> = {};

  const signIn = (user: { email: string; password: string }) => inboxSession(app, user);
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
    app.inject({
      method,
      url: `/api/admin${url}`,
      headers: { cookie: sessions.editor!.cookie, 'x-xsrf-token': sessions.editor!.xsrf },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  const preview = (id: string, as: 'editor' | 'viewer' | null = 'viewer') =>
    app.inject({ method: 'GET', url: `/preview/${id}`, headers: as ? { cookie: sessions[as]!.cookie } : {} });
  const markerOf = (html: string) =>
    JSON.parse(new RegExp(`<script type="application/json" id="${PREVIEW_ELEMENT_ID}">(.*?)</script>`).exec(html)![1]!) as PreviewMarker;
  const saveDraft = async (id: string, change: (draft: Record<string, unknown>) => Record<string, unknown>) => {
    const page = (await call('GET', `/pages/${id}`)).json<PageDetail>();
    const saved = await call('PUT', `/pages/${id}/draft`, { config: change(page.draft as Record<string, unknown>), revision: page.revision });
    expect(saved.statusCode, saved.body).toBe(200);
  };

  beforeAll(async () => {
    database = await createDatabase();
    dist = testDist('preview-', { admin: true });
    writeFileSync(join(dist.distDir, 'index.html'), TEMPLATE);
    // What the preview build leaves: its manifest names its entry.
    mkdirSync(join(dist.distDir, 'preview', '.vite'), { recursive: true });
    writeFileSync(
      join(dist.distDir, 'preview', '.vite', 'manifest.json'),
      JSON.stringify({
        '../shared/phone-library.ts': { file: 'assets/phone-library-abc.js' },
        'preview/preview.tsx': { file: 'assets/preview-abc123.js', isEntry: true },
      }),
    );
    store = await openStore(database.url);
    await createTestUser(store, EDITOR, 'editor');
    await createTestUser(store, VIEWER, 'viewer');
    app = await buildApp({ config: defaultConfig(), store, distDir: dist.distDir, rateLimitPerMinute: 10_000, secret: TEST_SECRET });
    sessions.editor = await signIn(EDITOR);
    sessions.viewer = await signIn(VIEWER);
    expect((await call('POST', '/pages', { id: 'summer', from: 'default' })).statusCode).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await database?.drop();
    dist?.remove();
  });

  it('answers 401 problem+json without a session, 404 for an unknown page, 400 for an id no page can have', async () => {
    const anonymous = await preview('summer', null);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(anonymous.body).not.toContain('<html');
    const unknown = await preview('nothing');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/problem\+json/);
    const malformed = await preview('no%20spaces');
    expect(malformed.statusCode).toBe(400);
    // A refusal carries the security headers of any other answer, and no page to frame.
    for (const refusal of [anonymous, unknown, malformed]) {
      expect(refusal.headers['x-content-type-options']).toBe('nosniff');
      expect(refusal.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(String(refusal.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    }
  });

  it('renders a stored draft for a viewer as the wizard page, framable by this origin only, never cached or indexed', async () => {
    await saveDraft('summer', (draft) => ({ ...draft, title: 'Summer creators', styleConfig: { theme: { primary: '#0b6e4f' } } }));
    const response = await preview('summer');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<title>Summer creators</title>');
    expect(response.body).toContain('"title":"Summer creators"');
    expect(markerOf(response.body)).toEqual({ pageId: 'summer', problems: [] });
    // The preview's own script, in place of the public page's first script.
    expect(response.body).toContain('<script type="module" crossorigin src="/preview/assets/preview-abc123.js"></script>');
    expect(response.body).not.toContain('startPublicWizard');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toContain("frame-ancestors 'none'");
    // The draft's theme is allowed by its hash, as on the public page.
    expect(csp).toMatch(/style-src 'self' 'sha256-[^']+'/);
    // Images as the public page allows them, no wider (fourth attack): not any https host.
    expect(csp).toMatch(/img-src 'self' data:[^;]*;/);
    expect(csp).not.toMatch(/img-src[^;]* https:[;\s]/);
    expect(response.headers['x-frame-options']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-robots-tag']).toBe('noindex');
    expect((await preview('summer', 'editor')).statusCode).toBe(200);

    // Every other page stays unframable.
    const page = await app.inject({ method: 'GET', url: '/' });
    expect(String(page.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBeDefined();
  });

  it('still renders a draft with problems: what parses, else an empty shell for the builder to fill, with the problems', async () => {
    // The semantic and stored-page checks fail: the draft parses and is shown.
    await saveDraft('summer', (draft) => ({ ...draft, title: 'Wrong id', pageId: 'autumn' }));
    const wrongId = await preview('summer');
    expect(wrongId.statusCode).toBe(200);
    expect(wrongId.body).toContain('<title>Wrong id</title>');
    expect(markerOf(wrongId.body).problems).toEqual([{ path: 'pageId', message: 'must be "summer", the page\'s id' }]);

    // The schema refuses it: the shell, with no configuration, waits for the builder's.
    await saveDraft('summer', () => ({ title: '', steps: 'soon' }));
    const shell = await preview('summer');
    expect(shell.statusCode).toBe(200);
    expect(shell.body).not.toContain('id="wizard-config"');
    expect(shell.body).toContain('<div id="root"></div>');
    expect(markerOf(shell.body).problems.map((problem) => problem.path)).toEqual(expect.arrayContaining(['title', 'steps']));
    expect(String(shell.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
    expect(shell.headers['cache-control']).toBe('no-store');
  });

  it('answers a draft with URLs that do not parse with its problems, never a 500; publish refuses it (fourth attack, F4)', async () => {
    expect((await call('POST', '/pages', { id: 'urls', from: 'default' })).statusCode).toBe(201);
    await saveDraft('urls', (draft) => ({
      ...draft,
      logo: 'https://',
      singleCoverImg: { src: '/uploads/a-480.webp', srcset: 'https://[ 1w' },
      analytics: { token: 't', host: 'http://' },
      errorReporting: { dsn: 'https://a b' },
    }));
    const response = await preview('urls');
    expect(response.statusCode, response.body).toBe(200);
    expect(
      markerOf(response.body)
        .problems.map((problem) => problem.path)
        .sort(),
    ).toEqual(['analytics.host', 'errorReporting.dsn', 'logo', 'singleCoverImg.srcset']);
    const { revision } = (await call('GET', '/pages/urls')).json<PageDetail>();
    const published = await call('POST', '/pages/urls/publish', { revision });
    expect(published.statusCode, published.body).toBe(422);
    expect(published.json<{ errors: { path: string }[] }>().errors.map((error) => error.path)).toContain('logo');
  });

  it("refuses to render HTML past the configuration's bounds: the shell with the field's problem, and publish refuses it (fourth attack, F1)", async () => {
    expect((await call('POST', '/pages', { id: 'heavy', from: 'default' })).statusCode).toBe(201);
    await saveDraft('heavy', (draft) => {
      const steps = draft.steps as { blocks: unknown[] }[];
      steps[0]!.blocks = [{ component: 'html', data: { html: '<div>'.repeat(40_000) } }];
      return { ...draft, title: 'Heavy', steps };
    });
    const response = await preview('heavy');
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('id="wizard-config"');
    expect(markerOf(response.body).problems).toMatchObject([{ path: 'steps[0].blocks[0].data.html', message: 'expected at most 20000 characters of HTML' }]);
    const { revision } = (await call('GET', '/pages/heavy')).json<PageDetail>();
    const published = await call('POST', '/pages/heavy/publish', { revision });
    expect(published.statusCode).toBe(422);
    expect(published.json<{ errors: { path: string }[] }>().errors.map((error) => error.path)).toEqual(['steps[0].blocks[0].data.html']);
  });

  it('renders a draft once per revision: a load of the same revision is the kept rendering (fourth attack, F1)', async () => {
    expect((await call('POST', '/pages', { id: 'kept', from: 'default' })).statusCode).toBe(201);
    await saveDraft('kept', (draft) => ({ ...draft, title: 'First' }));
    expect((await preview('kept')).body).toContain('<title>First</title>');
    // Changed behind the route's back, same revision: the kept rendering is served, nothing is rendered again.
    const { revision, draft } = (await call('GET', '/pages/kept')).json<PageDetail>();
    await database.exec(`update pages set draft = '{"title":"Behind"}' where id = 'kept'`);
    expect((await preview('kept')).body).toContain('<title>First</title>');
    // A saved draft is a new revision: rendered again.
    const saved = await call('PUT', '/pages/kept/draft', { config: { ...(draft as object), title: 'Second' }, revision });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await preview('kept')).body).toContain('<title>Second</title>');
  });

  it('reports a draft that throws while rendering as a problem, and shows the shell', () => {
    const broken = { ...defaultConfig(), steps: null } as unknown as WizardConfig;
    const { html, config } = previewPage(TEMPLATE, '', { pageId: 'summer', problems: [] }, broken);
    expect(config).toBeUndefined();
    expect(markerOf(html).problems).toEqual([
      { path: '(root)', message: "the server could not render this draft (TypeError); the frame shows the builder's copy" },
    ]);
  });

  it('previews the default page read only, by its id', async () => {
    const response = await preview(defaultConfig().pageId);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`<title>${escapeHtml(defaultConfig().title)}</title>`);
    expect(markerOf(response.body)).toEqual({ pageId: defaultConfig().pageId, problems: [] });
  });
});
