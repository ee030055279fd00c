// @vitest-environment node
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { validPayload } from '../../../tests/factories/application';
import { DEFAULT_RETRY, retryDelayMs, submitApplication, type RetryPolicy } from './submit';

const waits: number[] = [];
const policy: RetryPolicy = { attempts: 4, baseDelayMs: 100, maxDelayMs: 1000, sleep: async (ms) => void waits.push(ms) };
let server: Server | undefined;

/** A real HTTP server answering with the given statuses in turn, recording requests. */
async function serve(statuses: { status: number; retryAfter?: string; body?: string }[]) {
  const seen: IncomingMessage[] = [];
  server = createServer((request, response) => {
    seen.push(request);
    request.resume();
    const next = statuses[Math.min(seen.length - 1, statuses.length - 1)]!;
    response.writeHead(next.status, { 'Content-Type': 'application/json', ...(next.retryAfter ? { 'Retry-After': next.retryAfter } : {}) });
    response.end(next.body ?? '{}');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/syncPage/p`, seen };
}

afterEach(async () => {
  waits.length = 0;
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

describe('retryDelayMs', () => {
  it('honours Retry-After (seconds), capped', () => {
    expect(retryDelayMs(1, '2', DEFAULT_RETRY)).toBe(2000);
    expect(retryDelayMs(1, '120', DEFAULT_RETRY)).toBe(DEFAULT_RETRY.maxDelayMs);
  });
  it('backs off exponentially with jitter between half and all of the ceiling', () => {
    expect(retryDelayMs(1, null, policy, () => 0)).toBe(50);
    expect(retryDelayMs(1, null, policy, () => 1)).toBe(100);
    expect(retryDelayMs(3, null, policy, () => 1)).toBe(400);
    expect(retryDelayMs(10, null, policy, () => 1)).toBe(1000);
  });
});

describe('submitApplication', () => {
  it('retries 503 and 429 with the same Idempotency-Key until it succeeds', async () => {
    const { url, seen } = await serve([{ status: 503, retryAfter: '0' }, { status: 429, retryAfter: '0' }, { status: 201 }]);
    const retries: [number, number][] = [];
    const told = { ...policy, onRetry: (attempt: number, delayMs: number) => void retries.push([attempt, delayMs]) };
    expect(await submitApplication(url, validPayload(), 'key-1', told)).toEqual({ ok: true });
    expect(retries).toEqual([
      [1, 0],
      [2, 0],
    ]);
    expect(seen.map((request) => request.headers['idempotency-key'])).toEqual(['key-1', 'key-1', 'key-1']);
    expect(seen[0]!.method).toBe('PUT');
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(seen[0]!.headers.accept).toBe('application/json');
    expect(waits).toEqual([0, 0]);
  });

  it("says when the server held a minor's application without e-mailing their guardian, and reads nothing else of an answer", async () => {
    const { url } = await serve([
      { status: 201, body: '{"id":"a","receivedAt":"x","guardianAsked":false}' },
      { status: 201, body: '{"id":"b","receivedAt":"x","guardianAsked":true}' },
      { status: 200, body: 'not JSON: another site' },
    ]);
    expect(await submitApplication(url, validPayload(), 'key-g1', policy)).toEqual({ ok: true, guardianAsked: false });
    expect(await submitApplication(url, validPayload(), 'key-g2', policy)).toEqual({ ok: true });
    expect(await submitApplication(url, validPayload(), 'key-g3', policy)).toEqual({ ok: true });
  });

  it('does not retry a 400: the answer will not change', async () => {
    const { url, seen } = await serve([{ status: 400 }]);
    expect(await submitApplication(url, validPayload(), 'key-2', policy)).toEqual({ ok: false, status: 400 });
    expect(seen).toHaveLength(1);
  });

  it('gives up after the last attempt on a network failure', async () => {
    const { url } = await serve([{ status: 201 }]);
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    expect(await submitApplication(url, validPayload(), 'key-3', policy)).toEqual({ ok: false, status: 0 });
    expect(waits).toHaveLength(3);
  });

  it('sends nothing and succeeds without a request URL', async () => {
    expect(await submitApplication('', validPayload(), 'key-4', policy)).toEqual({ ok: true });
  });
});
