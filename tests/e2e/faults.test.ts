import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validPayload } from '../factories/application';
import { createTestDatabase } from '../support/postgres';
import { currentStep, fillDefaultApplication } from './flows';
import { launchBrowser, startServer, startTcpProxy, type RunningServer, type TcpProxy } from './support';

const TOKEN = 'f'.repeat(43);

/**
 * Sends one application on a connection of its own (no keep-alive, so a closed
 * port is a refused connection, never a reused socket being closed).
 * @returns the id on a 2xx, the status otherwise, or the network error code.
 */
function submit(server: RunningServer): Promise<{ id?: string; status?: number; error?: string }> {
  const body = JSON.stringify(validPayload());
  return new Promise((resolve) => {
    const request = httpRequest(
      `${server.url}/api/syncPage/creators`,
      {
        method: 'PUT',
        agent: false,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          Cookie: `XSRF-TOKEN=${TOKEN}`,
          'X-XSRF-TOKEN': TOKEN,
          'Idempotency-Key': randomUUID(),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          resolve(status < 300 ? { id: (JSON.parse(text) as { id: string }).id, status } : { status });
        });
        response.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? String(error) }));
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? String(error) }));
    request.end(body);
  });
}

/** Streams submissions from `workers` clients until `stop()` resolves; returns every outcome. */
async function stream(server: RunningServer, workers: number, stop: Promise<void>) {
  let stopped = false;
  void stop.then(() => (stopped = true));
  const outcomes: Awaited<ReturnType<typeof submit>>[] = [];
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (!stopped) outcomes.push(await submit(server));
    }),
  );
  return outcomes;
}

async function pgIds(url: string): Promise<Set<string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ id: string }>('select id from applications');
  await client.end();
  return new Set(rows.map((row) => row.id));
}

describe('PostgreSQL outage (issue 5 faults)', () => {
  let database: { url: string; drop: () => Promise<void> };
  let proxy: TcpProxy;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    database = await createTestDatabase();
    proxy = await startTcpProxy(Number(new URL(database.url).port || 5432));
    const url = new URL(database.url);
    url.port = String(proxy.port);
    [server, browser] = await Promise.all([startServer({ DATABASE_URL: url.toString() }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await proxy?.close();
    await database?.drop();
  });

  it('answers 503 while the database is down, keeps every answer in the wizard, and recovers without a restart', async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await fillDefaultApplication(page, 'outage@example.com');
    await proxy.down();
    const failed = page.waitForResponse((response) => response.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Continue' }).click();
    const response = await failed;
    expect(response.status()).toBe(503);
    expect(response.headers()['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.headers()['retry-after']).toBe('5');
    await expect.poll(() => page.getByText('Something went wrong. Please, try again later.').isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await currentStep(page)).toBe('More Details');
    expect(await page.getByLabel(/dream campaign/).inputValue()).toBe('Putty in space');
    expect(await (await fetch(`${server.url}/readyz`)).status).toBe(503);

    await proxy.up();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => currentStep(page), { timeout: 15_000 }).toBe('Creator Hub');
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ email: string }>('select email from applications');
    await client.end();
    expect(rows).toEqual([{ email: 'outage@example.com' }]);
    await page.close();
  });
});

describe.each(['SQLite', 'PostgreSQL'])('a crash under load on %s (issue 5 durability)', (store) => {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let server: RunningServer;

  beforeAll(async () => {
    database = store === 'PostgreSQL' ? await createTestDatabase() : undefined;
    server = await startServer(database ? { DATABASE_URL: database.url, RATE_LIMIT_PER_MINUTE: '100000' } : { RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it('every submission answered 2xx before SIGKILL is in the store after restart', async () => {
    const kill = new Promise<void>((resolve) => setTimeout(() => void server.halt('SIGKILL').then(resolve), 1500));
    const outcomes = await stream(server, 8, kill);
    const acknowledged = outcomes.flatMap((outcome) => (outcome.id ? [outcome.id] : []));
    expect(acknowledged.length).toBeGreaterThan(10);
    await server.restart();
    const stored = database ? await pgIds(database.url) : new Set(server.rows().map((row) => row.id));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  });

  it('SIGTERM drains requests in flight: a request half-sent when the signal comes still gets its 201 and is stored', async () => {
    const body = JSON.stringify(validPayload());
    const halves = [body.slice(0, 200), body.slice(200)];
    const inFlight = Array.from({ length: 3 }, () => {
      let send: () => void = () => undefined;
      const answer = new Promise<{ status: number; id?: string }>((resolve, reject) => {
        const request = httpRequest(`${server.url}/api/syncPage/creators`, {
          method: 'PUT',
          agent: false,
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            Cookie: `XSRF-TOKEN=${TOKEN}`,
            'X-XSRF-TOKEN': TOKEN,
            'Idempotency-Key': randomUUID(),
          },
        }, (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, id: (JSON.parse(text) as { id?: string }).id }));
        });
        request.on('error', reject);
        request.write(halves[0]);
        send = () => request.end(halves[1]);
      });
      return { answer, send: () => send() };
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopped = server.halt('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const request of inFlight) request.send();
    const answers = await Promise.all(inFlight.map((request) => request.answer));
    await stopped;
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    // After the drain the port is closed.
    expect((await submit(server)).error).toBe('ECONNREFUSED');
    await server.restart();
    const stored = database ? await pgIds(database.url) : new Set(server.rows().map((row) => row.id));
    expect(answers.filter((answer) => !stored.has(answer.id!))).toEqual([]);
  });
});
