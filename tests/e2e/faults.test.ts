import { randomUUID } from 'node:crypto';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { connect } from 'node:net';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validPayload } from '../factories/application';
import { openStore } from '../../src/server/store/store';
import { allowConsoleError, expectConsoleError } from '../support/console-errors';
import { createTestDatabase } from '../support/postgres';
import { xsrfPair } from '../support/xsrf';
import { currentStep, fillDefaultApplication } from './flows';
import { failedLoad, launchBrowser, serverLog, startServer, startServerBehindProxy, type RunningServer, type ServerBehindProxy } from './support';
import { createTestUser } from '../support/users';
import { botCheckHeaders } from '../support/bot-check';

const XSRF = xsrfPair();

/**
 * Opens a PUT of one application on a connection of its own (no keep-alive, so
 * a closed port is a refused connection, never a reused socket being closed);
 * the caller writes the body.
 * @returns the request, and its outcome: the id on a 2xx, the status otherwise, or the network error code.
 */
function openSubmission(server: RunningServer, body: string, extraHeaders: Record<string, string> = {}, key: string = randomUUID()) {
  let request!: ClientRequest;
  const answer = new Promise<{ id?: string; status?: number; error?: string }>((resolve) => {
    request = httpRequest(
      `${server.url}/api/syncPage/creators`,
      {
        method: 'PUT',
        agent: false,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          Cookie: XSRF.cookie,
          'X-XSRF-TOKEN': XSRF.token,
          'Idempotency-Key': key,
          ...extraHeaders,
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
  });
  return { request, answer };
}

/** Whether a new TCP connection to the server is refused (its port closed). */
function refusesConnections(server: RunningServer): Promise<boolean> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** Sends one application, with its solved challenge (docs/decisions/032) where the server asks one; see {@link openSubmission}. */
async function submit(server: RunningServer) {
  const body = JSON.stringify(validPayload());
  const key = randomUUID();
  const proof = await botCheckHeaders(server.url, key).catch(() => ({}));
  const { request, answer } = openSubmission(server, body, proof, key);
  request.end(body);
  return answer;
}

/** A stream of submissions from a few clients at once (see {@link stream}). */
interface Stream {
  /** Every outcome so far, in the order answered. */
  outcomes: Awaited<ReturnType<typeof submit>>[];
  /** Resolves once `count` more submissions have been answered (any answer), counted from now. */
  answered(count: number): Promise<void>;
  /** Resolves once `count` submissions in all have been stored (answered 2xx). */
  acknowledged(count: number): Promise<void>;
  /** Lets each client finish the submission it is sending, and sends no more. */
  stop(): Promise<Stream['outcomes']>;
}

/**
 * Streams submissions from `workers` clients, each sending the next as soon as the last is
 * answered, until {@link Stream.stop}. Tests act on what the stream has reached (so many answered),
 * never on how long it ran: a loaded machine answers fewer per second.
 */
function stream(server: RunningServer, workers: number): Stream {
  let stopped = false;
  const outcomes: Stream['outcomes'] = [];
  const waiting = new Set<() => void>();
  const until = (reached: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!reached()) return;
        waiting.delete(check);
        resolve();
      };
      waiting.add(check);
      check();
    });
  const running = Promise.all(
    Array.from({ length: workers }, async () => {
      while (!stopped) {
        outcomes.push(await submit(server));
        for (const check of [...waiting]) check();
      }
    }),
  );
  return {
    outcomes,
    answered(count) {
      const target = outcomes.length + count;
      return until(() => outcomes.length >= target);
    },
    acknowledged(count) {
      return until(() => outcomes.filter((outcome) => outcome.id).length >= count);
    },
    async stop() {
      stopped = true;
      await running;
      return outcomes;
    },
  };
}

async function pgIds(url: string): Promise<Set<string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ id: string }>('select id from applications');
  await client.end();
  return new Set(rows.map((row) => row.id));
}

/**
 * Lets the running test's server log what a database cut on purpose makes it log at level error:
 * the submissions it answers 503 and the rate-limit counts it cannot write (decision 017). Anything
 * else it logs as an error still fails the test.
 */
function allowOutageLogs() {
  allowConsoleError(serverLog('store unavailable'));
  allowConsoleError(serverLog('rate limits cannot be counted: requests are let through uncounted'));
}

