import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresExecDatabase, sqliteExecDatabase } from '../../../tests/support/databases';
import { filledInboxServer, type FilledInbox } from '../../../tests/support/test-app';

// An export of many applications streams in batches that leave the event loop to the
// other requests, over real HTTP, on both stores.

/**
 * Some 9.6 MB of CSV (each row's free-text answer 3 000 characters long), fifteen batches: more
 * than the socket's buffers hold, so the export is still streaming when a test acts.
 */
const ROWS = 3_000;
/** The length of each row's free-text answer, in characters. */
const ANSWER_LENGTH = 3_000;

const sqliteDatabase = () => sqliteExecDatabase('export-');
const postgresDatabase = postgresExecDatabase;

describe.each([
  ['SQLite', sqliteDatabase],
  ['PostgreSQL', postgresDatabase],
])('export on %s', (storeName, createDatabase) => {
  let inbox: FilledInbox;

  beforeAll(async () => {
    inbox = await filledInboxServer({ database: createDatabase, rows: ROWS, answerLength: ANSWER_LENGTH });
  }, 180_000);
  afterAll(() => inbox?.close());

  /** Starts an export over real HTTP; resolves once its first chunk is in. */
  async function startExport() {
    const response = await fetch(`${inbox.address}/api/admin/applications.csv`, { headers: { cookie: inbox.cookie, 'accept-encoding': 'identity' } });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    /** Reads the rest; resolves with the whole text, or rejects when the response was cut short. */
    const rest = async () => {
      const chunks: Uint8Array[] = [first.value!];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return Buffer.concat(chunks).toString('utf8');
        chunks.push(value);
      }
    };
    return { reader, rest };
  }

  it(`answers /healthz while an export of ${ROWS} applications is still streaming`, async () => {
    const { rest } = await startExport();
    const events: string[] = [];
    const health = fetch(`${inbox.address}/healthz`).then(async (response) => {
      events.push('health');
      return response.status;
    });
    const csv = rest().then((text) => {
      events.push('export');
      return text;
    });
    const [status, text] = await Promise.all([health, csv]);
    expect(status).toBe(200);
    expect(events).toEqual(['health', 'export']);
    // Every application once, newest first, after the header.
    const lines = text.split('\r\n').filter((line) => line !== '');
    expect(lines).toHaveLength(ROWS + 1);
    expect(new Set(lines.map((line) => line.split(',')[0])).size).toBe(ROWS + 1);
    const received = lines.slice(1).map((line) => line.split(',')[2]!);
    expect(received).toEqual([...received].sort().reverse());
  });

  it.runIf(storeName === 'SQLite')('holds no read open while it waits for its client: a checkpoint can truncate the log mid-export', async () => {
    const { reader } = await startExport();
    // Written after the export began: a read kept open since then would keep the checkpoint busy.
    await inbox.store.applications.save({
      pageId: 'creators',
      emailAddress: 'late@example.com',
      payload: { personalInfo: { emailAddress: 'late@example.com' } },
    });
    const db = new Database(inbox.database.url.slice('sqlite:'.length));
    try {
      db.pragma('busy_timeout = 0');
      // The export's thread may still be reading the page it sends next (a read of a few ms, on a
      // thread of its own since decision 014); once it waits for the client, it holds none.
      await expect.poll(() => db.pragma('wal_checkpoint(TRUNCATE)'), { timeout: 5000, interval: 20 }).toEqual([expect.objectContaining({ busy: 0 })]);
    } finally {
      db.close();
      await reader.cancel();
    }
  });

  it('cuts the response short, and serves on, when the store fails mid-export', async () => {
    const { rest } = await startExport();
    await inbox.database.exec('alter table applications rename to applications_away');
    try {
      await expect(rest()).rejects.toThrow();
    } finally {
      await inbox.database.exec('alter table applications_away rename to applications');
    }
    expect((await fetch(`${inbox.address}/healthz`)).status).toBe(200);
    const again = await fetch(`${inbox.address}/api/admin/applications.csv?status=shortlisted`, { headers: { cookie: inbox.cookie } });
    expect(again.status).toBe(200);
    expect((await again.text()).split('\r\n').filter((line) => line !== '')).toHaveLength(ROWS / 10 + 1);
  });
});
