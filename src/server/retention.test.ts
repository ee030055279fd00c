import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../tests/support/databases';
import { EDITOR, LOOPBACK, VIEWER, deliveringApp, submitApplication } from '../../tests/support/delivering-app';
import { inboxSession } from '../../tests/support/test-app';
import type { ApplicationDetail } from '../shared/admin';
import { addMonths } from '../shared/retention';
import Fastify from 'fastify';
import type { Store } from './store/store';
import { RETENTION_ACTOR, RetentionSweeper, pageRetention } from './retention';
import { progressWhenServed, synchronousWork } from '../../tests/support/synchronous-work';

/** A clock the test moves: ms since the epoch. */
function movableClock(start: string) {
  let now = Date.parse(start);
  return { clock: () => now, set: (iso: string) => (now = Date.parse(iso)) };
}

describe('addMonths', () => {
  it('counts calendar months in UTC, a day past the month end its last day', () => {
    expect(addMonths('2026-01-31T10:00:00.000Z', 1)).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonths('2028-01-31T10:00:00.000Z', 1)).toBe('2028-02-29T10:00:00.000Z');
    expect(addMonths('2026-11-29T23:30:00.000Z', 6)).toBe('2027-05-29T23:30:00.000Z');
    expect(addMonths('2026-03-31T00:00:00.000Z', -1)).toBe('2026-02-28T00:00:00.000Z');
    expect(addMonths('2026-12-15T12:00:00.000Z', 24)).toBe('2028-12-15T12:00:00.000Z');
  });
});

describe('a page’s retention', () => {
  const stored = (config: unknown) => ({
    versionRange: async (id?: string) => new Map([[id ?? 'camp', { last: 3, served: 2 }]]),
    version: async (_id: string, version: number) => (version === 2 ? JSON.stringify(config) : undefined),
  });
  it('is the one its served version was published with, whether or not this process serves the page', async () => {
    // No default page of that id, no registry: what was published decides, never the defaults.
    expect(await pageRetention(() => undefined, stored({ retention: { declinedMonths: 120, otherMonths: 120 } }), 'camp')).toEqual({
      declinedMonths: 120,
      otherMonths: 120,
    });
    expect(await pageRetention(() => undefined, stored({ retention: { declinedMonths: 1 } }), 'camp')).toEqual({ declinedMonths: 1, otherMonths: 24 });
    expect(await pageRetention(() => undefined, stored({}), 'camp')).toEqual({ declinedMonths: 6, otherMonths: 24 });
    // A page with no version at all (deleted, or a default page renamed): the defaults.
    expect(await pageRetention(() => undefined, { versionRange: async () => new Map(), version: async () => undefined }, 'gone')).toEqual({
      declinedMonths: 6,
      otherMonths: 24,
    });
  });
});

describe('a retention round', () => {
  it('serves the process between two erasures, even when each settles without I/O (as a SQLite transaction does)', async () => {
    const EXPIRED = 50;
    let erased = 0;
    const store = {
      applications: {
        pageIdsWithApplications: async () => ['camp'],
        expired: async () => Array.from({ length: EXPIRED }, (_, i) => `id-${i}`),
        eraseApplication: async () => {
          synchronousWork(0.1);
          return (erased += 1) > 0;
        },
      },
      guardians: { expired: async () => [] },
      resumeDrafts: { expired: async () => [], forgetSends: async () => undefined },
    } as unknown as Store;
    const sweeper = new RetentionSweeper({ store, retentionOf: async () => ({ declinedMonths: 6, otherMonths: 24 }), log: Fastify({ logger: false }).log });
    const erasedWhenServed = progressWhenServed(() => erased);
    expect(await sweeper.sweep()).toBe(EXPIRED);
    expect(erasedWhenServed()).toBeGreaterThanOrEqual(0);
    expect(erasedWhenServed()).toBeLessThan(EXPIRED);
  });
});

