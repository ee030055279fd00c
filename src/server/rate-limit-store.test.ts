import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultConfig, validPayload } from '../../tests/factories/application';
import { createTestDatabase } from '../../tests/support/postgres';
import { testDist, type TestDist } from '../../tests/support/test-app';
import { TEST_SECRET, xsrfPair } from '../../tests/support/xsrf';
import { buildApp } from './app';
import { openStore, type Store } from './store/store';
import { createTestUser } from '../../tests/support/users';

// Decision 006: on PostgreSQL the per-IP limits are counted in the database, so several server
// processes (here: two apps, each with its own store and pool, as two processes have) share them.

let dist: TestDist;
const headers = { ...xsrfPair().headers, 'content-type': 'application/json' };
type App = Awaited<ReturnType<typeof buildApp>>;

beforeAll(() => {
  dist = testDist('rate-limits-');
});
afterAll(() => dist.remove());

describe('rate limits shared through PostgreSQL', () => {
  let database: { url: string; drop: () => Promise<void> };
  let stores: Store[];
  let apps: App[];

  beforeAll(async () => {
    database = await createTestDatabase();
    stores = [await openStore(database.url), await openStore(database.url)];
    apps = await Promise.all(
      stores.map((store) =>
        buildApp({
          config: defaultConfig(),
          store,
          distDir: dist.distDir,
          rateLimitPerMinute: 3,
          signInLimits: { perAccount: 100, perAddress: 1 },
          secret: TEST_SECRET,
        }),
      ),
    );
  });
  /**
   * Ends `key`'s window now. Windows run on the database's clock (`now()`, shared by every
   * process), so a test moves the window's end into the past rather than waiting for it.
   */
  async function endWindow(key: string) {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(`update rate_limits set reset_at = now() - interval '1 millisecond' where key = $1`, [key]);
    } finally {
      await client.end();
    }
  }

  afterAll(async () => {
    await Promise.all((apps ?? []).map((app) => app.close()));
    await Promise.all((stores ?? []).map((store) => store.close()));
    await database?.drop();
  });

  it('counts in fixed windows, atomically under concurrent hits from two stores', async () => {
    const [a, b] = stores.map((store) => store.rateLimits!) as [NonNullable<Store['rateLimits']>, NonNullable<Store['rateLimits']>];
    const first = await a.hit('window', 60_000);
    expect(first.count).toBe(1);
    expect(first.ttlMs).toBeGreaterThan(0);
    expect(first.ttlMs).toBeLessThanOrEqual(60_000);
    expect((await b.hit('window', 60_000)).count).toBe(2);
    await endWindow('window');
    expect((await b.hit('window', 60_000)).count).toBe(1);

    const hits = await Promise.all(Array.from({ length: 40 }, (_, index) => (index % 2 ? a : b).hit('concurrent', 60_000)));
    expect(hits.map((hit) => hit.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
  });

  it('deletes the rows of ended windows', async () => {
    await stores[0]!.rateLimits!.hit('ended', 60_000);
    await endWindow('ended');
    // A process sweeps on its first count, then at most once a minute.
    const third = await openStore(database.url);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await third.rateLimits!.hit('live', 60_000);
      // The sweep runs in the background after the count.
      const keys = async () =>
        (await client.query<{ key: string }>(`select key from rate_limits where key in ('ended', 'live') order by key`)).rows.map((row) => row.key);
      await vi.waitFor(async () => expect(await keys()).toEqual(['live']), { timeout: 10_000, interval: 20 });
    } finally {
      await client.end();
      await third.close();
    }
  });

  it('submissions from one IP alternating between two servers: the limit holds for both together', async () => {
    const submit = (app: App) =>
      app.inject({ method: 'PUT', url: '/api/syncPage/creators', headers, payload: JSON.stringify(validPayload()), remoteAddress: '203.0.113.20' });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await submit(apps[i % 2]!)).statusCode);
    expect(statuses).toEqual([201, 201, 201]);
    const refused = await submit(apps[1]!);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await submit(apps[0]!)).statusCode).toBe(429);
    // Another client, and the same client on another route, count on their own.
    expect(
      (await apps[0]!.inject({ method: 'PUT', url: '/api/syncPage/creators', headers, payload: JSON.stringify(validPayload()), remoteAddress: '203.0.113.21' }))
        .statusCode,
    ).toBe(201);
  });

  it('funnel beacons share their limit (four times the submit limit)', async () => {
    const beacon = (app: App) =>
      app.inject({
        method: 'POST',
        url: '/api/funnel/creators',
        headers: { 'content-type': 'application/json' },
        payload: { event: 'submitted' },
        remoteAddress: '203.0.113.20',
      });
    for (let i = 0; i < 12; i++) expect((await beacon(apps[i % 2]!)).statusCode).toBe(204);
    expect((await beacon(apps[0]!)).statusCode).toBe(429);
  });

  it('sign-in requests share their limit (four times the failed sign-ins allowed per IP)', async () => {
    await createTestUser(stores[0]!, { email: 'shared@brand.example', password: 'shared password 1' }, 'editor');
    const signIn = (app: App) =>
      app.inject({
        method: 'POST',
        url: '/api/admin/session',
        payload: { email: 'shared@brand.example', password: 'shared password 1' },
        remoteAddress: '203.0.113.30',
      });
    for (let i = 0; i < 4; i++) expect((await signIn(apps[i % 2]!)).statusCode).toBe(204);
    const refused = await signIn(apps[1]!);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  }, 20_000); // five scrypt hashes
});

describe('the database unreachable', () => {
  it('lets requests through uncounted and logs it once, never a 500', async () => {
    const database = await createTestDatabase();
    const store = await openStore(database.url);
    const lines: { level: number; msg: string }[] = [];
    const app = await buildApp({
      config: defaultConfig(),
      store,
      distDir: dist.distDir,
      rateLimitPerMinute: 1,
      secret: TEST_SECRET,
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) } },
    });
    try {
      const beacon = () =>
        app.inject({
          method: 'POST',
          url: '/api/funnel/creators',
          headers: { 'content-type': 'application/json' },
          payload: { event: 'submitted' },
          remoteAddress: '203.0.113.40',
        });
      expect((await beacon()).statusCode).toBe(204);
      // The database goes away under the running server (its connections are closed).
      const admin = new pg.Client({ connectionString: new URL('/postgres', database.url).toString() });
      await admin.connect();
      await admin.query(`drop database ${new URL(database.url).pathname.slice(1)} with (force)`);
      await admin.end();

      const answers = [await beacon(), await beacon(), await beacon()];
      expect(answers.map((answer) => answer.statusCode)).toEqual([204, 204, 204]);
      const submitted = await app.inject({
        method: 'PUT',
        url: '/api/syncPage/creators',
        headers,
        payload: JSON.stringify(validPayload()),
        remoteAddress: '203.0.113.40',
      });
      expect(submitted.statusCode).toBe(503);
      const logged = lines.filter((line) => line.msg.startsWith('rate limits cannot be counted'));
      expect(logged).toHaveLength(1);
      expect(logged[0]!.level).toBe(50);
      expect(lines.some((line) => line.msg === 'unhandled error')).toBe(false);
    } finally {
      await app.close();
      await store.close();
      await database.drop();
    }
  });
});
