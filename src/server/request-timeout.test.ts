import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../tests/factories/application';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../tests/support/databases';
import { testDist, type TestDist } from '../../tests/support/test-app';
import { TEST_SECRET, xsrfPair } from '../../tests/support/xsrf';
import { buildApp } from './app';
import { openStore, type Store } from './store/store';

// The fourth outside attack of docs/decisions/021 (F6): bodies that trickle in forever, and refused
// requests whose bodies the server went on reading.

/** How long the test app lets a request take to arrive, in ms. */
const REQUEST_TIMEOUT_MS = 600;

/** Everything the server sends on a connection until it closes it; rejects if it stays open past `deadlineMs`. */
function answerOf(socket: Socket, deadlineMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const deadline = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open past ${deadlineMs} ms; it sent: ${text.slice(0, 80)}`));
    }, deadlineMs);
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.once('close', () => {
      clearTimeout(deadline);
      resolve(text);
    });
    socket.once('error', () => undefined);
  });
}

describe.each([
  ['SQLite', () => sqliteExecDatabase('request-timeout-')],
  ['PostgreSQL', postgresExecDatabase],
])('requests that never finish arriving, on %s', (_name, createDatabase) => {
  let database: ExecDatabase;
  let dist: TestDist;
  let store: Store;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let port: number;

  beforeAll(async () => {
    database = await createDatabase();
    dist = testDist('request-timeout-', { admin: true });
    store = await openStore(database.url);
    app = await buildApp({ config: defaultConfig(), store, distDir: dist.distDir, secret: TEST_SECRET, requestTimeoutMs: REQUEST_TIMEOUT_MS });
    port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await database?.drop();
    dist?.remove();
  });

  it('answers a body that trickles in past the request timeout with 408 problem+json and closes the connection', async () => {
    const { headers } = xsrfPair();
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    const answer = answerOf(socket, REQUEST_TIMEOUT_MS * 10);
    const head = Object.entries({ ...headers, 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'idempotency-key': crypto.randomUUID() })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`PUT /api/syncPage/creators HTTP/1.1\r\nHost: x\r\n${head}\r\n1\r\n{\r\n`);
    // One byte now and then, as the attacker sent: never the whole body.
    const trickle = setInterval(() => socket.writable && socket.write('1\r\n \r\n'), REQUEST_TIMEOUT_MS / 6);
    try {
      const text = await answer;
      expect(text).toMatch(/^HTTP\/1.1 408 /);
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 408 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS);
    } finally {
      clearInterval(trickle);
    }
  });

  it('closes the connection of a request refused before its body is read, instead of reading the body', async () => {
    const socket = connect(port, '127.0.0.1');
    // No session: 401 from the API's hook, with 10 MiB announced and none of it sent.
    const answer = answerOf(socket, REQUEST_TIMEOUT_MS / 2);
    socket.write(
      `POST /api/admin/pages/summer/images?kind=cover HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n`,
    );
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1.1 401 /);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
  });

  it('keeps the connection of a request with no body answered at once (the page, a file): the next request comes on it', async () => {
    const socket = connect(port, '127.0.0.1');
    const answer = answerOf(socket, REQUEST_TIMEOUT_MS * 10);
    // The page and the health check are answered within the tick their headers arrive in.
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const text = await answer;
    expect(text.match(/HTTP\/1.1 200 /g)).toHaveLength(3);
    expect(text.match(/\r\nconnection: close\r\n/gi)).toHaveLength(1);
  });
});
