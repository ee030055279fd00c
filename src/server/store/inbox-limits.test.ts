import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import { MAX_TAGS } from '../../shared/admin';
import { openStore, type Store } from './store';

// An outside attack on the inbox's limits: on PostgreSQL, at READ COMMITTED, saves and
// creations sent at once each counted before any inserted, so twenty saves of one view name met
// the unique key (500) and a user ended with 52 views, the team with 206 tags. Each is fired here
// at once, on both stores; the store's pool (10 connections) runs them side by side.

const MAX_VIEWS = 50;

describe.each([
  ['SQLite', () => sqliteExecDatabase('inbox-limits-')],
  ['PostgreSQL', postgresExecDatabase],
])('the inbox limits on %s', (_name, createDatabase: () => Promise<ExecDatabase>) => {
  let database: ExecDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await createDatabase();
    store = await openStore(database.url);
  }, 60_000);

  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('saves a view once when many save the same name at once, each answered with it', async () => {
    const saved = await Promise.all(Array.from({ length: 20 }, () => store.views.save('user-race', 'Race', 'status=new', MAX_VIEWS)));
    expect(saved.every((view) => view !== undefined)).toBe(true);
    const views = await store.views.list('user-race');
    expect(views.map((view) => [view.name, view.query])).toEqual([['Race', 'status=new']]);
    expect(new Set(saved.map((view) => view!.id))).toEqual(new Set([views[0]!.id]));
  });

  it('keeps a user to the limit of saved views when many distinct views are saved at once', async () => {
    const saved = await Promise.all(Array.from({ length: 80 }, (_, i) => store.views.save('user-many', `View ${i}`, 'status=new', MAX_VIEWS)));
    expect(saved.filter((view) => view !== undefined)).toHaveLength(MAX_VIEWS);
    expect(await store.views.list('user-many')).toHaveLength(MAX_VIEWS);
    // Another user's views are counted apart.
    expect(await store.views.save('user-other', 'Mine', 'status=new', MAX_VIEWS)).toBeDefined();
  });

  it('finds a tag stored before names were normalised (a decomposed name, its key not in NFC) by its NFC spelling', async () => {
    const decomposed = 'Cafe\u0301 crew';
    await database.exec(
      `insert into tags (id, name, name_key, created_at) values ('old-tag', '${decomposed}', '${decomposed.toLowerCase()}', '2026-11-27T00:00:00.000Z')`,
    );
    const found = await store.tags.create('caf\u00e9 CREW');
    expect(found).toEqual({ created: false, tag: { id: 'old-tag', name: decomposed, createdAt: '2026-11-27T00:00:00.000Z' } });
    // A new name is kept, and keyed, in NFC.
    expect(await store.tags.create(' Tea\u0301 ')).toMatchObject({ created: true, tag: { name: 'Te\u00e1' } });
    expect(await database.query(`select name_key from tags where name = 'Te\u00e1'`)).toEqual([{ name_key: 'te\u00e1' }]);
  });

  it('keeps the team to the limit of tags when many are created at once', async () => {
    const before = (await store.tags.list()).length;
    for (let i = before; i < MAX_TAGS - 10; i++) await store.tags.create(`Tag ${i}`);
    const created = await Promise.all(Array.from({ length: 30 }, (_, i) => store.tags.create(`Rush ${i}`)));
    expect(created.filter((result) => result !== 'full' && result.created)).toHaveLength(10);
    expect(created.filter((result) => result === 'full')).toHaveLength(20);
    expect(await store.tags.list()).toHaveLength(MAX_TAGS);
  });
});
