import { readFileSync, readdirSync } from 'node:fs';
import { get, type ClientRequest, type IncomingMessage } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApplicationFilter } from '../../shared/admin';
import { applicantPayload, defaultConfig } from '../../../tests/factories/application';
import { postgresExecDatabase, sqliteExecDatabase } from '../../../tests/support/databases';
import { filledInboxServer, type FilledInbox } from '../../../tests/support/test-app';
import { TEST_SECRET } from '../../../tests/support/xsrf';
import { buildApp } from '../app';
import { answerColumns } from '../inbox/answers';
import { EXPORT_BATCH_ROWS, applicationsCsv } from '../inbox/csv';
import { ExportThreads } from '../inbox/export-threads';

// docs/decisions/014: an export runs in a thread of its own at the lowest priority,
// writes the bytes the main thread's exporter writes, ends when its client goes away, and a
// process runs at most `running` of them (here 2), `waiting` more (here 1) wait, the rest get 503;
// a thread that finished an export runs the next one.

/**
 * Some 10.5 MB of CSV (each row's free-text answer 2 500 characters long): more than the kernel
 * holds for a client that reads nothing on a connection of its own (Linux's largest send buffer is
 * 4 MiB, and such a client's receive buffer stays at its first 128 KiB), so an export held by its
 * client keeps its thread waiting. Every request here opens its own connection: a kept-alive one
 * whose client once read fast has a receive buffer grown as far as `net.ipv4.tcp_rmem` allows
 * (26 MB was seen), which held a whole export. Twenty batches of the thread's: an export runs long
 * enough to be held, cut or queued.
 */
const ROWS = 4_000;
/** The length of each row's free-text answer, in characters: megabytes of CSV from a few thousand rows. */
const ANSWER_LENGTH = 2_500;
/** Threads end with their export here (idleMs 0), so that the threads counted are the exports running. */
const LIMITS = { running: 2, waiting: 1, idleMs: 0 };

