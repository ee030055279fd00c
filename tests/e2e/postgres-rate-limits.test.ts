import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { validPayload } from '../factories/application';
import { createTestDatabase } from '../support/postgres';
import { startServer, type RunningServer } from './support';
import { botCheckHeaders } from '../support/bot-check';

// Decision 006: two server processes behind one balancer, on one PostgreSQL
// database, hold one submit limit per client IP between them; the client IP is the address the
// balancer appended to X-Forwarded-For, whatever the client wrote to the left of it.

const LIMIT = 4;
let database: { url: string; drop: () => Promise<void> };
let servers: RunningServer[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const env = { DATABASE_URL: database.url, RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUST_PROXY: '1' };
  // One after the other: the first migrates the database.
  servers.push(await startServer(env));
  servers.push(await startServer(env));
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  servers = [];
  await database?.drop();
});

const xsrfTokens = new Map<RunningServer, string>();
/**
 * The XSRF cookie and header pair a browser would send to `server`: the token it sets on the
 * page, asked for once per server. The one place these tests make tokens.
 */
async function xsrfHeaders(server: RunningServer): Promise<Record<string, string>> {
  let token = xsrfTokens.get(server);
  if (!token) {
    const page = await fetch(`${server.url}/`);
    token = /XSRF-TOKEN=([^;]+)/.exec(page.headers.get('set-cookie') ?? '')?.[1];
    if (!token) throw new Error('the page set no XSRF-TOKEN cookie');
    xsrfTokens.set(server, token);
  }
  return { Cookie: `XSRF-TOKEN=${token}`, 'X-XSRF-TOKEN': token };
}

/** A submission through the "balancer" (this test, on the loopback socket) for `forwardedFor`. */
const submit = async (server: RunningServer, forwardedFor: string) => {
  const key = randomUUID();
  return fetch(`${server.url}/api/syncPage/creators`, {
    method: 'PUT',
    headers: {
      'Content-Type': 'application/json',
      'Idempotency-Key': key,
      'X-Forwarded-For': forwardedFor,
      ...(await xsrfHeaders(server)),
      ...(await botCheckHeaders(server.url, key)),
    },
    body: JSON.stringify(validPayload()),
  });
};

it(`RATE_LIMIT_PER_MINUTE=${LIMIT} holds across two processes for one client, whatever it writes into X-Forwarded-For`, async () => {
  const [a, b] = servers as [RunningServer, RunningServer];
  const statuses: number[] = [];
  for (let i = 0; i < LIMIT; i++) statuses.push((await submit(i % 2 ? b : a, `198.51.100.${i}, 203.0.113.50`)).status);
  expect(statuses).toEqual(Array.from({ length: LIMIT }, () => 201));

  const refused = await submit(statuses.length % 2 ? b : a, `198.51.100.${LIMIT}, 203.0.113.50`);
  expect(refused.status).toBe(429);
  expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const retryAfter = Number(refused.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect((await submit(b, '203.0.113.50')).status).toBe(429);

  // Another client behind the same balancer has its own budget.
  expect((await submit(a, '198.51.100.1, 203.0.113.51')).status).toBe(201);
});
