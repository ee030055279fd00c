/**
 * The outbox section of `npm run bench` (BENCH_OUTBOX=off skips it; docs/performance.md, "The
 * outbox at volume"): the compiled server on an empty SQLite file and, when TEST_DATABASE_URL is
 * set, an empty PostgreSQL database, takes BENCH_OUTBOX_APPLICATIONS applications (10 000) at
 * BENCH_OUTBOX_RATE a second (200), paced as applicants arrive, with two webhook endpoints (one
 * full, one thin) on real HTTP receivers on this machine and every confirmation e-mailed to a real
 * SMTP server. Measured: the submit figures under it, and per receiver the events received,
 * the distinct `webhook-id`s among them (none twice), and the time from the submit's answer (the
 * commit) to the receipt, p50, p95 and p99; the e-mails received and the time until the last.
 */
import { randomUUID } from 'node:crypto';
import { createTestDatabase } from '../tests/support/postgres';
import { sqliteExecDatabase } from '../tests/support/databases';
import { startSmtpReceiver } from '../tests/support/smtp-server';
import { createTestUser } from '../tests/support/users';
import { startWebhookReceiver, type WebhookReceiver } from '../tests/support/webhook-receiver';
import { openStore } from '../src/server/store/store';
import { pacedSubmissions } from './client';
import { start, stop } from './server-process';

const APPLICATIONS = Number(process.env.BENCH_OUTBOX_APPLICATIONS ?? 10_000);
const RATE = Number(process.env.BENCH_OUTBOX_RATE ?? 200);
/** How long after the last submission everything must have arrived, in ms. */
const DRAIN_MS = 120_000;
const EDITOR = { email: 'bench.editor@brand.example', password: 'bench editor password' };

/** The `p`th percentile (0–1) of sorted `values`, rounded to 0.1. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]! * 10) / 10;
}

/** Waits until `done()` or `timeoutMs` has passed. */
async function until(done: () => boolean, timeoutMs: number): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!done() && performance.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** A receiver's figures: events received, distinct webhook-ids, latencies from each application's commit. */
function receiverFigures(receiver: WebhookReceiver, committed: ReadonlyMap<string, number>) {
  const ids = new Set<string>();
  const latencies: number[] = [];
  for (const request of receiver.received) {
    ids.add(String(request.headers['webhook-id']));
    const { data } = JSON.parse(request.body) as { data: { id?: string } };
    const at = data.id === undefined ? undefined : committed.get(data.id);
    if (at !== undefined) latencies.push(request.at - at);
  }
  latencies.sort((a, b) => a - b);
  return {
    received: receiver.received.length,
    distinct: ids.size,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
  };
}

/** One store's run: the server, two endpoints, an SMTP server, the paced submissions, and the drain. */
async function run(name: string, url: string) {
  const smtp = await startSmtpReceiver();
  const receivers = [await startWebhookReceiver(), await startWebhookReceiver()] as const;
  const store = await openStore(url);
  await createTestUser(store, EDITOR, 'owner');
  await store.close();
  const server = await start('src/server/server.ts', { DATABASE_URL: url, WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8', SMTP_URL: smtp.url });
  try {
    const signIn = await fetch(`${server.url}/api/admin/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(EDITOR),
    });
    const cookies = signIn.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!);
    const xsrf = decodeURIComponent(cookies.find((cookie) => cookie.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '');
    const headers = { 'content-type': 'application/json', cookie: cookies.join('; '), 'x-xsrf-token': xsrf };
    for (const [index, receiver] of receivers.entries()) {
      const created = await fetch(`${server.url}/api/admin/webhooks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: receiver.url, events: ['application.submitted'], payload: index === 0 ? 'full' : 'thin' }),
      });
      if (created.status !== 201) throw new Error(`the endpoint was not added: ${created.status} ${await created.text()}`);
    }
    const committed = new Map<string, number>();
    const submitted = await pacedSubmissions(server.url, randomUUID().slice(0, 8), {
      rate: RATE,
      seconds: APPLICATIONS / RATE,
      connections: 50,
      answered: (status, body, at) => {
        if (status === 201) committed.set((JSON.parse(body) as { id: string }).id, at);
      },
    });
    const last = performance.now();
    await until(() => receivers.every((receiver) => receiver.received.length >= committed.size) && smtp.received.length >= committed.size, DRAIN_MS);
    const drained = performance.now() - last;
    const figures = receivers.map((receiver) => receiverFigures(receiver, committed));
    console.log(
      `| ${name} | ${committed.size} | ${submitted.requestsPerSecond} | ${submitted.p50} | ${submitted.p99} | ${figures.map((f) => `${f.received} / ${f.distinct}`).join(' · ')} | ${figures.map((f) => `${f.p50} / ${f.p95} / ${f.p99}`).join(' · ')} | ${smtp.received.length} | ${Math.round(drained)} |`,
    );
  } finally {
    await stop(server);
    for (const receiver of receivers) await receiver.close();
    await smtp.close();
  }
}

/** The outbox at volume on each store (see the module's comment). */
export async function benchOutbox(): Promise<void> {
  console.log(
    `\nThe outbox at volume: ${APPLICATIONS.toLocaleString('en')} applications at ${RATE}/s, two endpoints (full · thin), confirmations e-mailed through SMTP:\n`,
  );
  console.log(
    '| store | stored | submits/s | submit p50 ms | submit p99 ms | events received / distinct ids | commit → receipt p50 / p95 / p99 ms | e-mails | drained ms after the last submit |',
  );
  console.log('|---|---:|---:|---:|---:|---|---|---:|---:|');
  const sqlite = await sqliteExecDatabase('bench-outbox-');
  try {
    await run('SQLite', sqlite.url);
  } finally {
    await sqlite.drop();
  }
  if (process.env.TEST_DATABASE_URL) {
    const postgres = await createTestDatabase();
    try {
      await run('PostgreSQL', postgres.url);
    } finally {
      await postgres.drop();
    }
  }
}
