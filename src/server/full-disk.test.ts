import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultConfig, validPayload } from '../../tests/factories/application';
import { postgresExecDatabase, type ExecDatabase } from '../../tests/support/databases';
import { mountSmallDisk, type SmallDisk } from '../../tests/support/small-disk';
import { inboxSessionCookie, testDist, type TestDist } from '../../tests/support/test-app';
import { TEST_SECRET, xsrfPair } from '../../tests/support/xsrf';
import { buildApp } from './app';
import { SESSION_NOT_STORED } from './routes/admin/session';
import { FAIL_FAST_MS } from './store/group-commit';
import type { Database as Tables } from './store/schema';
import { openDurableDatabase } from './store/sqlite-file';
import { openStore, type Store } from './store/store';
import { WriteReadiness } from './store/write-readiness';
import { createTestUser } from '../../tests/support/users';

/**
 * A full disk, as the operator lives it (docs/decisions/008): submissions are refused (503, nothing
 * lost), and then readiness must say so, the inbox must still be read and exported by a team
 * member whose session is due for renewal, and signing in must go on with its limits holding.
 * Then the space comes back and everything recovers by itself.
 */

/** A store's database with a fault that can be switched on and off. */
interface FaultyDatabase {
  url: string;
  /** Runs SQL on a connection of the test's own. */
  query: <Row>(statement: string) => Promise<Row[]>;
  /** From now on every write of the store fails as on a full disk. */
  fill(): Promise<void>;
  /** The space is back. */
  free(): Promise<void>;
  drop(): Promise<void>;
}

/**
 * SQLite on a tmpfs of its own, filled to the last byte: the writer thread, the inbox's connection
 * and the readers meet the kernel's ENOSPC as SQLite's SQLITE_FULL. Before filling, the `-wal` is
 * cut to 0 bytes: SQLite writes its log over from the start after each checkpoint and keeps the
 * file's size, so a disk that filled while the log had room takes writes until that room is used;
 * cut first, the first write already needs new room.
 */
function sqliteOnSmallDisk(disk: SmallDisk): FaultyDatabase {
  const file = join(disk.dir, 'applications.db');
  return {
    url: `sqlite:${file}`,
    query: async <Row>(statement: string) => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare(statement).all() as Row[];
      } finally {
        db.close();
      }
    },
    fill: async () => {
      const db = new Database(file);
      try {
        expect(db.pragma('wal_checkpoint(TRUNCATE)')).toMatchObject([{ busy: 0 }]);
      } finally {
        db.close();
      }
      disk.fill();
    },
    free: async () => disk.free(),
    // The disk itself is unmounted once the whole file has run (below), its tests run or not.
    drop: async () => undefined,
  };
}

/** The tables whose writes the PostgreSQL fault refuses: those the submit, readiness, sessions and sign-in write. */
const REFUSING_TABLES = ['applications', 'store_probe', 'admin_sessions', 'sign_in_failures'];

/**
 * PostgreSQL refusing writes as it does on a full disk: SQLSTATE 53100 (disk_full), raised by
 * statement triggers on the tables the store writes here, through the real driver.
 */
function postgresRefusingWrites(database: ExecDatabase): FaultyDatabase {
  return {
    url: database.url,
    query: database.query,
    fill: async () => {
      await database.exec(`create or replace function refuse_write() returns trigger language plpgsql as $$
        begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$`);
      for (const table of REFUSING_TABLES) {
        await database.exec(`create trigger full_disk before insert or update or delete on ${table} for each statement execute function refuse_write()`);
      }
    },
    free: async () => {
      for (const table of REFUSING_TABLES) await database.exec(`drop trigger full_disk on ${table}`);
    },
    drop: database.drop,
  };
}

const disk = mountSmallDisk(16 * 1024 * 1024);
if (!disk) console.warn('full-disk.test.ts: this process may not mount a tmpfs (needs root, as CI runs): the SQLite full-disk tests are skipped');
afterAll(() => disk?.remove());

const ANA = { email: 'ana@brand.example', password: 'ana password 123' };
const BO = { email: 'bo@brand.example', password: 'bo password 1234' };
/** Failed sign-ins allowed per account in these tests. */
const PER_ACCOUNT = 3;

