import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicantPayload, completeForDefaultPage, defaultConfig } from '../../../tests/factories/application';
import { inboxSession, testDist, type TestDist } from '../../../tests/support/test-app';
import { createTestUser } from '../../../tests/support/users';
import { TEST_SECRET, xsrfPair } from '../../../tests/support/xsrf';
import { newIdempotencyKey } from '../../shared/idempotency-key';
import { buildApp } from '../app';
import { openStore, type Store } from '../store/store';

// The API documents itself (plugins/openapi.ts): an OpenAPI 3.1 document generated from the routes'
// schemas, served to signed-in inbox users, and held here to what the routes answer: every route
// of the document is called signed out, without the anti-forgery header, with an empty and a
// wrong body, and signed in, and every answer's status must be one its operation declares, its
// body valid against the schema declared for it.

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
  requestBody?: { content: Record<string, { schema: object }> };
  parameters?: { in: string; name: string }[];
  security?: Record<string, string[]>[];
}
type OpenApiDocument = {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, object> };
};

/** One answer seen: the route's path as Fastify matched it, the method, the status, the body as sent. */
interface Answer {
  method: string;
  route: string;
  status: number;
  contentType: string;
  body: string;
}

const EDITOR = { email: 'editor@brand.example', password: 'editor password 1' };
/** A uuid no row has. */
const NO_ID = '00000000-0000-4000-8000-000000000000';

/** The document's path template of a route (`/api/admin/pages/:id` → `/api/admin/pages/{id}`). */
const templateOf = (route: string) => route.replace(/:(\w+)/g, '{$1}');
/**
 * A route's path with its parameters filled: an id that names nothing stored, or the default page's
 * (which the pages API refuses to change: 409), a version that does not exist.
 */
const concrete = (path: string, id = NO_ID) =>
  path
    .replace('{pageId}', 'creators')
    .replace('{id}', id)
    .replace('{n}', '99')
    .replace(/\{\w+\}/g, 'x');

