import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validPayload } from '../../../tests/factories/application';
import { toE164 } from '../../shared/phone';
import { createTestDatabase } from '../../../tests/support/postgres';
import { openStore, type Store } from './store';

const sqliteFile = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-'));
  return { url: `sqlite:${join(dir, 'applications.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
};

/**
 * One contract, two stores: a SQLite file (its submissions written by a thread of their own, and
 * on the main thread as on a one-core machine) and the PostgreSQL server on this machine.
 */
describe.each([
  ['SQLite, writer thread', sqliteFile, { sqliteWriterThread: true }],
  ['SQLite, writer on the main thread', sqliteFile, { sqliteWriterThread: false }],
  ['PostgreSQL', createTestDatabase, {}],
])('Store on %s', (_name, createDatabase, options) => {
  let database: { url: string; drop: () => Promise<void> };
  let store: Store;

  beforeAll(async () => {
    database = await createDatabase();
    store = await openStore(database.url, options);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  const application = (overrides: { idempotencyKey?: string; pageId?: string } = {}) => ({
    pageId: 'creators',
    emailAddress: 'Ada@Example.com',
    payload: validPayload(),
    userAgent: 'contract-test',
    ...overrides,
  });

  it('stores an application and reads it back as it was sent', async () => {
    const saved = await store.applications.save(application());
    expect(saved.created).toBe(true);
    expect(await store.applications.findById(saved.id)).toEqual({
      id: saved.id,
      pageId: 'creators',
      idempotencyKey: null,
      email: 'ada@example.com',
      payload: validPayload(),
      receivedAt: saved.receivedAt,
      userAgent: 'contract-test',
      phoneE164: toE164(validPayload().personalInfo.phone!.countryCode, validPayload().personalInfo.phone!.subscriber),
    });
    expect((await store.applications.findById(saved.id))?.phoneE164).toMatch(/^\+\d{8,15}$/);
  });

  it('the same idempotency key on a page stores one row and returns the first id', async () => {
    const key = randomUUID();
    const first = await store.applications.save(application({ idempotencyKey: key }));
    const second = await store.applications.save(application({ idempotencyKey: key }));
    expect(first.created).toBe(true);
    expect(second).toEqual({ id: first.id, receivedAt: first.receivedAt, created: false });
  });

  it('20 concurrent saves with one key make one row', async () => {
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => store.applications.save(application({ idempotencyKey: key }))));
    expect(new Set(results.map((result) => result.id)).size).toBe(1);
    expect(results.filter((result) => result.created)).toHaveLength(1);
  });

  it('100 concurrent saves (one group-commit batch or a few) are each stored and found', async () => {
    const results = await Promise.all(Array.from({ length: 100 }, () => store.applications.save(application())));
    expect(new Set(results.map((result) => result.id)).size).toBe(100);
    const found = await Promise.all(results.map((result) => store.applications.findById(result.id)));
    expect(found.every((row) => row?.email === 'ada@example.com')).toBe(true);
  });

  it('gives each application its own UUID v7 (RFC 9562), past a refill of the random pool', async () => {
    const results = await Promise.all(Array.from({ length: 300 }, () => store.applications.save(application())));
    const ids = results.map((result) => result.id);
    expect(new Set(ids).size).toBe(300);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('the same key on another page is another application', async () => {
    const key = randomUUID();
    const a = await store.applications.save(application({ idempotencyKey: key, pageId: 'a' }));
    const b = await store.applications.save(application({ idempotencyKey: key, pageId: 'b' }));
    expect(a.id).not.toBe(b.id);
  });

  it.runIf(_name.startsWith('SQLite'))('creates its files readable by their owner only', () => {
    const file = database.url.replace(/^sqlite:/, '');
    for (const path of [file, `${file}-wal`]) expect(statSync(path).mode & 0o777, path).toBe(0o600);
  });

  it('answers ping, finds nothing for an unknown id, and migrations run again harmlessly', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
    expect(await store.applications.findById(randomUUID())).toBeUndefined();
    const again = await openStore(database.url, options);
    await again.close();
  });
});
