import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a {@link WebhookReceiver} received. */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** `performance.now()` when it arrived. */
  at: number;
}

/** A real HTTP receiver on loopback, as a brand's tool would run one: it records every request and answers as told. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hooks`. */
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /**
   * How the next requests are answered, in order (then 200): a status, a status with headers, or
   * `hold`, which never answers (the connection stays open until the sender goes).
   */
  answers: (number | { status: number; headers: Record<string, string> } | 'hold')[];
  /** Waits until at least `count` requests have arrived (polling, up to `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/** Starts a {@link WebhookReceiver} on a free loopback port. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const held: ServerResponse[] = [];
  const receiver: Omit<WebhookReceiver, 'url' | 'port'> = {
    received: [],
    answers: [],
    async waitFor(count, timeoutMs = 10_000) {
      const until = performance.now() + timeoutMs;
      while (receiver.received.length < count) {
        if (performance.now() > until) throw new Error(`the receiver had ${receiver.received.length} requests, not ${count}, after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return receiver.received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of held) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      receiver.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: performance.now() });
      const answer = receiver.answers.shift() ?? 200;
      if (answer === 'hold') {
        held.push(response);
        return;
      }
      const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
      response.writeHead(status, headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, { url: `http://127.0.0.1:${port}/hooks`, port }) as WebhookReceiver;
}