describe.each([
  { name: 'SQLite (a tmpfs filled to the last byte)', skip: !disk, open: async () => sqliteOnSmallDisk(disk!) },
  { name: 'PostgreSQL (disk_full on every write)', skip: false, open: async () => postgresRefusingWrites(await postgresExecDatabase()) },
])('a full disk on $name', ({ skip, open }) => {
  let database: FaultyDatabase;
  let store: Store;
  let dist: TestDist;
  let app: FastifyInstance;
  /** The app's clock: sessions and sign-in windows. */
  let now = Date.parse('2026-11-28T09:00:00.000Z');
  /** Every warning the app logs. */
  const warnings: { msg: string; err?: { code?: string } }[] = [];
  /** Ana's session, signed in before the disk filled. */
  let cookie: string;
  const xsrf = xsrfPair();

  const submit = () =>
    app.inject({
      method: 'PUT',
      url: '/api/syncPage/creators',
      headers: { ...xsrf.headers, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      payload: JSON.stringify(validPayload()),
    });
  const signIn = (user: { email: string; password: string }) => app.inject({ method: 'POST', url: '/api/admin/session', payload: user });
  const sessionExpiry = async () =>
    (await database.query<{ expires_at: string }>('select expires_at from admin_sessions order by created_at limit 1'))[0]!.expires_at;

  beforeAll(async () => {
    if (skip) return;
    database = await open();
    dist = testDist('full-disk-dist-', { admin: true });
    store = await openStore(database.url, { sqliteWriterThread: true });
    await createTestUser(store, ANA, 'editor');
    await createTestUser(store, BO, 'viewer');
    app = await buildApp({
      config: defaultConfig(),
      store,
      distDir: dist.distDir,
      secret: TEST_SECRET,
      rateLimitPerMinute: 10_000,
      signInLimits: { perAccount: PER_ACCOUNT },
      clock: () => now,
      logger: { level: 'warn', stream: { write: (line: string) => void warnings.push(JSON.parse(line) as (typeof warnings)[number]) } },
    });
    cookie = await inboxSessionCookie(app, ANA);
    expect((await submit()).statusCode).toBe(201);
  });
  afterAll(async () => {
    if (skip) return;
    await app?.close();
    await store?.close();
    await database?.drop();
    dist?.remove();
  });

  it.skipIf(skip)('readiness says ok and writes nothing while the store takes applications', async () => {
    expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ok' });
    expect(await database.query('select * from store_probe')).toEqual([]);
  });

  it.skipIf(skip)('refuses submissions (503, Retry-After) and then readiness is a 503 problem that says why', async () => {
    await database.fill();
    const refused = await submit();
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.json()).toMatchObject({ status: 503, detail: expect.stringContaining('cannot take new applications') });
    expect(JSON.stringify(ready.json())).not.toMatch(/SQLITE|53100|No space/);
    // Asked again, the probe write fails again: still not ready.
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    expect(warnings.filter((line) => line.msg === 'not ready: the store refuses writes').length).toBeGreaterThanOrEqual(2);
  });

  it.skipIf(skip)('reads and exports the inbox with a session whose renewal cannot be written; it keeps its stored expiry', async () => {
    const expiry = await sessionExpiry();
    now += 5 * 60_000;
    const list = await app.inject({ method: 'GET', url: '/api/admin/applications', headers: { cookie } });
    expect(list.statusCode).toBe(200);
    expect(list.json<{ items: unknown[] }>().items).toHaveLength(1);
    const csv = await app.inject({ method: 'GET', url: '/api/admin/applications.csv', headers: { cookie } });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n').filter(Boolean)).toHaveLength(2);
    expect(warnings.filter((line) => line.msg.startsWith('session renewal not written')).length).toBeGreaterThanOrEqual(2);
    expect(await sessionExpiry()).toBe(expiry);
  });

  it.skipIf(skip)(
    'signs in: wrong passwords are 401 and counted in memory, the limit holds, and a session that cannot be stored is a 503 that says so',
    async () => {
      for (let attempt = 1; attempt <= PER_ACCOUNT; attempt++) {
        const wrong = await signIn({ ...ANA, password: 'not the password' });
        expect(wrong.statusCode).toBe(401);
      }
      expect(warnings.filter((line) => line.msg.startsWith('sign-in attempt counted in memory')).length).toBe(PER_ACCOUNT);
      // Past the limit even the right password is refused, as with the counts stored.
      const limited = await signIn(ANA);
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Another account's right password: the session cannot be stored, and the answer says so.
      const unstored = await signIn(BO);
      expect(unstored.statusCode).toBe(503);
      expect(unstored.headers['retry-after']).toBe('5');
      expect(unstored.json()).toMatchObject({ status: 503, detail: SESSION_NOT_STORED });
      expect(unstored.cookies.find((c) => c.name === 'admin_session')).toBeUndefined();
    },
  );

  it.skipIf(skip)('lets no more simultaneous guesses reach the password check than the limit, counted in memory', async () => {
    const attempt = (index: number) => signIn({ email: 'guessed@brand.example', password: `wrong guess ${index}` });
    const statuses = (await Promise.all(Array.from({ length: 12 }, (_, index) => attempt(index)))).map((response) => response.statusCode);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
    // Checked in the volley and after it, one at a time, until refused: never more than the limit.
    let checked = statuses.filter((status) => status === 401).length;
    for (let more = 12; checked <= PER_ACCOUNT; more++) {
      const status = (await attempt(more)).statusCode;
      if (status === 429) break;
      expect(status).toBe(401);
      checked += 1;
    }
    expect(checked).toBeLessThanOrEqual(PER_ACCOUNT);
  });

  it.skipIf(skip)('recovers by itself once the space is back: readiness, submissions, sign-in, the held attempts and the renewal written', async () => {
    await database.free();
    expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ok' });
    expect(await database.query('select id from store_probe')).toEqual([{ id: 1 }]);
    // Submissions are refused at once for FAIL_FAST_MS after the store refused one (decision 008): wait for the first taken.
    await vi.waitFor(async () => expect((await submit()).statusCode).toBe(201), { timeout: 3 * FAIL_FAST_MS, interval: 100 });
    expect((await signIn(BO)).statusCode).toBe(204);
    // Ana's failures held in memory were written with Bo's attempt (the 429 was taken back).
    const stored = await database.query<{ n: number | string }>(`select count(*) as n from sign_in_failures where key = 'account:${ANA.email}'`);
    expect(Number(stored[0]!.n)).toBe(PER_ACCOUNT);
    expect((await signIn(ANA)).statusCode).toBe(429);
    // The renewal that could not be written is written by the next request.
    const expiry = await sessionExpiry();
    expect((await app.inject({ method: 'GET', url: '/api/admin/session', headers: { cookie } })).statusCode).toBe(200);
    expect(Date.parse(await sessionExpiry())).toBeGreaterThan(Date.parse(expiry));
  });
});

