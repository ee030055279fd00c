import Fastify, { type FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase } from '../../../tests/support/postgres';
import { z } from '../../shared/zod';
import { errorsAsProblems, unstorableValues } from './problem-details';

// An outside attack on the inbox: a value PostgreSQL refuses (SQLSTATE class 22) that a route's schema
// let through was a 400 without `errors`. The store's real refusal, through the real handler: a
// route that searches PostgreSQL for what it was sent, as the inbox's routes do. (SQLite refuses
// none of these: the routes' schemas answer them on both stores, hostile-attacks.test.ts.)

let database: { url: string; drop: () => Promise<void> };
let pool: pg.Pool;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  app = Fastify();
  await app.register(errorsAsProblems);
  const search = async (values: unknown[]) => (await pool.query('select $1::text as a, $2::text as b', values)).rows;
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/search/:id',
      { schema: { params: z.object({ id: z.string() }), querystring: z.object({ q: z.optional(z.string()) }), body: z.object({ ids: z.array(z.string()) }) } },
      async (request) => search([request.params.id, request.query.q ?? '']).then(() => search([request.body.ids.join(','), ''])),
    );
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/number/:n',
      { schema: { params: z.object({ n: z.string() }) } },
      async (request) => (await pool.query('select $1::int as n', [request.params.n])).rows,
    );
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await pool?.end();
  await database?.drop();
});

const PLAIN = 'Remove the invisible or unsupported characters';

it('names a path parameter, a query value or a body value PostgreSQL refused, with the 400', async () => {
  for (const [url, body, errors] of [
    ['/search/a%00b', { ids: [] }, [{ path: 'id', message: PLAIN }]],
    ['/search/ok?q=x%00', { ids: [] }, [{ path: 'q', message: PLAIN }]],
    ['/search/ok', { ids: ['fine', 'b\u0000d'] }, [{ path: 'ids.1', message: PLAIN }]],
  ] as const) {
    const response = await app.inject({ method: 'POST', url, payload: body });
    expect(response.statusCode, url).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ status: 400, detail: 'The request holds a value that cannot be stored or searched for.', errors });
  }
});

it('names the request as a whole when no value of it is the one (a malformed number, say)', async () => {
  const response = await app.inject({ method: 'GET', url: '/number/twelve' });
  expect(response.statusCode).toBe(400);
  expect(response.json().errors).toEqual([{ path: '(request)', message: expect.any(String) }]);
});

it('finds every value that is not plain text, a top-level string body included', () => {
  expect(unstorableValues({ params: { id: 'x' }, query: { answer: ['a', 'b\u0001'] }, body: '\ud800' })).toEqual([
    { path: 'answer.1', message: PLAIN },
    { path: '(body)', message: PLAIN },
  ]);
  expect(unstorableValues({ body: { note: 'line\nbreak\tand tab' } })).toEqual([{ path: '(request)', message: expect.any(String) }]);
});
