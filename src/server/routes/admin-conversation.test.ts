import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicantPayload, defaultConfig } from '../../../tests/factories/application';
import { steppingClock } from '../../../tests/support/clock';
import { createTestDatabase } from '../../../tests/support/postgres';
import { testDist } from '../../../tests/support/test-app';
import { TEST_SECRET } from '../../../tests/support/xsrf';
import { MAX_NOTE_LENGTH, MAX_NOTES_PER_APPLICATION } from '../../shared/admin';
import { buildApp } from '../app';
import { SESSION_COOKIE } from '../constants';
import { openStore, type Store } from '../store/store';
import { createTestUser } from '../../../tests/support/users';

// The notes thread, the team's tags (filter, CSV) and the creator's
// earlier applications, through the HTTP API on a SQLite file and on PostgreSQL.

const ANA = { email: 'ana@brand.example', password: 'ana password 123' };
const BEN = { email: 'ben@brand.example', password: 'ben password 123' };
const VIEWER = { email: 'viewer@brand.example', password: 'viewer password 1' };

describe.each([
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'conversation-'));
      return { url: `sqlite:${join(dir, 'applications.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
  ['PostgreSQL', createTestDatabase],
])('notes, tags and the creator on %s', (_name, createDatabase) => {
  let database: { url: string; drop: () => Promise<void> };
  let store: Store;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let remove: () => void;
  const ids: Record<string, string> = {};
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    database = await createDatabase();
    store = await openStore(database.url, { clock: steppingClock() });
    const dist = testDist('conversation-dist-', { admin: true });
    remove = dist.remove;
    for (const [user, role] of [
      [ANA, 'editor'],
      [BEN, 'editor'],
      [VIEWER, 'viewer'],
    ] as const) {
      await createTestUser(store, user, role);
    }
    app = await buildApp({ config: defaultConfig(), store, distDir: dist.distDir, rateLimitPerMinute: 10_000, secret: TEST_SECRET });
    const save = async (name: string, pageId: string, payload: ReturnType<typeof applicantPayload>) => {
      ids[name] = (await store.applications.save({ pageId, emailAddress: payload.personalInfo.emailAddress, payload })).id;
    };
    // In received order: ada; kit (another e-mail, ada's Instagram handle written otherwise, another page); ada again (same e-mail).
    await save(
      'ada',
      'creators',
      applicantPayload({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', country: 'GB', instagram: 'ada.makes' }),
    );
    await save(
      'kit',
      'other',
      applicantPayload({ firstName: 'Kit', lastName: 'Lane', email: 'kit@example.com', country: 'GB', instagram: '@ADA.makes', tiktok: 'kitlane' }),
    );
    await save('ada2', 'creators', applicantPayload({ firstName: 'Ada', lastName: 'Lovelace', email: 'ADA@example.com', country: 'GB', instagram: 'ada.two' }));
    await save('zed', 'creators', applicantPayload({ firstName: 'Zed', lastName: 'Zero', email: 'zed@example.com', country: 'US', tiktok: 'kitlane' }));
    for (const user of [ANA, BEN, VIEWER]) {
      const response = await app.inject({ method: 'POST', url: '/api/admin/session', payload: user });
      expect(response.statusCode).toBe(204);
      const session = response.cookies.find((cookie) => cookie.name === SESSION_COOKIE)!;
      const xsrf = response.cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')!;
      cookies[user.email] = `${SESSION_COOKIE}=${session.value}; XSRF-TOKEN=${xsrf.value}`;
    }
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await database?.drop();
    remove?.();
  });

  const headers = (user: { email: string }) => {
    const cookie = cookies[user.email]!;
    return { cookie, 'x-xsrf-token': /XSRF-TOKEN=([^;]+)/.exec(cookie)![1]! };
  };
  const call = (user: { email: string }, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({ method, url: `/api/admin${url}`, headers: headers(user), ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const detail = async (id: string) => (await call(VIEWER, 'GET', `/applications/${id}`)).json();
  const expectProblem = (response: Awaited<ReturnType<typeof call>>, status: number) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.headers['content-type']).toContain('application/problem+json');
  };

  it('keeps a thread of notes: each author edits and deletes only their own, every change audited without its text', async () => {
    const added = await call(ANA, 'POST', `/applications/${ids.ada}/notes`, { text: 'Loved the putty castle.\nAsk for rates.' });
    expect(added.statusCode).toBe(201);
    const note = added.json();
    expect(note).toEqual({
      id: expect.any(String),
      author: ANA.email,
      createdAt: expect.any(String),
      updatedAt: note.createdAt,
      text: 'Loved the putty castle.\nAsk for rates.',
    });
    const bens = (await call(BEN, 'POST', `/applications/${ids.ada}/notes`, { text: 'مرحبا — agreed' })).json();

    // Read by everyone signed in, oldest first, in the detail too.
    const thread = (await call(VIEWER, 'GET', `/applications/${ids.ada}/notes`)).json();
    expect(thread.map((entry: { author: string }) => entry.author)).toEqual([ANA.email, BEN.email]);
    expect((await detail(ids.ada!)).notes).toEqual(thread);

    // Another's note: 403, and it stays as it was.
    expectProblem(await call(BEN, 'PATCH', `/applications/${ids.ada}/notes/${note.id}`, { text: 'Changed by Ben' }), 403);
    expectProblem(await call(BEN, 'DELETE', `/applications/${ids.ada}/notes/${note.id}`), 403);
    // Without the anti-forgery header: 403, nothing written.
    const forged = await app.inject({
      method: 'POST',
      url: `/api/admin/applications/${ids.ada}/notes`,
      headers: { cookie: cookies[ANA.email]! },
      payload: { text: 'Forged' },
    });
    expectProblem(forged, 403);
    // A viewer: 403 whatever the body.
    expectProblem(await call(VIEWER, 'POST', `/applications/${ids.ada}/notes`, { text: 'Viewer note' }), 403);
    expectProblem(await call(VIEWER, 'PATCH', `/applications/${ids.ada}/notes/${note.id}`, { nonsense: 1 }), 403);
    expectProblem(await call(VIEWER, 'DELETE', `/applications/${ids.ada}/notes/${note.id}`), 403);

    const edited = await call(ANA, 'PATCH', `/applications/${ids.ada}/notes/${note.id}`, { text: 'Loved the putty castle. Rates asked.' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ id: note.id, author: ANA.email, createdAt: note.createdAt, text: 'Loved the putty castle. Rates asked.' });
    expect(edited.json().updatedAt > note.createdAt).toBe(true);
    expect((await call(BEN, 'DELETE', `/applications/${ids.ada}/notes/${bens.id}`)).statusCode).toBe(204);
    expectProblem(await call(BEN, 'DELETE', `/applications/${ids.ada}/notes/${bens.id}`), 404);

    const after = await detail(ids.ada!);
    expect(after.notes).toEqual([edited.json()]);
    expect(after.audit).toEqual([
      { at: expect.any(String), actor: ANA.email, action: 'note-added' },
      { at: expect.any(String), actor: BEN.email, action: 'note-added' },
      { at: expect.any(String), actor: ANA.email, action: 'note-edited' },
      { at: expect.any(String), actor: BEN.email, action: 'note-deleted' },
    ]);
    expect(JSON.stringify(after.audit)).not.toMatch(/putty|agreed/);
  });

  it('refuses bad notes and stale ids with problem details, never a 500', async () => {
    const note = (await call(ANA, 'POST', `/applications/${ids.ada2}/notes`, { text: 'First' })).json();
    for (const body of [
      {},
      { text: '' },
      { text: '   \n ' },
      { text: 'x'.repeat(MAX_NOTE_LENGTH + 1) },
      { text: 'a\u0000b' },
      { text: 'bell\u0007' },
      { text: 'lone \ud800 surrogate' },
      { text: 'ok', extra: 1 },
      { text: 5 },
    ]) {
      expectProblem(await call(ANA, 'POST', `/applications/${ids.ada2}/notes`, body), 400);
      expectProblem(await call(ANA, 'PATCH', `/applications/${ids.ada2}/notes/${note.id}`, body), 400);
    }
    expect((await call(ANA, 'POST', `/applications/${ids.ada2}/notes`, { text: 'x'.repeat(MAX_NOTE_LENGTH) })).statusCode).toBe(201);
    expectProblem(await call(ANA, 'POST', `/applications/${ids.ada2}/notes`, { text: 'x'.repeat(2_000_000) }), 413);
    const unknown = '00000000-0000-0000-0000-000000000000';
    expectProblem(await call(ANA, 'POST', `/applications/${unknown}/notes`, { text: 'Hello' }), 404);
    expectProblem(await call(VIEWER, 'GET', `/applications/${unknown}/notes`), 404);
    expectProblem(await call(ANA, 'PATCH', `/applications/${ids.ada2}/notes/${unknown}`, { text: 'Hello' }), 404);
    // A note of another application, named under this one: no such note here.
    expectProblem(await call(ANA, 'PATCH', `/applications/${ids.ada}/notes/${note.id}`, { text: 'Hello' }), 404);
    expectProblem(await call(ANA, 'DELETE', `/applications/${ids.ada}/notes/${encodeURIComponent('\u00e9\u202e'.repeat(20))}`), 404);
  });

  it('adds what PATCH {note} sets to the thread, by whoever set it, and keeps the single note as before', async () => {
    const patched = await call(BEN, 'PATCH', `/applications/${ids.zed}`, { note: 'Set through PATCH' });
    expect(patched.json()).toMatchObject({ note: 'Set through PATCH' });
    await call(BEN, 'PATCH', `/applications/${ids.zed}`, { note: '' });
    const zed = await detail(ids.zed!);
    expect(zed.note).toBe('');
    expect(zed.notes).toEqual([expect.objectContaining({ author: BEN.email, text: 'Set through PATCH' })]);
    expect(zed.audit.map((entry: { action: string }) => entry.action)).toEqual(['note', 'note-added', 'note']);
  });

  it('keeps PATCH {note} to the limit of notes POST …/notes keeps, refusing the whole change with the same 409', async () => {
    // An outside attack: PATCH {note} with alternating texts grew the thread past the limit.
    const id = ids.ada2!;
    const before = (await store.notes.list(id)).length;
    for (let i = before; i < MAX_NOTES_PER_APPLICATION - 1; i++) expect(await store.notes.add(id, ANA.email, `Note ${i}`)).not.toBe('full');
    const last = await call(ANA, 'PATCH', `/applications/${id}`, { note: 'The last one' });
    expect(last.statusCode, last.body).toBe(200);
    const refused = await call(ANA, 'PATCH', `/applications/${id}`, { note: 'One too many', status: 'declined' });
    expectProblem(refused, 409);
    const posted = await call(ANA, 'POST', `/applications/${id}/notes`, { text: 'One too many' });
    expectProblem(posted, 409);
    expect(refused.json().detail).toBe(posted.json().detail);
    // Nothing of the refused change: the single note, the status, the thread and the history as they were.
    const after = await detail(id);
    expect(after).toMatchObject({ note: 'The last one', status: 'new' });
    expect(after.notes).toHaveLength(MAX_NOTES_PER_APPLICATION);
    expect(after.audit.slice(-2).map((entry: { action: string }) => entry.action)).toEqual(['note', 'note-added']);
    // Clearing the single note adds nothing to the thread, so it is still allowed.
    expect((await call(ANA, 'PATCH', `/applications/${id}`, { note: '' })).statusCode).toBe(200);
  });

  it('lets editors define tags (one per name whatever its case), apply and remove them, filter by them and export them', async () => {
    const gifting = await call(ANA, 'POST', '/tags', { name: '  gifting ' });
    expect(gifting.statusCode).toBe(201);
    expect(gifting.json()).toEqual({ id: expect.any(String), name: 'gifting', createdAt: expect.any(String) });
    const ugc = (await call(ANA, 'POST', '/tags', { name: 'UGC' })).json();
    const again = await call(BEN, 'POST', '/tags', { name: 'ugc' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(ugc);
    expect((await call(VIEWER, 'GET', '/tags')).json().map((tag: { name: string }) => tag.name)).toEqual(['gifting', 'UGC']);
    for (const body of [{ name: '' }, { name: '  ' }, { name: 'x'.repeat(41) }, { name: 'tab\there' }, { name: 'lone \udc00' }, { name: 'a', more: 1 }])
      expectProblem(await call(ANA, 'POST', '/tags', body), 400);
    expectProblem(await call(VIEWER, 'POST', '/tags', { name: 'viewer tag' }), 403);

    const put = (user: { email: string }, id: string, tagIds: string[]) => call(user, 'PUT', `/applications/${id}/tags`, { tagIds });
    const tagged = await put(ANA, ids.ada!, [ugc.id, gifting.json().id, ugc.id]);
    expect(tagged.statusCode).toBe(200);
    expect(tagged.json().map((tag: { name: string }) => tag.name)).toEqual(['gifting', 'UGC']);
    await put(ANA, ids.kit!, [ugc.id]);
    expectProblem(await put(VIEWER, ids.ada!, []), 403);
    const stale = await put(ANA, ids.ada!, [ugc.id, 'no-such-tag']);
    expectProblem(stale, 400);
    expect(stale.json().errors).toEqual([{ path: 'tagIds.1', message: 'No such tag (it may have been deleted)' }]);
    expectProblem(await put(ANA, '00000000-0000-0000-0000-000000000000', [ugc.id]), 404);
    expectProblem(
      await put(
        ANA,
        ids.ada!,
        Array.from({ length: 21 }, (_, i) => `t${i}`),
      ),
      400,
    );
    expect((await detail(ids.ada!)).tags.map((tag: { name: string }) => tag.name)).toEqual(['gifting', 'UGC']);

    // The list and its counts, filtered by a tag; an unknown tag matches nothing.
    const listed = async (query: string) => (await call(VIEWER, 'GET', `/applications?${query}`)).json().items.map((item: { id: string }) => item.id);
    expect(await listed(`tag=${ugc.id}`)).toEqual([ids.kit, ids.ada]);
    expect(await listed(`tag=${gifting.json().id}&pageId=creators`)).toEqual([ids.ada]);
    expect(await listed('tag=nothing')).toEqual([]);
    expect((await call(VIEWER, 'GET', `/applications/counts?tag=${ugc.id}`)).json()).toMatchObject({ all: 2 });

    // The CSV's Tags column: names joined with ", ", by name.
    const csv = await call(VIEWER, 'GET', '/applications.csv');
    const [header, ...records] = parse(csv.body, { bom: true }) as string[][];
    const tagsOf = Object.fromEntries(records.map((record) => [record[0], record[header!.indexOf('Tags')]]));
    expect(tagsOf).toEqual({ [ids.ada!]: 'gifting, UGC', [ids.kit!]: 'UGC', [ids.ada2!]: '', [ids.zed!]: '' });
    const filtered = parse((await call(VIEWER, 'GET', `/applications.csv?tag=${gifting.json().id}`)).body, { bom: true }) as string[][];
    expect(filtered.slice(1).map((record) => record[0])).toEqual([ids.ada]);

    // Removing one, then deleting a tag: gone from every application, each change audited by name.
    expect((await put(BEN, ids.ada!, [ugc.id])).json().map((tag: { name: string }) => tag.name)).toEqual(['UGC']);
    expect((await call(ANA, 'DELETE', `/tags/${ugc.id}`)).statusCode).toBe(204);
    expectProblem(await call(ANA, 'DELETE', `/tags/${ugc.id}`), 404);
    expectProblem(await call(VIEWER, 'DELETE', `/tags/${gifting.json().id}`), 403);
    expect((await detail(ids.kit!)).tags).toEqual([]);
    expect(await listed(`tag=${ugc.id}`)).toEqual([]);
    const audit = (await detail(ids.ada!)).audit.filter((entry: { action: string }) => entry.action === 'tagged' || entry.action === 'untagged');
    expect(audit).toEqual([
      { at: expect.any(String), actor: ANA.email, action: 'tagged', to: 'gifting' },
      { at: expect.any(String), actor: ANA.email, action: 'tagged', to: 'UGC' },
      { at: expect.any(String), actor: BEN.email, action: 'untagged', to: 'gifting' },
      { at: expect.any(String), actor: ANA.email, action: 'untagged', to: 'UGC' },
    ]);
  });

  it('normalises tag names (NFC, trimmed before the length is checked) and refuses invisible characters, naming `name`', async () => {
    // An outside attack: a precomposed and a decomposed "Café" made two tags, "UGC" with a
    // zero-width space a second "UGC", a right-to-left override was accepted, and a 40-character
    // name with spaces around it was refused.
    const precomposed = await call(ANA, 'POST', '/tags', { name: 'Caf\u00e9' });
    expect(precomposed.statusCode).toBe(201);
    const decomposed = await call(ANA, 'POST', '/tags', { name: ' CAFE\u0301 ' });
    expect(decomposed.statusCode).toBe(200);
    expect(decomposed.json()).toEqual(precomposed.json());
    for (const name of ['UGC\u200b', '\u202eevil', 'a\u2066b', 'U\u00adGC']) {
      const refused = await call(ANA, 'POST', '/tags', { name });
      expectProblem(refused, 400);
      expect(refused.json().errors, name).toEqual([{ path: 'name', message: 'Remove the invisible or unsupported characters' }]);
    }
    const padded = await call(ANA, 'POST', '/tags', { name: `  ${'p'.repeat(40)}  ` });
    expect(padded.statusCode, padded.body).toBe(201);
    expect(padded.json().name).toBe('p'.repeat(40));
    const long = await call(ANA, 'POST', '/tags', { name: 'p'.repeat(41) });
    expectProblem(long, 400);
    expect(long.json().errors).toEqual([{ path: 'name', message: expect.any(String) }]);
    expect((await call(ANA, 'POST', '/tags', { name: ' \t ' })).json().errors).toEqual([{ path: 'name', message: 'Name the tag' }]);
    // A second attack: a combining accent alone was a tag, and a no-break space made a look-alike.
    expect((await call(ANA, 'POST', '/tags', { name: '\u0301' })).json().errors).toEqual([{ path: 'name', message: 'Name the tag' }]);
    const spaced = await call(ANA, 'POST', '/tags', { name: 'gift  ing' });
    expect(spaced.statusCode).toBe(201);
    expect(spaced.json().name).toBe('gift ing');
    expect((await call(ANA, 'POST', '/tags', { name: 'gift\u00a0ing' })).json()).toEqual(spaced.json());
    expect((await call(ANA, 'DELETE', `/tags/${spaced.json().id}`)).statusCode).toBe(204);
    const names = (await call(VIEWER, 'GET', '/tags')).json().map((tag: { name: string }) => tag.name);
    expect(names.filter((name: string) => name.normalize('NFD').toLowerCase().startsWith('cafe'))).toEqual(['Caf\u00e9']);
    for (const tag of [precomposed.json(), padded.json()]) expect((await call(ANA, 'DELETE', `/tags/${tag.id}`)).statusCode).toBe(204);
  });

  it('tags a selection in bulk (add and remove), audited per application, and lists each item with its tags', async () => {
    const summer = (await call(ANA, 'POST', '/tags', { name: 'Summer' })).json();
    const putty = (await call(ANA, 'POST', '/tags', { name: 'putty' })).json();
    const bulk = (user: { email: string }, body: unknown) => call(user, 'POST', '/applications/tags', body);
    const unknown = '00000000-0000-0000-0000-000000000000';
    await call(ANA, 'PUT', `/applications/${ids.zed}/tags`, { tagIds: [putty.id] });

    // Summer and putty added to three applications (zed has putty already) and one id of no application.
    const added = await bulk(BEN, { ids: [ids.kit, ids.zed, ids.ada2, unknown, ids.kit], add: [summer.id, putty.id] });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toEqual({ updated: 3, notFound: [unknown] });
    const tagNames = (items: { id: string; tags: { name: string }[] }[]) =>
      Object.fromEntries(items.map((item) => [item.id, item.tags.map((tag) => tag.name)]));
    const list = (await call(VIEWER, 'GET', '/applications')).json();
    expect(tagNames(list.items)).toMatchObject({ [ids.kit!]: ['putty', 'Summer'], [ids.zed!]: ['putty', 'Summer'], [ids.ada2!]: ['putty', 'Summer'] });
    expect(list.items.find((item: { id: string }) => item.id === ids.kit).tags[0]).toEqual(putty);
    const zedAudit = (await detail(ids.zed!)).audit.filter((entry: { action: string }) => entry.action === 'tagged' || entry.action === 'untagged');
    expect(zedAudit).toEqual([
      { at: expect.any(String), actor: ANA.email, action: 'tagged', to: 'putty' },
      { at: expect.any(String), actor: BEN.email, action: 'tagged', to: 'Summer' },
    ]);

    // Removing one from two: only those that carried it change; the same again changes nothing.
    expect((await bulk(ANA, { ids: [ids.kit, ids.ada], remove: [putty.id] })).json()).toEqual({ updated: 1, notFound: [] });
    expect((await bulk(ANA, { ids: [ids.kit, ids.ada], remove: [putty.id] })).json()).toEqual({ updated: 0, notFound: [] });
    expect((await detail(ids.kit!)).tags.map((tag: { name: string }) => tag.name)).toEqual(['Summer']);
    expect((await detail(ids.kit!)).audit.at(-1)).toEqual({ at: expect.any(String), actor: ANA.email, action: 'untagged', to: 'putty' });
    // Added and removed in one call.
    expect((await bulk(ANA, { ids: [ids.kit], add: [putty.id], remove: [summer.id] })).json()).toEqual({ updated: 1, notFound: [] });
    expect((await detail(ids.kit!)).tags.map((tag: { name: string }) => tag.name)).toEqual(['putty']);

    // Refused with problem details, nothing changed: viewers, a tag of no tag, bodies the schema refuses.
    expectProblem(await bulk(VIEWER, { ids: [ids.kit], add: [summer.id] }), 403);
    const stale = await bulk(ANA, { ids: [ids.ada, ids.kit], add: [summer.id, 'no-such-tag'], remove: ['gone'] });
    expectProblem(stale, 400);
    expect(stale.json().errors).toEqual([
      { path: 'add.1', message: 'No such tag (it may have been deleted)' },
      { path: 'remove.0', message: 'No such tag (it may have been deleted)' },
    ]);
    expect((await detail(ids.ada!)).tags.map((tag: { name: string }) => tag.name)).not.toContain('Summer');
    for (const body of [
      {},
      { ids: [], add: [summer.id] },
      { ids: [ids.ada] },
      { ids: [ids.ada], add: [], remove: [] },
      { ids: [ids.ada], add: [summer.id], remove: [summer.id] },
      { ids: Array.from({ length: 501 }, (_, i) => `id${i}`), add: [summer.id] },
      { ids: [ids.ada], add: Array.from({ length: 11 }, (_, i) => `t${i}`) },
      { ids: [ids.ada], add: [summer.id], extra: 1 },
      { ids: [ids.ada], add: 'Summer' },
      { ids: ['a\u0000b'], add: [summer.id] },
    ]) {
      expectProblem(await bulk(ANA, body), 400);
    }
    // Past 20 tags on an application: 409 naming it, nothing changed.
    const many = await Promise.all(Array.from({ length: 10 }, async (_, i) => (await call(ANA, 'POST', '/tags', { name: `many ${i}` })).json().id as string));
    const more = await Promise.all(Array.from({ length: 10 }, async (_, i) => (await call(ANA, 'POST', '/tags', { name: `more ${i}` })).json().id as string));
    expect((await bulk(ANA, { ids: [ids.zed], add: many })).json()).toEqual({ updated: 1, notFound: [] });
    const full = await bulk(ANA, { ids: [ids.kit, ids.zed], add: more });
    expectProblem(full, 409);
    expect(full.json().errors).toEqual([{ path: 'ids.1', message: 'Would carry more than 20 tags' }]);
    expect((await detail(ids.kit!)).tags).toHaveLength(1);
    await bulk(ANA, { ids: [ids.zed], remove: many });
  });

  it("lists the creator's earlier applications by e-mail or by handle, with the phone in E.164", async () => {
    const ada2 = await detail(ids.ada2!);
    expect(ada2.earlierSubmissions).toEqual([
      { id: ids.ada, pageId: 'creators', receivedAt: expect.any(String), status: 'new', firstName: 'Ada', lastName: 'Lovelace', matchedBy: ['email'] },
    ]);
    // Kit wrote Ada's Instagram handle otherwise (`@ADA.makes`), from another e-mail, on another page.
    expect((await detail(ids.kit!)).earlierSubmissions).toEqual([
      { id: ids.ada, pageId: 'creators', receivedAt: expect.any(String), status: 'new', firstName: 'Ada', lastName: 'Lovelace', matchedBy: ['handle'] },
    ]);
    // Zed shares Kit's TikTok handle; later applications are not earlier ones.
    expect((await detail(ids.zed!)).earlierSubmissions.map((earlier: { id: string }) => earlier.id)).toEqual([ids.kit]);
    expect((await detail(ids.ada!)).earlierSubmissions).toEqual([]);
    expect(ada2.phoneE164).toBe('');
  });

  it('leaves no note of an erased application and no link to a deleted tag when both happen at once', async () => {
    for (let round = 0; round < 8; round++) {
      const payload = applicantPayload({ firstName: 'Race', lastName: `R${round}`, email: `race${round}@example.com` });
      const { id } = await store.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload });
      const created = await store.tags.create(`race ${round}`);
      if (created === 'full') throw new Error('full');
      await Promise.all([
        store.tags.set(id, [created.tag.id], ANA.email),
        store.tags.remove(created.tag.id, BEN.email),
        store.notes.add(id, ANA.email, 'Racing'),
        store.applications.eraseApplication(id, BEN.email),
      ]);
      expect(await store.notes.list(id)).toEqual([]);
      // The filter reads the links without joining the tags: a link left behind would show here.
      expect(await store.applications.listApplications({ tag: created.tag.id }, { limit: 10 })).toEqual([]);
    }
  });

  it('leaves no link to a deleted tag or an erased application when bulk tagging races them', async () => {
    for (let round = 0; round < 8; round++) {
      const saved = await Promise.all(
        [0, 1].map((n) => {
          const payload = applicantPayload({ firstName: 'Bulk', lastName: `B${round}${n}`, email: `bulk${round}-${n}@example.com` });
          return store.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload });
        }),
      );
      const [kept, erased] = saved.map((row) => row.id) as [string, string];
      const created = await store.tags.create(`bulk race ${round}`);
      const other = await store.tags.create(`bulk other ${round}`);
      if (created === 'full' || other === 'full') throw new Error('full');
      const [bulk] = await Promise.all([
        store.tags.bulk([kept, erased], { add: [created.tag.id, other.tag.id] }, ANA.email),
        store.tags.remove(created.tag.id, BEN.email),
        store.applications.eraseApplication(erased, BEN.email),
      ]);
      // Either the bulk change came first (and the deletion and erasure removed what it wrote), or
      // it found the tag gone and changed nothing.
      if ('refused' in bulk) expect(bulk.refused).toBe('unknown-tags');
      expect(await store.applications.listApplications({ tag: created.tag.id }, { limit: 10 })).toEqual([]);
      expect((await store.tags.ofMany([erased])).size).toBe(0);
      expect((await store.tags.of(kept)).map((tag) => tag.id)).toEqual('refused' in bulk ? [] : [other.tag.id]);
      await store.tags.remove(other.tag.id, BEN.email);
    }
  });

  it('erases the notes and tag links with the application', async () => {
    const tag = (await call(ANA, 'POST', '/tags', { name: 'erase-me' })).json();
    await call(ANA, 'PUT', `/applications/${ids.kit}/tags`, { tagIds: [tag.id] });
    await call(ANA, 'POST', `/applications/${ids.kit}/notes`, { text: 'Kit Lane lives in Leeds' });
    expect(await store.notes.list(ids.kit!)).toHaveLength(1);
    expect((await call(ANA, 'DELETE', `/applications/${ids.kit}`)).statusCode).toBe(204);
    expect(await store.notes.list(ids.kit!)).toEqual([]);
    expect(await store.tags.of(ids.kit!)).toEqual([]);
    expect((await call(VIEWER, 'GET', `/applications?tag=${tag.id}`)).json().items).toEqual([]);
    expectProblem(await call(ANA, 'POST', `/applications/${ids.kit}/notes`, { text: 'Too late' }), 404);
    // The tag itself is the team's and stays.
    expect((await call(VIEWER, 'GET', '/tags')).json().map((t: { name: string }) => t.name)).toContain('erase-me');
  });
});
