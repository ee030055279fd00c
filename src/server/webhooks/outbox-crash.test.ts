import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../tests/e2e/support';
import { validPayload } from '../../../tests/factories/application';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import { startWebhookReceiver, type WebhookReceiver } from '../../../tests/support/webhook-receiver';
import { xsrfPair } from '../../../tests/support/xsrf';
import { openStore } from '../store/store';

/** The endpoint the server delivers to, made in the database before the server starts; its secret. */
async function endpointIn(url: string, receiver: WebhookReceiver): Promise<string> {
  const store = await openStore(url, { scrubOnOpen: false });
  try {
    const { secret } = await store.webhooks.create({ url: receiver.url, events: ['application.submitted'] }, 'operator@brand.example');
    return secret;
  } finally {
    await store.close();
  }
}

/** Submits one application over HTTP, as the wizard does. */
async function submit(server: RunningServer): Promise<string> {
  const pair = xsrfPair();
  const response = await fetch(`${server.url}/api/syncPage/creators`, {
    method: 'PUT',
    headers: { ...pair.headers, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify(validPayload()),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** The delivery rows of the database, as the sender left them. */
async function deliveries(database: ExecDatabase) {
  return database.query<{ state: string; attempts: number; event_id: string }>('select state, attempts, event_id from webhook_deliveries');
}

describe.each([
  ['SQLite', () => sqliteExecDatabase('outbox-crash-')],
  ['PostgreSQL', postgresExecDatabase],
])('the outbox on %s, across a SIGKILL', (_name, createDatabase) => {
  let database: ExecDatabase | undefined;
  let receiver: WebhookReceiver | undefined;
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.stop();
    await receiver?.close();
    await database?.drop();
  });

  it('delivers, after the next start, an event whose attempt the killed process never finished (the same webhook-id)', async () => {
    database = await createDatabase();
    receiver = await startWebhookReceiver();
    const secret = await endpointIn(database.url, receiver);
    // The first attempt is held unanswered: the process is killed with the application committed
    // and its delivery under way.
    receiver.answers.push('hold');
    // What is stored across processes and kills, not who sends it: no bot check (docs/decisions/032).
    server = await startServer({ DATABASE_URL: database.url, WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8', BOT_CHECK: 'off' });
    const id = await submit(server);
    const [held] = await receiver.waitFor(1);
    await server.halt('SIGKILL');
    expect((await deliveries(database)).map((row) => row.state)).toEqual(['pending']);

    await server.restart();
    const [, again] = await receiver.waitFor(2);
    expect(again!.headers['webhook-id']).toBe(held!.headers['webhook-id']);
    const message = new Webhook(secret).verify(again!.body, again!.headers as Record<string, string>) as { type: string; data: { id: string } };
    expect(message).toMatchObject({ type: 'application.submitted', data: { id } });
    await expect.poll(async () => (await deliveries(database!)).map((row) => row.state)).toEqual(['delivered']);
  });
});

describe('two PostgreSQL server processes', () => {
  let database: ExecDatabase | undefined;
  let receiver: WebhookReceiver | undefined;
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await receiver?.close();
    await database?.drop();
  });

  it('share the deliveries: every event delivered once, none twice', async () => {
    database = await postgresExecDatabase();
    receiver = await startWebhookReceiver();
    await endpointIn(database.url, receiver);
    for (let index = 0; index < 2; index++)
      servers.push(await startServer({ DATABASE_URL: database.url, WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8', RATE_LIMIT_PER_MINUTE: '100000', BOT_CHECK: 'off' }));
    const ids = await Promise.all(Array.from({ length: 120 }, (_, index) => submit(servers[index % 2]!)));
    await receiver.waitFor(120, 30_000);
    // Every delivery recorded as delivered once (a delivered one is never sent again): what arrived is all there is.
    await expect
      .poll(async () => (await deliveries(database!)).filter((row) => row.state === 'delivered' && Number(row.attempts) === 1).length, { timeout: 10_000 })
      .toBe(120);
    const received = receiver.received;
    const eventIds = received.map((request) => String(request.headers['webhook-id']));
    expect(new Set(eventIds).size).toBe(eventIds.length);
    expect(received).toHaveLength(120);
    expect(new Set(received.map((request) => (JSON.parse(request.body) as { data: { id: string } }).data.id))).toEqual(new Set(ids));
  });
});