describe('a sign-in attempt the store took but cannot take back (PostgreSQL refusing deletions)', () => {
  let database: ExecDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await postgresExecDatabase();
    store = await openStore(database.url);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('stops counting it at once and deletes it when the store takes writes again', async () => {
    const keys = ['account:cy@brand.example', 'address:10.0.0.9'];
    const since = '2026-11-28T08:45:00.000Z';
    const first = await store.users.countSignInAttempt(keys, '2026-11-28T09:00:00.000Z', since);
    expect(first.held).toBe(false);
    // The disk fills between the attempt's count and its password check (as seen on a real full disk).
    await database.exec(`create function refuse_delete() returns trigger language plpgsql as $$
      begin raise exception 'could not write: No space left on device' using errcode = 'disk_full'; end $$;
      create trigger full_disk before delete on sign_in_failures for each statement execute function refuse_delete()`);
    await expect(store.users.forgetSignInAttempt(first.attemptId)).resolves.toBeUndefined();
    const second = await store.users.countSignInAttempt(keys, '2026-11-28T09:01:00.000Z', since);
    expect(second.counts.get(keys[0]!)).toEqual({ count: 1, oldest: '2026-11-28T09:01:00.000Z' });
    await database.exec('drop trigger full_disk on sign_in_failures');
    await store.users.countSignInAttempt(keys, '2026-11-28T09:02:00.000Z', since);
    const rows = await database.query<{ attempt_id: string }>(`select attempt_id from sign_in_failures where key = '${keys[0]}'`);
    expect(rows.map((row) => row.attempt_id)).not.toContain(first.attemptId);
    expect(rows).toHaveLength(2);
  });
});

describe("readiness's probe on SQLite", () => {
  let dir: string;
  let store: Store;
  let db: Kysely<Tables>;
  let log: Database.Database;
  const file = () => join(dir, 'applications.db');
  /** Pages written since the last call, counted as frames of the `-wal` (cut to 0 bytes before each). */
  const pagesWritten = async (write: () => Promise<unknown>) => {
    expect(log.pragma('wal_checkpoint(TRUNCATE)')).toMatchObject([{ busy: 0 }]);
    await write();
    const bytes = statSync(`${file()}-wal`).size;
    return (bytes - 32) / (4096 + 24);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'probe-size-'));
    store = await openStore(`sqlite:${file()}`, { sqliteWriterThread: false });
    db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: openDurableDatabase(file()) }) });
    log = new Database(file());
  });
  afterAll(async () => {
    log?.close();
    await db?.destroy();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes about as many pages as a submission, so it does not pass in room a submission would not find', async () => {
    const save = (index: number) => {
      const payload = validPayload();
      payload.personalInfo = { ...payload.personalInfo, emailAddress: `ada${index}@example.com` };
      return store.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload });
    };
    for (let index = 0; index < 50; index++) await save(index);
    const submission = Math.min(...[await pagesWritten(() => save(50)), await pagesWritten(() => save(51)), await pagesWritten(() => save(52))]);
    const readiness = new WriteReadiness(db, Date.now);
    const refused = readiness.observe(() => Promise.reject(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })));
    await expect(refused([], [])).rejects.toThrow('full');
    // The first probe inserts the row, the next ones replace it: the replacement is what repeats.
    expect(await readiness.canTakeApplications()).toEqual({ ready: true });
    await expect(refused([], [])).rejects.toThrow('full');
    const probe = await pagesWritten(() => readiness.canTakeApplications());
    expect(submission).toBeGreaterThan(10);
    expect(probe).toBeGreaterThanOrEqual(submission);
  });
});
