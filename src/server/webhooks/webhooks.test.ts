import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import { LOOPBACK, deliveringApp, submitApplication } from '../../../tests/support/delivering-app';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../../tests/support/webhook-receiver';
import type { WebhookDelivery, WebhookEndpoint } from '../../shared/webhooks';
import { addressPolicy, parseAllowNetworks } from './address-policy';

/** The body of a received Standard Webhooks message, its signature verified with `secret` by the official package. */
function verified(request: ReceivedWebhook, secret: string): { type: string; timestamp: string; data: Record<string, unknown> } {
  return new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as {
    type: string;
    timestamp: string;
    data: Record<string, unknown>;
  };
}

describe.each([
  ['SQLite', () => sqliteExecDatabase('webhooks-')],
  ['PostgreSQL', postgresExecDatabase],
])('webhooks on %s', (_name, createDatabase) => {
  let database: ExecDatabase;
  let receiver: WebhookReceiver;
  let thin: WebhookReceiver;
  let harness: Awaited<ReturnType<typeof deliveringApp>>;
  let full: { id: string; secret: string };
  let thinEndpoint: { id: string; secret: string };

  beforeAll(async () => {
    database = await createDatabase();
    receiver = await startWebhookReceiver();
    thin = await startWebhookReceiver();
    harness = await deliveringApp(database.url, {
      webhooks: { deliver: true, allowNetworks: LOOPBACK, publicUrl: 'https://apply.brand.example', sender: { pollMs: 20 } },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
    await thin?.close();
    await database?.drop();
  });

  it('owners add endpoints (the secret shown once), editors and viewers read them and may not change them', async () => {
    const { app, owner, editor, viewer } = harness;
    const create = (headers: Record<string, string>, payload: object) => app.inject({ method: 'POST', url: '/api/admin/webhooks', headers, payload });
    expect((await create(viewer, { url: receiver.url, events: ['application.submitted'] })).statusCode).toBe(403);
    // Integrations are the owners' (docs/inbox.md, "The team"): an editor may not add one either.
    expect((await create(editor, { url: receiver.url, events: ['application.submitted'] })).statusCode).toBe(403);
    const created = await create(owner, {
      url: receiver.url,
      events: ['application.submitted', 'application.status_changed', 'application.erased', 'page.published'],
      description: 'CRM',
    });
    expect(created.statusCode, created.body).toBe(201);
    full = created.json<{ id: string; secret: string }>();
    expect(full.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const other = await create(owner, { url: thin.url, events: ['application.submitted', 'application.erased'], payload: 'thin' });
    thinEndpoint = other.json<{ id: string; secret: string }>();
    const listed = (await app.inject({ method: 'GET', url: '/api/admin/webhooks', headers: owner })).json<WebhookEndpoint[]>();
    expect(listed.map((endpoint) => [endpoint.url, endpoint.payload, endpoint.state])).toEqual([
      [receiver.url, 'full', 'active'],
      [thin.url, 'thin', 'active'],
    ]);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    // A URL may be a credential (a Slack webhook's): a viewer sees where it points, not all of it.
    const seen = (await app.inject({ method: 'GET', url: '/api/admin/webhooks', headers: viewer })).json<WebhookEndpoint[]>();
    expect(seen.map((endpoint) => endpoint.url)).toEqual([`http://127.0.0.1:${receiver.port}/…`, `http://127.0.0.1:${thin.port}/…`]);
    // What is no endpoint is refused, naming the field.
    const bad = await create(owner, { url: 'ftp://crm.example/hook', events: [] });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json<{ errors: { path: string }[] }>()
        .errors.map((error) => error.path)
        .sort(),
    ).toEqual(['events', 'url']);
    const portZero = await create(owner, { url: 'http://crm.example:0/hook', events: ['page.closed'] });
    expect(portZero.statusCode).toBe(400);
    expect(portZero.json<{ errors: { path: string }[] }>().errors.map((error) => error.path)).toEqual(['url']);
  });

  it('delivers application.submitted, signed (the standardwebhooks package verifies it), full or thin as each endpoint asked', async () => {
    const id = await submitApplication(harness.app, { emailAddress: 'ada.full@example.com' });
    const [toFull] = await receiver.waitFor(1);
    const [toThin] = await thin.waitFor(1);
    const message = verified(toFull!, full.secret);
    expect(message).toMatchObject({ type: 'application.submitted', data: { id, pageId: 'creators', status: 'new' } });
    expect((message.data.application as { personalInfo: { emailAddress: string } }).personalInfo.emailAddress).toBe('ada.full@example.com');
    expect(toFull!.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(Math.abs(Number(toFull!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    // One event: the same webhook-id to both endpoints; the thin one carries no personal data.
    expect(toThin!.headers['webhook-id']).toBe(toFull!.headers['webhook-id']);
    expect(verified(toThin!, thinEndpoint.secret)).toEqual({
      type: 'application.submitted',
      timestamp: message.timestamp,
      data: { id, pageId: 'creators', status: 'new' },
    });
    expect(toThin!.body).not.toContain('@');
    // Signed with another secret, it does not verify.
    expect(() => verified(toFull!, thinEndpoint.secret)).toThrow();
  });

  it('tells a decision and an erasure; an erasure cancels what was not sent yet', async () => {
    const { app, owner } = harness;
    const id = await submitApplication(app);
    await receiver.waitFor(2);
    const patched = await app.inject({ method: 'PATCH', url: `/api/admin/applications/${id}`, headers: owner, payload: { status: 'accepted' } });
    expect(patched.statusCode, patched.body).toBe(200);
    const changed = verified((await receiver.waitFor(3))[2]!, full.secret);
    expect(changed).toMatchObject({ type: 'application.status_changed', data: { id, status: 'accepted', previousStatus: 'new' } });
    const started = performance.now();
    const erased = await app.inject({ method: 'DELETE', url: `/api/admin/applications/${id}`, headers: owner });
    expect(erased.statusCode).toBe(204);
    // Not after an attempt's time limit (8 s here): no attempt holds what an erasure writes.
    expect(performance.now() - started).toBeLessThan(4_000);
    const told = verified((await receiver.waitFor(4))[3]!, full.secret);
    expect(told).toEqual({ type: 'application.erased', timestamp: expect.any(String), data: { id, pageId: 'creators' } });
    const thinTold = (await thin.waitFor(3))[2]!;
    expect(verified(thinTold, thinEndpoint.secret).type).toBe('application.erased');
  });

  it('keeps a delivery log, sends a test event, and signs with every secret rotated out in the last day beside the new one', async () => {
    const { app, owner, viewer } = harness;
    // Received, then recorded: the log is read until the last record is in.
    const log = async () =>
      (await app.inject({ method: 'GET', url: `/api/admin/webhooks/${full.id}/deliveries`, headers: viewer })).json<{ items: WebhookDelivery[] }>();
    await expect
      .poll(async () => (await log()).items.map((delivery) => [delivery.type, delivery.state, delivery.attempts, delivery.lastStatus]))
      .toEqual([
        ['application.erased', 'delivered', 1, 200],
        ['application.status_changed', 'delivered', 1, 200],
        ['application.submitted', 'delivered', 1, 200],
        ['application.submitted', 'delivered', 1, 200],
      ]);
    const rotated = await app.inject({ method: 'POST', url: `/api/admin/webhooks/${full.id}/rotate-secret`, headers: owner });
    const { secret } = rotated.json<{ secret: string }>();
    expect(secret).not.toBe(full.secret);
    const test = await app.inject({ method: 'POST', url: `/api/admin/webhooks/${full.id}/test`, headers: owner });
    expect(test.statusCode).toBe(201);
    const received = (await receiver.waitFor(5))[4]!;
    expect(String(received.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(received, secret)).toMatchObject({ type: 'webhook.test' });
    expect(verified(received, full.secret)).toMatchObject({ type: 'webhook.test' });
    // A second rotation within the day: the first secret still signs until its own 24 hours end.
    const again = (await app.inject({ method: 'POST', url: `/api/admin/webhooks/${full.id}/rotate-secret`, headers: owner })).json<{ secret: string }>().secret;
    await app.inject({ method: 'POST', url: `/api/admin/webhooks/${full.id}/test`, headers: owner });
    const third = (await receiver.waitFor(6))[5]!;
    expect(String(third.headers['webhook-signature']).split(' ')).toHaveLength(3);
    for (const each of [again, secret, full.secret]) expect(verified(third, each)).toMatchObject({ type: 'webhook.test' });
    full.secret = again;
  });

  it('an endpoint paused receives nothing until it is active again, then everything', async () => {
    const { app, owner } = harness;
    const paused = await app.inject({ method: 'PATCH', url: `/api/admin/webhooks/${full.id}`, headers: owner, payload: { state: 'paused' } });
    expect(paused.json<WebhookEndpoint>().state).toBe('paused');
    const before = receiver.received.length;
    const whilePaused = await submitApplication(app);
    await thin.waitFor(4);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.received.length).toBe(before);
    await app.inject({ method: 'PATCH', url: `/api/admin/webhooks/${full.id}`, headers: owner, payload: { state: 'active' } });
    // What happened while it was paused waited for it, and goes now.
    const after = verified((await receiver.waitFor(before + 1))[before]!, full.secret);
    expect(after).toMatchObject({ type: 'application.submitted', data: { id: whilePaused } });
  });
});

describe('where a webhook may point (no request forgery)', () => {
  let database: ExecDatabase;
  let receiver: WebhookReceiver;
  let harness: Awaited<ReturnType<typeof deliveringApp>>;

  beforeAll(async () => {
    database = await sqliteExecDatabase('webhooks-ssrf-');
    receiver = await startWebhookReceiver();
    harness = await deliveringApp(database.url, {
      webhooks: {
        deliver: true,
        // No network allowed: loopback is refused, whatever name leads to it.
        sender: { pollMs: 20, lookup: (_hostname, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]) },
      },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
    await database?.drop();
  });

  it('refuses loopback, private, link-local and IPv4-mapped addresses in the URL', async () => {
    const { app, owner } = harness;
    for (const url of [
      receiver.url,
      `http://[::ffff:127.0.0.1]:${receiver.port}/hooks`,
      `http://[::1]:${receiver.port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.7/hook',
      'http://localhost:8080/hook',
    ]) {
      const response = await app.inject({ method: 'POST', url: '/api/admin/webhooks', headers: owner, payload: { url, events: ['application.submitted'] } });
      expect(response.statusCode, url).toBe(422);
      expect(response.json<{ errors: { path: string; message: string }[] }>().errors[0]).toMatchObject({ path: 'url' });
    }
  });

  it('never connects to a name that resolves to a loopback address: the delivery fails and says why', async () => {
    const { app, owner, viewer } = harness;
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/webhooks',
      headers: owner,
      payload: { url: `http://receiver.example:${receiver.port}/hooks`, events: ['application.submitted'] },
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json<{ id: string }>();
    await app.inject({ method: 'POST', url: `/api/admin/webhooks/${id}/test`, headers: owner });
    await expect
      .poll(
        async () =>
          (await app.inject({ method: 'GET', url: `/api/admin/webhooks/${id}/deliveries`, headers: viewer })).json<{ items: WebhookDelivery[] }>().items[0],
      )
      .toMatchObject({
        state: 'pending',
        attempts: 1,
        lastStatus: null,
        lastError: expect.stringContaining('does not resolve to an address deliveries may reach'),
      });
    expect(receiver.received).toEqual([]);
  });

  it('judges addresses as ipaddr.js ranges them, an IPv4-mapped address as its IPv4 one', () => {
    const publicOnly = addressPolicy([]);
    for (const address of [
      '127.0.0.1',
      '::1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      'fe80::1',
      'fd00::1',
      '0.0.0.0',
      '::ffff:10.0.0.1',
      '224.0.0.1',
    ])
      expect(publicOnly(address), address).toBe(false);
    for (const address of ['93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(publicOnly(address), address).toBe(true);
    const withLoopback = addressPolicy(LOOPBACK);
    expect([withLoopback('127.0.0.1'), withLoopback('::ffff:127.0.0.2'), withLoopback('10.0.0.1')]).toEqual([true, true, false]);
    expect(parseAllowNetworks('10.0.0.0/8, fd00::/8')).toMatchObject({ networks: [expect.anything(), expect.anything()] });
    expect(parseAllowNetworks('10.0.0.0/8,not-a-network')).toEqual({ invalid: 'not-a-network' });
  });
});

describe('retries, with an injected clock', () => {
  let database: ExecDatabase;
  let receiver: WebhookReceiver;
  let harness: Awaited<ReturnType<typeof deliveringApp>>;
  let now = Date.parse('2026-11-29T12:00:00Z');

  beforeAll(async () => {
    database = await sqliteExecDatabase('webhooks-retry-');
    receiver = await startWebhookReceiver();
    harness = await deliveringApp(database.url, {
      webhooks: { deliver: true, allowNetworks: LOOPBACK, sender: { pollMs: 10, random: () => 0 } },
      clock: () => now,
    });
  });
  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
    await database?.drop();
  });

  it('tries again after 5 s, then honours Retry-After on a 429, and delivers; a 410 disables the endpoint', async () => {
    const { app, owner, viewer } = harness;
    const { id } = (
      await app.inject({ method: 'POST', url: '/api/admin/webhooks', headers: owner, payload: { url: receiver.url, events: ['application.submitted'] } })
    ).json<{ id: string }>();
    const last = async () =>
      (await app.inject({ method: 'GET', url: `/api/admin/webhooks/${id}/deliveries`, headers: viewer })).json<{ items: WebhookDelivery[] }>().items[0]!;
    receiver.answers.push(500, { status: 429, headers: { 'retry-after': '600' } }, 200);
    await app.inject({ method: 'POST', url: `/api/admin/webhooks/${id}/test`, headers: owner });
    await receiver.waitFor(1);
    await expect.poll(last).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 500, nextAttemptAt: new Date(now + 5_000).toISOString() });
    // Not before its time: the clock has not moved.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.received).toHaveLength(1);
    now += 5_000;
    await receiver.waitFor(2);
    await expect.poll(last).toMatchObject({ state: 'pending', attempts: 2, lastStatus: 429, nextAttemptAt: new Date(now + 600_000).toISOString() });
    // The same message each time: the receiver tells a retry by its webhook-id.
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    now += 600_000;
    await receiver.waitFor(3);
    await expect.poll(last).toMatchObject({ state: 'delivered', attempts: 3, lastStatus: 200, nextAttemptAt: null });

    receiver.answers.push(410);
    await app.inject({ method: 'POST', url: `/api/admin/webhooks/${id}/test`, headers: owner });
    await receiver.waitFor(4);
    await expect
      .poll(async () => (await app.inject({ method: 'GET', url: `/api/admin/webhooks/${id}`, headers: viewer })).json<WebhookEndpoint>())
      .toMatchObject({ state: 'disabled', disabledReason: 'The endpoint answered 410 Gone.' });
    // Replayed by the team once it is active again.
    await app.inject({ method: 'PATCH', url: `/api/admin/webhooks/${id}`, headers: owner, payload: { state: 'active' } });
    const failed = await last();
    expect(failed.state).toBe('failed');
    const replay = await app.inject({ method: 'POST', url: `/api/admin/webhooks/${id}/deliveries/${failed.id}/retry`, headers: owner });
    expect(replay.statusCode).toBe(200);
    await receiver.waitFor(5);
    await expect.poll(last).toMatchObject({ state: 'delivered', lastStatus: 200 });
  });
});

describe.each([
  ['SQLite', () => sqliteExecDatabase('webhooks-down-')],
  ['PostgreSQL', postgresExecDatabase],
])('a receiver down for 10 minutes, on %s, with an injected clock', (_name, createDatabase) => {
  let database: ExecDatabase;
  let receiver: WebhookReceiver;
  let harness: Awaited<ReturnType<typeof deliveringApp>>;
  let now = Date.parse('2026-11-29T12:00:00Z');

  beforeAll(async () => {
    database = await createDatabase();
    receiver = await startWebhookReceiver();
    harness = await deliveringApp(database.url, {
      webhooks: { deliver: true, allowNetworks: LOOPBACK, sender: { pollMs: 10, random: () => 0 } },
      clock: () => now,
    });
  });
  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
    await database?.drop();
  });

  it("receives every event once it is back, each once, without waiting for each one's next attempt", async () => {
    const { app, owner } = harness;
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/webhooks',
      headers: owner,
      payload: { url: receiver.url, events: ['application.submitted'] },
    });
    expect(created.statusCode).toBe(201);
    // Down: every request answered 503, for 10 minutes during which 30 applications arrive.
    receiver.answers.push(...Array.from({ length: 1000 }, () => 503));
    const ids: string[] = [];
    for (let minute = 0; minute < 30; minute++) {
      ids.push(await submitApplication(app));
      await receiver.waitFor(receiver.received.length + 1);
      now += 20_000;
    }
    // Back: its first 2xx brings what waits forward; nothing waits for its 30-minute attempt.
    receiver.answers.length = 0;
    const backAt = receiver.received.length;
    ids.push(await submitApplication(app));
    // Time passes 6 s at a time, 4 minutes at most (an attempt answered 503 on its way when it came
    // back goes after the first wait, 5 s): far from the 30 minutes the schedule's next attempt is
    // for the deliveries of the outage's first minutes.
    for (let step = 0; step < 40 && receiver.received.length < backAt + ids.length; step++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      now += 6_000;
    }
    // A loaded machine (the whole suite at once) may need more than the default 10 s of real time.
    await receiver.waitFor(backAt + ids.length, 30_000);
    const answered = receiver.received.slice(backAt).map((request) => JSON.parse(request.body) as { data: { id: string } });
    expect(new Set(answered.map((body) => body.data.id))).toEqual(new Set(ids));
    const webhookIds = receiver.received.slice(backAt).map((request) => request.headers['webhook-id']);
    expect(new Set(webhookIds).size, 'none twice once answered 2xx').toBe(webhookIds.length);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received.length - backAt).toBe(ids.length);
  });
});

describe.each([
  ['SQLite', () => sqliteExecDatabase('webhooks-hang-')],
  ['PostgreSQL', postgresExecDatabase],
])('a receiver that hangs, on %s', (_name, createDatabase) => {
  let database: ExecDatabase;
  let hanging: WebhookReceiver;
  let healthy: WebhookReceiver;
  let harness: Awaited<ReturnType<typeof deliveringApp>>;

  beforeAll(async () => {
    database = await createDatabase();
    [hanging, healthy] = await Promise.all([startWebhookReceiver(), startWebhookReceiver()]);
    // Every request to `hanging` is held unanswered until the attempt's time limit.
    hanging.answers.push(...Array.from({ length: 50 }, () => 'hold' as const));
    harness = await deliveringApp(database.url, { webhooks: { deliver: true, allowNetworks: LOOPBACK, sender: { pollMs: 20, timeoutMs: 8_000 } } });
  });
  afterAll(async () => {
    await hanging?.close();
    await harness?.close();
    await healthy?.close();
    await database?.drop();
  });

  it('holds back neither the other endpoints nor an erasure, which cancels the attempt under way for good', async () => {
    const { app, owner, viewer } = harness;
    const add = async (receiver: WebhookReceiver) =>
      (
        await app.inject({
          method: 'POST',
          url: '/api/admin/webhooks',
          headers: owner,
          payload: { url: receiver.url, events: ['application.submitted', 'application.erased'] },
        })
      ).json<{ id: string }>().id;
    const stuck = await add(hanging);
    await add(healthy);
    // Test events to the hanging endpoint, enough to fill every sender were there no limit per endpoint.
    for (let index = 0; index < 10; index++) await app.inject({ method: 'POST', url: `/api/admin/webhooks/${stuck}/test`, headers: owner });
    await hanging.waitFor(1);
    const id = await submitApplication(app);
    // The healthy endpoint hears of it while the other's attempts hang.
    const [told] = await healthy.waitFor(1, 5_000);
    expect((JSON.parse(told!.body) as { data: { id: string } }).data.id).toBe(id);
    // Erased while its delivery to the hanging endpoint may be under way: the erasure does not wait for it.
    const started = performance.now();
    const erased = await app.inject({ method: 'DELETE', url: `/api/admin/applications/${id}`, headers: owner });
    expect(erased.statusCode).toBe(204);
    // Not after an attempt's time limit (8 s here): no attempt holds what an erasure writes.
    expect(performance.now() - started).toBeLessThan(4_000);
    expect(hanging.received.length).toBeLessThanOrEqual(2 + 1);
    await healthy.waitFor(2, 5_000);
    const log = (await app.inject({ method: 'GET', url: `/api/admin/webhooks/${stuck}/deliveries`, headers: viewer })).json<{ items: WebhookDelivery[] }>();
    const submitted = log.items.find((delivery) => delivery.type === 'application.submitted');
    expect(submitted).toMatchObject({ state: 'cancelled', applicationId: id });
  });

  it('keeps senders for the other endpoints while several hanging ones each have a backlog due', async () => {
    const { app, owner } = harness;
    hanging.answers.push(...Array.from({ length: 60 }, () => 'hold' as const));
    const add = async (url: string) =>
      (await app.inject({ method: 'POST', url: '/api/admin/webhooks', headers: owner, payload: { url, events: ['page.closed'] } })).json<{ id: string }>().id;
    const before = hanging.received.length;
    // Four hanging endpoints, two attempts each: the eight senders wait on them (and on the last
    // test's hanging endpoint, which may still hold two).
    for (const path of ['s1', 's2', 's3', 's4']) {
      const stuck = await add(`${hanging.url}/${path}`);
      for (let index = 0; index < 6; index++) await app.inject({ method: 'POST', url: `/api/admin/webhooks/${stuck}/test`, headers: owner });
    }
    await hanging.waitFor(before + 4, 10_000);
    const fair = await add(`${healthy.url}/fair`);
    const told = healthy.received.length;
    const started = performance.now();
    await app.inject({ method: 'POST', url: `/api/admin/webhooks/${fair}/test`, headers: owner });
    // After the first round's time limit (8 s here) half the senders are free of the failing
    // endpoints, though each still has five deliveries due: not after every backlog's rounds (24 s).
    await healthy.waitFor(told + 1, 14_000);
    expect(performance.now() - started).toBeLessThan(12_000);
  }, 30_000);
});