describe.each([
  ['SQLite', () => sqliteExecDatabase('retention-')],
  ['PostgreSQL', postgresExecDatabase],
])('retention on %s: what a page keeps no longer is erased, audited', (_name, createDatabase) => {
  let database: ExecDatabase;
  const time = movableClock('2026-01-31T09:00:00.000Z');
  let harness: Awaited<ReturnType<typeof deliveringApp>>;

  beforeAll(async () => {
    database = await createDatabase();
    harness = await deliveringApp(database.url, {
      clock: time.clock,
      webhooks: { deliver: false, allowNetworks: LOOPBACK },
      retention: { sweep: true, pollMs: 20 },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await database?.drop();
  });
  // Signed in again at each time the clock is set to (a session lasts hours, not months).
  const signedIn = async (user: typeof EDITOR) => {
    const session = await inboxSession(harness.app, user);
    return { cookie: session.cookie, 'x-xsrf-token': session.xsrf };
  };
  /** Application `id` as `user` reads it. */
  const get = async (id: string, user = VIEWER) => harness.app.inject({ method: 'GET', url: `/api/admin/applications/${id}`, headers: await signedIn(user) });

  it('erases a declined application 6 months after its decision and any other 24 months after it arrived, and says when on each', async () => {
    const { app } = harness;
    const kept = await submitApplication(app);
    const declined = await submitApplication(app);
    // Decided a month later.
    time.set('2026-02-28T12:00:00.000Z');
    const decided = await app.inject({
      method: 'PATCH',
      url: `/api/admin/applications/${declined}`,
      headers: await signedIn(EDITOR),
      payload: { status: 'declined' },
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expect((await get(kept)).json<ApplicationDetail>().erasesAt).toBe('2028-01-31T09:00:00.000Z');
    expect((await get(declined)).json<ApplicationDetail>().erasesAt).toBe('2026-08-28T12:00:00.000Z');

    // A minute before its time: kept (the sweep runs every 20 ms here).
    time.set('2026-08-28T11:59:00.000Z');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await get(declined)).statusCode).toBe(200);
    time.set('2026-08-28T12:00:00.000Z');
    await expect.poll(async () => (await get(declined)).statusCode).toBe(404);
    expect((await get(kept)).statusCode).toBe(200);
    // The history says who erased it: the policy, at its time; nothing the applicant wrote.
    expect((await harness.store.audit.of(declined)).at(-1)).toEqual({ at: '2026-08-28T12:00:00.000Z', actor: RETENTION_ACTOR, action: 'erased' });

    time.set('2028-01-31T09:00:00.000Z');
    await expect.poll(async () => (await get(kept)).statusCode).toBe(404);
  });

  it('asks before publishing a shorter retention, saying how many applications it would erase, and erases them only on a yes', async () => {
    const { app } = harness;
    time.set('2030-01-01T10:00:00.000Z');
    const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({ method, url: `/api/admin${url}`, headers: await signedIn(EDITOR), ...(payload ? { payload } : {}) });
    expect((await call('POST', '/pages', { id: 'camp', from: 'default' })).statusCode).toBe(201);
    const page = (await call('GET', '/pages/camp')).json<{ revision: number; draft: Record<string, unknown> }>();
    expect((await call('POST', '/pages/camp/publish', { revision: page.revision })).statusCode).toBe(201);
    const id = await submitApplication(app, {}, 'camp');

    time.set('2030-03-01T10:00:00.000Z');
    const saved = await call('PUT', '/pages/camp/draft', { config: { ...page.draft, retention: { otherMonths: 1 } }, revision: page.revision });
    expect(saved.statusCode, saved.body).toBe(200);
    const revision = saved.json<{ revision: number }>().revision;
    const refused = await call('POST', '/pages/camp/publish', { revision });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json<{ erases: number; errors: { path: string }[] }>()).toMatchObject({ erases: 1, errors: [{ path: 'retention' }] });
    expect((await get(id, EDITOR)).statusCode).toBe(200);
    // Said yes to: published, and the sweep erases it.
    expect((await call('POST', '/pages/camp/publish', { revision, eraseExpired: true })).statusCode).toBe(201);
    await expect.poll(async () => (await get(id, EDITOR)).statusCode).toBe(404);

    // Longer again (version 3: the defaults) asks nothing; serving version 2 again asks as publishing did.
    const current = (await call('GET', '/pages/camp')).json<{ revision: number; draft: Record<string, unknown> }>();
    const longer = Object.fromEntries(Object.entries(current.draft).filter(([key]) => key !== 'retention'));
    const savedLonger = await call('PUT', '/pages/camp/draft', { config: longer, revision: current.revision });
    expect((await call('POST', '/pages/camp/publish', { revision: savedLonger.json<{ revision: number }>().revision })).statusCode).toBe(201);
    const laterId = await submitApplication(app, {}, 'camp');
    time.set('2030-05-01T10:00:00.000Z');
    const rollback = await call('POST', '/pages/camp/versions/2/publish', {});
    expect(rollback.statusCode, rollback.body).toBe(409);
    expect(rollback.json<{ erases: number }>().erases).toBe(1);
    expect((await call('POST', '/pages/camp/versions/2/publish', { eraseExpired: true })).statusCode).toBe(200);
    await expect.poll(async () => (await get(laterId, EDITOR)).statusCode).toBe(404);
  });
});