/** This process's threads and their nice values (Linux: /proc), without those that ended meanwhile. */
function threadNices(): Map<string, number> {
  const nices = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // Fields after the command name: state is the 3rd of stat(5), nice the 19th.
      nices.set(tid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return nices;
}

/** The threads of this process at nice 19: the exports' (nothing else here lowers its priority). */
const exportThreads = () => [...threadNices()].filter(([, nice]) => nice === 19).map(([tid]) => tid);

/** The records of an export: its lines that start with an application's id (an answer may hold a CRLF). */
const records = (csv: string) => csv.split('\r\n').filter((line) => /^[0-9a-f-]{36},/.test(line)).length;

/** Polls `check` every 20 ms until it holds, for up to 10 s. */
async function until(check: () => boolean, what: string) {
  await vi.waitFor(
    () => {
      if (!check()) throw new Error(`waited 10 s for ${what}`);
    },
    { timeout: 10_000, interval: 20 },
  );
}

/**
 * Every process's export queue the tests' servers took turns from (`ExportThreads.turn`, spied
 * on), so that a test can wait for an export to be queued or to leave the queue instead of
 * waiting a while and assuming it.
 */
const turns = vi.spyOn(ExportThreads.prototype, 'turn');
/** Exports waiting for their turn, in every server of the file. */
const queued = () => [...new Set(turns.mock.contexts as ExportThreads[])].reduce((sum, threads) => sum + threads.counts.waiting, 0);

const sqliteDatabase = () => sqliteExecDatabase('export-threads-');
const postgresDatabase = postgresExecDatabase;

describe.runIf(process.platform === 'linux').each([
  ['SQLite', sqliteDatabase],
  ['PostgreSQL', postgresDatabase],
])('export threads on %s', (_storeName, createDatabase) => {
  let inbox: FilledInbox;

  beforeAll(async () => {
    inbox = await filledInboxServer({
      database: createDatabase,
      rows: ROWS,
      answerLength: ANSWER_LENGTH,
      seed: async (store, database) => {
        // What the export must write as the main thread's exporter does: formulas, quotes and line
        // breaks in answers, a payload that is no longer readable JSON.
        const hostile = applicantPayload({
          firstName: '=HYPERLINK("http://evil.example","x")',
          lastName: 'Quote "and", comma',
          email: 'hostile@example.com',
          country: 'GB',
          instagram: 'hostile',
          fields: { howFamiliar: '+1+cmd|calc', dreamCampaign: 'Line one\r\nline "two"\rthree\nfour' },
        });
        await store.applications.save({ pageId: 'creators', emailAddress: hostile.personalInfo.emailAddress, payload: hostile });
        const broken = await store.applications.save({
          pageId: 'creators',
          emailAddress: 'broken@example.com',
          payload: applicantPayload({ firstName: 'Broken', lastName: 'Row', email: 'broken@example.com' }),
        });
        await database.exec(`update applications set payload = '{"personalInfo": ' where id = '${broken.id}'`);
      },
      app: { exportLimits: LIMITS },
    });
  }, 180_000);
  afterAll(() => inbox?.close());

  /** A request for an export, over real HTTP with node:http (which reads only as asked). */
  function request(query = '', acceptEncoding = 'identity', address = inbox.address): { request: ClientRequest; response: Promise<IncomingMessage> } {
    let sent!: ClientRequest;
    const response = new Promise<IncomingMessage>((resolve, reject) => {
      sent = get(
        `${address}/api/admin/applications.csv${query}`,
        { agent: false, headers: { cookie: inbox.cookie, 'accept-encoding': acceptEncoding } },
        resolve,
      );
      sent.once('error', reject);
    });
    return { request: sent, response };
  }

  /** Starts an export and reads its first chunk only: the thread then waits for the client. */
  async function held(address = inbox.address) {
    const started = request('', 'identity', address);
    const response = await started.response;
    expect(response.statusCode).toBe(200);
    await new Promise((resolve) => response.once('data', resolve));
    response.pause();
    return { ...started, close: () => started.request.destroy() };
  }

  /** Reads a whole response. */
  async function body(response: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of response as AsyncIterable<Buffer>) chunks.push(chunk);
    if (!response.complete) throw new Error('the export was cut short');
    return Buffer.concat(chunks);
  }

  /** What the main thread's exporter writes for `filter` (as before the export threads). */
  async function inThread(filter: ApplicationFilter): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of applicationsCsv(inbox.store.applications.exportApplications(filter, EXPORT_BATCH_ROWS), answerColumns(defaultConfig())))
      chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  it('writes the bytes the main thread writes, for every filter: BOM, header, CRLF, quoting, formulas neutralised, unreadable rows', async () => {
    for (const [query, filter] of [
      ['', {}],
      ['?status=shortlisted&country=GB', { status: 'shortlisted', country: 'GB' }],
      ['?pageId=creators&platform=instagram&q=hostile', { pageId: 'creators', platform: 'instagram', q: 'hostile' }],
    ] as const) {
      const response = await request(query).response;
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      const bytes = await body(response);
      const expected = await inThread(filter as ApplicationFilter);
      expect(bytes.length, query).toBe(expected.length);
      expect(bytes.equals(expected), query).toBe(true);
    }
    const all = (await inThread({})).toString('utf8');
    expect(all).toContain(`'=HYPERLINK(""http://evil.example"",""x"")`);
    expect(all).toContain('broken@example.com');
    expect(records(all)).toBe(ROWS + 2);
  });

  it("sends gzip compressed by the export's thread to a browser, and the plain bytes to a client that accepts no gzip", async () => {
    // A tenth of the rows (about 1.6 MB of CSV, many chunks): the same thread and writer, less to read.
    const expected = await inThread({ status: 'shortlisted' });
    // What Chromium sends.
    const compressed = await request('?status=shortlisted', 'gzip, deflate, br, zstd').response;
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(compressed.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(await body(compressed)).equals(expected)).toBe(true);
    expect(records(expected.toString('utf8'))).toBe(ROWS / 10);
    for (const acceptEncoding of ['br', 'gzip;q=0, br', 'gzip;q=0, *', '*', 'identity']) {
      const plain = await request('?status=shortlisted', acceptEncoding).response;
      expect(plain.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect((await body(plain)).equals(expected), acceptEncoding).toBe(true);
    }
    await until(() => exportThreads().length === 0, 'the export threads to end');
  });

  it('runs in a thread of its own at nice 19 (Linux: that thread only), and a client that goes away ends it', async () => {
    const mainNice = threadNices().get(String(process.pid));
    expect(exportThreads()).toEqual([]);
    const exporting = await held();
    await until(() => exportThreads().length === 1, 'the export thread at nice 19');
    // The main thread keeps its priority: setpriority(2) applied to the export's thread only.
    expect(threadNices().get(String(process.pid))).toBe(mainNice);
    // Held by its client, the thread waits, it does not buffer the export: a whole export of the
    // same rows, started after it and run beside it, ends while it is still there.
    const [heldThread] = exportThreads();
    const whole = await request().response;
    expect(records((await body(whole)).toString('utf8'))).toBe(ROWS + 2);
    await until(() => exportThreads().every((tid) => tid === heldThread), "the whole export's thread to end");
    expect(exportThreads()).toEqual([heldThread]);
    exporting.close();
    await until(() => exportThreads().length === 0, 'the export thread to end');
    expect((await fetch(`${inbox.address}/healthz`)).status).toBe(200);
  });

  it('runs at most two exports at a time: a third waits its turn, a fourth gets 503 with Retry-After', async () => {
    const first = await held();
    const second = await held();
    await until(() => exportThreads().length === 2, 'two export threads');
    const third = request();
    let thirdAnswered = false;
    void third.response.then(() => (thirdAnswered = true));
    // The third waits (no thread, no answer) while the first two run.
    await until(() => queued() === 1, 'the third export to wait its turn');
    expect(thirdAnswered).toBe(false);
    expect(exportThreads()).toHaveLength(2);
    const fourth = await fetch(`${inbox.address}/api/admin/applications.csv`, { headers: { cookie: inbox.cookie } });
    expect(fourth.status).toBe(503);
    expect(fourth.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await fourth.json()).toMatchObject({ status: 503 });
    // A turn frees when an export ends: the third runs, whole.
    first.close();
    const response = await third.response;
    expect(response.statusCode).toBe(200);
    expect(records((await body(response)).toString('utf8'))).toBe(ROWS + 2);
    second.close();
    await until(() => exportThreads().length === 0, 'every export thread to end');
    // A waiting export whose client goes away leaves the queue: it takes no turn.
    const again = [await held(), await held()];
    const leaving = request();
    await until(() => queued() === 1, 'the leaving export to wait its turn');
    leaving.request.destroy();
    leaving.response.catch(() => undefined);
    await until(() => queued() === 0, 'the leaving export to leave the queue');
    for (const exporting of again) exporting.close();
    await until(() => exportThreads().length === 0, 'every export thread to end');
    const last = await request('?status=shortlisted').response;
    expect(last.statusCode).toBe(200);
    await body(last);
  });

  it("answers HEAD with the export's headers and runs no export", async () => {
    await until(() => exportThreads().length === 0, 'no export thread');
    const response = await fetch(`${inbox.address}/api/admin/applications.csv`, {
      method: 'HEAD',
      headers: { cookie: inbox.cookie, 'accept-encoding': 'gzip' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="applications-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(await response.text()).toBe('');
    expect(exportThreads()).toEqual([]);
  });

  it('cuts short an export whose client stops reading, and gives its turn to the next; an export that waits its longest gets 503', async () => {
    const stalling = await buildApp({
      config: defaultConfig(),
      store: inbox.store,
      distDir: inbox.distDir,
      secret: TEST_SECRET,
      exportLimits: { running: 1, waitMs: 300, stallMs: 1_000 },
    });
    try {
      const address = await stalling.listen({ port: 0, host: '127.0.0.1' });
      const stalled = await held(address);
      // Waiting its turn behind the stalled export, longer than waitMs: told so, not left waiting.
      const waited = await fetch(`${address}/api/admin/applications.csv`, { headers: { cookie: inbox.cookie } });
      expect(waited.status).toBe(503);
      expect(waited.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(waited.headers.get('retry-after')).toBeTruthy();
      expect(waited.headers.get('content-disposition')).toBeNull();
      // Past stallMs the stalled export is cut, and the next export runs whole.
      await until(() => exportThreads().length === 0, 'the stalled export ended');
      stalled.close();
      const next = await request('?status=shortlisted', 'identity', address).response;
      expect(next.statusCode).toBe(200);
      expect(records((await body(next)).toString('utf8'))).toBeGreaterThan(0);
    } finally {
      await stalling.close();
    }
  });

  it('runs the next export on the thread that finished the last one, and ends that thread when the server closes', async () => {
    await until(() => exportThreads().length === 0, 'no export thread');
    const warm = await buildApp({ config: defaultConfig(), store: inbox.store, distDir: inbox.distDir, secret: TEST_SECRET, exportLimits: { running: 1 } });
    try {
      const warmAddress = await warm.listen({ port: 0, host: '127.0.0.1' });
      const exportOnce = async () => {
        const response = await fetch(`${warmAddress}/api/admin/applications.csv?status=shortlisted`, { headers: { cookie: inbox.cookie } });
        expect(response.status).toBe(200);
        return records(await response.text());
      };
      expect(await exportOnce()).toBe(ROWS / 10);
      // The thread stays, idle, for the next export.
      await until(() => exportThreads().length === 1, 'the idle export thread');
      const [thread] = exportThreads();
      expect(await exportOnce()).toBe(ROWS / 10);
      expect(exportThreads()).toEqual([thread]);
    } finally {
      await warm.close();
    }
    await until(() => exportThreads().length === 0, 'the idle thread to end with its server');
  });

  it('cuts the response short when the thread cannot read the store (compressed: a plain error page)', async () => {
    await inbox.database.exec('alter table applications rename to applications_away');
    try {
      const response = await request().response;
      // The head went out before the thread found no table: the response is cut short.
      expect(response.statusCode).toBe(200);
      await expect(body(response)).rejects.toThrow();
      // Compressed, nothing goes out before the first rows: the failure is an error page, in
      // plain problem+json, neither labelled gzip nor offered as a file.
      const compressed = await request('', 'gzip').response;
      expect(compressed.statusCode).toBe(500);
      expect(compressed.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(compressed.headers['content-encoding']).toBeUndefined();
      expect(compressed.headers['content-disposition']).toBeUndefined();
      expect(JSON.parse((await body(compressed)).toString('utf8'))).toMatchObject({ status: 500 });
    } finally {
      await inbox.database.exec('alter table applications_away rename to applications');
    }
    await until(() => exportThreads().length === 0, 'the export thread to end');
  });
});