describe('the OpenAPI document', () => {
  let dir: string;
  let dist: TestDist;
  let store: Store;
  let app: FastifyInstance;
  let session: { cookie: string; xsrf: string };
  const answers: Answer[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    dist = testDist('openapi-dist-', { admin: true });
    store = await openStore(`sqlite:${join(dir, 'applications.db')}`);
    app = await buildApp({ config: defaultConfig(), store, distDir: dist.distDir, secret: TEST_SECRET });
    // Every answer of the file, as sent (after serialisation).
    app.addHook('onSend', async (request, reply, payload) => {
      answers.push({
        method: request.method,
        route: request.routeOptions.url ?? '',
        status: reply.statusCode,
        contentType: String(reply.getHeader('content-type') ?? ''),
        body: typeof payload === 'string' ? payload : '',
      });
      return payload;
    });
    await app.ready();
    await createTestUser(store, EDITOR, 'editor');
    session = await inboxSession(app, EDITOR);
  });

  afterAll(async () => {
    await app?.close();
    await store?.close();
    dist?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  async function openApiDocument(): Promise<OpenApiDocument> {
    const response = await app.inject({ method: 'GET', url: '/api/admin/openapi.json', headers: { cookie: session.cookie } });
    expect(response.statusCode).toBe(200);
    return response.json();
  }

  it('is served to signed-in inbox users only, as OpenAPI 3.1 of the API and the health checks', async () => {
    const signedOut = await app.inject({ method: 'GET', url: '/api/admin/openapi.json' });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.headers['content-type']).toMatch(/^application\/problem\+json/);
    const document = await openApiDocument();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBeTruthy();
    const paths = Object.keys(document.paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/syncPage/{pageId}', '/api/admin/applications', '/api/admin/pages/{id}', '/healthz']));
    // The HTML pages, files and uploads are not the API.
    for (const path of paths) expect(path).toMatch(/^\/api\/|^\/(healthz|readyz)$/);
  });

  it("declares the submit route's every answer, and the inbox's sign-in, anti-forgery and role refusals", async () => {
    const document = await openApiDocument();
    const submit = document.paths['/api/syncPage/{pageId}']!.put!;
    expect(Object.keys(submit.responses).sort()).toEqual(['200', '201', '400', '403', '404', '410', '413', '414', '415', '422', '429', '500', '503']);
    expect(Object.keys(submit.responses['422']!.content!)).toEqual(['application/problem+json']);
    // What the routes check by themselves is documented too: the submit's body and key, an image's bytes, the CSV.
    expect(Object.keys(submit.requestBody!.content)).toEqual(['application/json']);
    expect(submit.parameters!.map((parameter) => `${parameter.in} ${parameter.name}`)).toEqual(
      expect.arrayContaining(['header idempotency-key', 'path pageId']),
    );
    expect(submit.security).toEqual([{ xsrf: [] }]);
    expect(Object.keys(document.paths['/api/admin/pages/{id}/images']!.post!.requestBody!.content)).toEqual(
      expect.arrayContaining(['image/png', 'image/jpeg']),
    );
    expect(Object.keys(document.paths['/api/admin/applications.csv']!.get!.responses['200']!.content!)).toEqual(['text/csv']);
    // How to authenticate: the session cookie, and the anti-forgery header on changes.
    expect(Object.keys(document.components.securitySchemes)).toEqual(['session', 'xsrf']);
    expect(document.paths['/api/admin/applications']!.get!.security).toEqual([{ session: [] }]);
    expect(document.paths['/api/admin/applications/{id}']!.patch!.security).toEqual([{ session: [], xsrf: [] }]);
    expect(document.paths['/api/admin/session']!.post!.security).toBeUndefined();
    // A path parameter too long to route is refused by the router itself (414), before any hook
    // sees the answer: held here, where the sweep below cannot record it.
    const tooLong = await app.inject({ method: 'GET', url: `/api/admin/applications/${'a'.repeat(300)}`, headers: { cookie: session.cookie } });
    expect(tooLong.statusCode).toBe(414);
    expect(tooLong.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(Object.keys(document.paths['/api/admin/applications/{id}']!.get!.responses)).toContain('414');
    // Signed out: 401 everywhere but the sign-in; a change without the anti-forgery header: 403.
    expect(Object.keys(document.paths['/api/admin/applications']!.get!.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404', '500', '503']));
    expect(Object.keys(document.paths['/api/admin/applications/{id}']!.patch!.responses)).toEqual(expect.arrayContaining(['401', '403', '404', '409']));
    // The sign-in needs no session nor anti-forgery header: its 401 is a wrong password, its 429 too many tries.
    expect(Object.keys(document.paths['/api/admin/session']!.post!.responses)).toEqual(expect.arrayContaining(['204', '401', '429']));
    expect(Object.keys(document.paths['/api/admin/session']!.post!.responses)).not.toContain('403');
  });

  it("holds every answer of every documented route to its operation's declared statuses and schemas", async () => {
    const document = await openApiDocument();
    const { headers: wizard } = xsrfPair();
    let signedIn = { cookie: session.cookie, 'x-xsrf-token': session.xsrf };
    // Every operation, signed out, without the anti-forgery header, with it, and with an empty, a
    // wrong and a non-JSON body; the inbox's with its session, the wizard's with its page's
    // anti-forgery pair. (A path parameter too long to route is answered by the router before any
    // hook: held in the test above.)
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const method of Object.keys(operations))
        for (const url of path.includes('{id}') ? [concrete(path), concrete(path, 'creators')] : [concrete(path)]) {
          const authorised = path.startsWith('/api/admin/') ? signedIn : wizard;
          const hasBody = method !== 'get' && method !== 'head';
          const tries: InjectOptions[] = [
            { url, headers: {} },
            { url, headers: { cookie: authorised.cookie } },
            { url, headers: authorised },
            ...(hasBody
              ? [
                  { url, headers: authorised, payload: {} },
                  { url, headers: authorised, payload: { status: 42, ids: 'x', email: [], config: 'x', name: 7 } },
                  { url, headers: { ...authorised, 'content-type': 'text/plain' }, payload: 'x' },
                ]
              : []),
          ];
          for (const options of tries) await app.inject({ ...options, method: method.toUpperCase() as 'GET' });
          if (path === '/api/admin/session' && method === 'delete') {
            // The sign-out ended the session: the next routes are tried signed in again.
            session = await inboxSession(app, EDITOR);
            signedIn = { cookie: session.cookie, 'x-xsrf-token': session.xsrf };
          }
        }
    }
    // Answers the routes give when things go right, and the submit's own refusals.
    const key = newIdempotencyKey();
    const application = completeForDefaultPage(applicantPayload({ firstName: 'Ada', lastName: 'Open', email: 'openapi@example.com' }));
    const submit = (payload: object, idempotencyKey = key, page = 'creators') =>
      app.inject({ method: 'PUT', url: `/api/syncPage/${page}`, headers: { ...wizard, 'idempotency-key': idempotencyKey }, payload });
    const first = await submit(application);
    expect(first.statusCode, first.body).toBe(201);
    expect((await submit(application)).statusCode).toBe(200);
    expect((await submit(completeForDefaultPage(applicantPayload({ firstName: 'Bo', lastName: 'Other', email: 'other@example.com' })))).statusCode).toBe(422);
    expect((await submit(application, newIdempotencyKey(), 'nope')).statusCode).toBe(404);
    await store.applications.indexed();
    const listed = await app.inject({ method: 'GET', url: '/api/admin/applications', headers: signedIn });
    const id = (listed.json() as { items: { id: string }[] }).items[0]!.id;
    for (const url of [
      `/api/admin/applications/${id}`,
      `/api/admin/applications/${id}/notes`,
      '/api/admin/summary?pageId=creators',
      '/api/admin/pages',
      '/api/admin/views',
      '/api/admin/applications.csv',
    ])
      expect((await app.inject({ method: 'GET', url, headers: signedIn })).statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'PATCH', url: `/api/admin/applications/${id}`, headers: signedIn, payload: { status: 'shortlisted' } })).statusCode,
    ).toBe(200);
    // The default page is read from its file: the pages API refuses to change it (409).
    expect((await app.inject({ method: 'PATCH', url: '/api/admin/pages/creators', headers: signedIn, payload: { status: 'closed' } })).statusCode).toBe(409);
    expect(
      (await app.inject({ method: 'PUT', url: '/api/admin/pages/creators/draft', headers: signedIn, payload: { config: {}, revision: 1 } })).statusCode,
    ).toBe(409);
    // A page whose draft cannot be published: its 422 names each problem with its hint (the builder shows it).
    const created = await app.inject({ method: 'POST', url: '/api/admin/pages', headers: signedIn, payload: { id: 'summer', from: 'default' } });
    expect(created.statusCode, created.body).toBe(201);
    const draft = await app.inject({
      method: 'PUT',
      url: '/api/admin/pages/summer/draft',
      headers: signedIn,
      payload: { config: { x: 1 }, revision: (created.json() as { revision: number }).revision },
    });
    expect(draft.statusCode, draft.body).toBe(200);
    const refused = await app.inject({
      method: 'POST',
      url: '/api/admin/pages/summer/publish',
      headers: signedIn,
      payload: { revision: (draft.json() as { revision: number }).revision },
    });
    expect(refused.statusCode).toBe(422);
    expect((refused.json() as { errors: { hint?: string }[] }).errors.some((error) => typeof error.hint === 'string')).toBe(true);

    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    const undeclared: string[] = [];
    const invalid: string[] = [];
    let checked = 0;
    for (const answer of answers) {
      const operation = document.paths[templateOf(answer.route)]?.[answer.method.toLowerCase()];
      if (!operation) continue;
      checked += 1;
      const declared = operation.responses[String(answer.status)];
      const what = `${answer.method} ${answer.route} ${answer.status}`;
      if (!declared) {
        undeclared.push(`${what}: ${answer.body.slice(0, 120)}`);
        continue;
      }
      const mediaType = answer.contentType.split(';')[0]!.trim();
      if (!answer.body || !declared.content) continue;
      const schema = declared.content[mediaType]?.schema;
      if (!schema) {
        invalid.push(`${what}: sent as ${mediaType}, declared as ${Object.keys(declared.content).join(', ')}`);
        continue;
      }
      // A text answer (the CSV) is declared as a string: nothing more to hold it to here.
      if (!mediaType.endsWith('json')) continue;
      const validate = ajv.compile(schema);
      if (!validate(JSON.parse(answer.body))) invalid.push(`${what}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(undeclared, 'answers whose status the operation does not declare').toEqual([]);
    expect(invalid, 'answers whose body does not match the declared schema').toEqual([]);
    // Every documented operation answered something.
    const operations = Object.values(document.paths).reduce((sum, methods) => sum + Object.keys(methods).length, 0);
    expect(new Set(answers.filter((answer) => document.paths[templateOf(answer.route)]).map((answer) => `${answer.method} ${answer.route}`)).size).toBe(
      operations,
    );
    expect(checked).toBeGreaterThan(operations * 4);
  });
});