describe('PostgreSQL outage', () => {
  let setup: ServerBehindProxy;
  let browser: Browser;

  beforeAll(async () => {
    // A high submit limit: the tests below send a stream of applications from one address.
    [setup, browser] = await Promise.all([startServerBehindProxy({ RATE_LIMIT_PER_MINUTE: '100000' }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await setup?.stop();
  });

  it('answers 503 while the database is down, keeps every answer in the wizard, and recovers without a restart', async () => {
    expectConsoleError(failedLoad(503, '/api/syncPage/creators'));
    allowOutageLogs();
    const page = await browser.newPage();
    const { server, proxy } = setup;
    await page.goto(server.url);
    await fillDefaultApplication(page, 'outage@example.com');
    await proxy.down();
    const failed = page.waitForResponse((response) => response.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Submit application' }).click();
    const response = await failed;
    expect(response.status()).toBe(503);
    expect(response.headers()['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.headers()['retry-after']).toBe('5');
    await expect.poll(() => page.getByText('Something went wrong. Please, try again later.').isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await currentStep(page)).toBe('More Details');
    expect(await page.getByLabel(/dream campaign/).inputValue()).toBe('Putty in space');
    expect(await (await fetch(`${server.url}/readyz`)).status).toBe(503);

    await proxy.up();
    await page.getByRole('button', { name: 'Submit application' }).click();
    await expect.poll(() => currentStep(page), { timeout: 15_000 }).toBe('Creator Hub');
    const client = new pg.Client({ connectionString: setup.databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ email: string }>('select email from applications');
    await client.end();
    expect(rows).toEqual([{ email: 'outage@example.com' }]);
    await page.close();
  });

  it('a connection cut while in use does not take the server down', async () => {
    allowOutageLogs();
    const { server } = setup;
    const terminate = async () => {
      const client = new pg.Client({ connectionString: setup.databaseUrl });
      await client.connect();
      await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
      await client.end();
    };
    // Submissions in flight while every connection of the server is terminated, twice: once the
    // stream is under way, and again once the server has answered a few after the first cut.
    const load = stream(server, 4);
    await load.answered(10);
    await terminate();
    await load.answered(10);
    await terminate();
    const outcomes = await load.stop();
    expect(outcomes.filter((outcome) => outcome.error)).toEqual([]);
    expect(outcomes.every((outcome) => outcome.status === 201 || outcome.status === 503)).toBe(true);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    await expect.poll(async () => (await submit(server)).status, { timeout: 15_000 }).toBe(201);
  });

  it('a database that goes silent answers 503 within the query timeout, and the server recovers', async () => {
    allowOutageLogs();
    const { server, proxy } = setup;
    proxy.hang();
    const started = Date.now();
    const answer = await submit(server);
    expect(answer.status).toBe(503);
    // The query timeout (15 s) and the limiter's own wait (1 s), with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(25_000);
    // The store found unreachable, the next submissions are answered at once, not after another timeout.
    const next = Date.now();
    expect((await submit(server)).status).toBe(503);
    expect(Date.now() - next).toBeLessThan(4_000);
    await proxy.up();
    await expect.poll(async () => (await submit(server)).status, { timeout: 30_000 }).toBe(201);
  });

  it('the inbox and its sign-in answer 503 problem+json with Retry-After while the database is down, and recover', async () => {
    allowOutageLogs();
    const { server, proxy } = setup;
    const accounts = await openStore(setup.databaseUrl);
    await createTestUser(accounts, { email: 'ops@brand.example', password: 'ops password 12' }, 'editor');
    await accounts.close();
    // Each request on a connection of its own: a kept-alive socket can meet the server closing it.
    const call = (method: string, path: string, headers: Record<string, string>, body?: string) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
        const request = httpRequest(`${server.url}${path}`, { method, agent: false, headers }, (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
        });
        request.on('error', reject);
        request.end(body);
      });
    const signIn = () =>
      call('POST', '/api/admin/session', { 'content-type': 'application/json' }, JSON.stringify({ email: 'ops@brand.example', password: 'ops password 12' }));
    const signedIn = await signIn();
    expect(signedIn.status).toBe(204);
    const cookie = ([] as string[])
      .concat(signedIn.headers['set-cookie'] ?? [])
      .map((line) => line.split(';')[0])
      .join('; ');
    const list = () => call('GET', '/api/admin/applications', { cookie });
    expect((await list()).status).toBe(200);

    await proxy.down();
    for (const response of [await list(), await signIn()]) {
      expect(response.status).toBe(503);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.body).not.toMatch(/ECONNREFUSED|Connection terminated|\bat .+:\d+:\d+/);
    }
    await proxy.up();
    await expect.poll(async () => (await list()).status, { timeout: 15_000 }).toBe(200);
    expect((await signIn()).status).toBe(204);
  });
});

describe.each(['SQLite', 'PostgreSQL'])('a crash under load on %s', (store) => {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let server: RunningServer;

  beforeAll(async () => {
    database = store === 'PostgreSQL' ? await createTestDatabase() : undefined;
    // What is stored across kills and restarts, not who sends it: the bot check is off (BOT_CHECK=off),
    // so a submission is one request (a challenge asked of a server being killed would be another).
    const env = { RATE_LIMIT_PER_MINUTE: '100000', BOT_CHECK: 'off' };
    server = await startServer(database ? { ...env, DATABASE_URL: database.url } : env);
  });
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it('every submission answered 2xx before SIGKILL is in the store after restart', async () => {
    // Killed with submissions in flight, once the stream has stored a good number.
    const load = stream(server, 8);
    await load.acknowledged(20);
    await server.halt('SIGKILL');
    const outcomes = await load.stop();
    const acknowledged = outcomes.flatMap((outcome) => (outcome.id ? [outcome.id] : []));
    expect(acknowledged.length).toBeGreaterThanOrEqual(20);
    await server.restart();
    const stored = database ? await pgIds(database.url) : new Set(server.rows().map((row) => row.id));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  });

  it('SIGTERM drains requests in flight: a request half-sent when the signal comes still gets its 201 and is stored', async () => {
    const body = JSON.stringify(validPayload());
    const halves = [body.slice(0, 200), body.slice(200)];
    // Each request announces its body (Expect: 100-continue): the server's "100 Continue" says it
    // has read the request's head and is handling it.
    const inFlight = await Promise.all(
      Array.from({ length: 3 }, async () => {
        const { request, answer } = openSubmission(server, body, { Expect: '100-continue' });
        await new Promise((resolve) => request.once('continue', resolve));
        request.write(halves[0]);
        return { answer, send: () => request.end(halves[1]) };
      }),
    );
    const stopped = server.halt('SIGTERM');
    // The server has taken the signal once it accepts no more connections.
    await expect.poll(() => refusesConnections(server), { timeout: 15_000 }).toBe(true);
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
