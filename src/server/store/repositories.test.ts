import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicantPayload } from '../../../tests/factories/application';
import { createTestDatabase } from '../../../tests/support/postgres';
import { UserExistsError } from './users';
import { openStore, type Store } from './store';
import { steppingClock } from '../../../tests/support/clock';

/** The inbox's storage contract, on a SQLite file and on the PostgreSQL server of this machine. */
describe.each([
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'repositories-'));
      return { url: `sqlite:${join(dir, 'applications.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
  ['PostgreSQL', createTestDatabase],
])('the repositories on %s', (_name, createDatabase) => {
  let database: { url: string; drop: () => Promise<void> };
  let store: Store;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    database = await createDatabase();
    store = await openStore(database.url, { clock: steppingClock() });
    // In received order: ada, bob, cleo (same handle as ada, other case and @), dora (other page, same email as ada), ada again.
    const save = async (name: string, pageId: string, payload: unknown) => {
      ids[name] = (
        await store.applications.save({ pageId, emailAddress: (payload as { personalInfo: { emailAddress: string } }).personalInfo.emailAddress, payload })
      ).id;
    };
    await save(
      'ada',
      'creators',
      applicantPayload({ firstName: 'Ada', lastName: 'Lovelace', email: 'Ada@Example.com', country: 'GB', instagram: 'ada.makes' }),
    );
    await save('bob', 'creators', applicantPayload({ firstName: 'Bob', lastName: 'Percent_100%', email: 'bob@example.com', country: 'US', tiktok: 'bobby' }));
    await save(
      'cleo',
      'creators',
      applicantPayload({ firstName: 'Cleo', lastName: 'Park', email: 'cleo@example.com', country: 'FR', instagram: '@ADA.makes' }),
    );
    await save('dora', 'other', applicantPayload({ firstName: 'Dora', lastName: 'Lovelace', email: 'ada@example.com', country: 'GB', instagram: 'dora' }));
    await save('ada2', 'creators', applicantPayload({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', country: 'GB', instagram: 'ada.two' }));
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  const names = (rows: { firstName: string; pageId: string; id: string }[]) => rows.map((row) => Object.keys(ids).find((key) => ids[key] === row.id));

  it('lists newest first and pages with a keyset cursor without gaps or repeats', async () => {
    expect(names(await store.applications.listApplications({}, { limit: 10 }))).toEqual(['ada2', 'dora', 'cleo', 'bob', 'ada']);
    const first = await store.applications.listApplications({}, { limit: 2 });
    const second = await store.applications.listApplications({}, { limit: 2, after: first.at(-1)! });
    const third = await store.applications.listApplications({}, { limit: 2, after: second.at(-1)! });
    expect([...names(first), ...names(second), ...names(third)]).toEqual(['ada2', 'dora', 'cleo', 'bob', 'ada']);
  });

  it('filters by page, country, platform and status, and searches name, e-mail and handle (LIKE characters literal)', async () => {
    expect(names(await store.applications.listApplications({ pageId: 'other' }, { limit: 10 }))).toEqual(['dora']);
    expect(names(await store.applications.listApplications({ country: 'GB' }, { limit: 10 }))).toEqual(['ada2', 'dora', 'ada']);
    expect(names(await store.applications.listApplications({ platform: 'tiktok' }, { limit: 10 }))).toEqual(['bob']);
    expect(names(await store.applications.listApplications({ status: 'new', pageId: 'creators' }, { limit: 10 }))).toEqual(['ada2', 'cleo', 'bob', 'ada']);
    expect(names(await store.applications.listApplications({ q: 'LOVELACE' }, { limit: 10 }))).toEqual(['ada2', 'dora', 'ada']);
    expect(names(await store.applications.listApplications({ q: 'ada lovelace' }, { limit: 10 }))).toEqual(['ada2', 'ada']);
    expect(names(await store.applications.listApplications({ q: 'cleo@ex' }, { limit: 10 }))).toEqual(['cleo']);
    expect(names(await store.applications.listApplications({ q: '@ada.makes' }, { limit: 10 }))).toEqual(['cleo']);
    expect(names(await store.applications.listApplications({ q: 'ada.makes' }, { limit: 10 }))).toEqual(['cleo', 'ada']);
    expect(names(await store.applications.listApplications({ q: '_100%' }, { limit: 10 }))).toEqual(['bob']);
    expect(names(await store.applications.listApplications({ q: '%' }, { limit: 10 }))).toEqual(['bob']);
  });

  it('counts the applications a filter matches in each status, the status filter left out (the status tabs)', async () => {
    expect(await store.applications.countApplications({ pageId: 'creators' })).toEqual({ new: 4, shortlisted: 0, accepted: 0, declined: 0, all: 4 });
    expect(await store.applications.countApplications({ country: 'GB', status: 'accepted' })).toEqual({
      new: 3,
      shortlisted: 0,
      accepted: 0,
      declined: 0,
      all: 3,
    });
    expect((await store.applications.countApplications({ q: 'percent_100%' })).all).toBe(1);
    expect((await store.applications.countApplications({ pageId: 'nowhere' })).all).toBe(0);
  });

  it('filters by received day, both ends inclusive (UTC)', async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(await store.applications.listApplications({ from: today, to: today }, { limit: 10 })).toHaveLength(5);
    expect(await store.applications.listApplications({ to: '2000-01-01' }, { limit: 10 })).toHaveLength(0);
    expect(await store.applications.listApplications({ from: '2999-01-01' }, { limit: 10 })).toHaveLength(0);
  });

  it('marks possible duplicates: same e-mail or same handle (any case, with or without @) on the same page, pointing at the earliest', async () => {
    const rows = await store.applications.listApplications({}, { limit: 10, withDuplicates: true });
    const duplicateOf = Object.fromEntries(rows.map((row) => [names([row])[0], row.duplicateOf ? names([{ ...row, id: row.duplicateOf }])[0] : undefined]));
    expect(duplicateOf).toEqual({ ada: undefined, bob: undefined, cleo: 'ada', dora: undefined, ada2: 'ada' });
  });

  it('reads one application with earlier submissions of its e-mail (any page) and an empty audit log', async () => {
    const detail = await store.applications.getApplication(ids.ada2!);
    expect(detail?.earlierSubmissions.map((row) => row.id)).toEqual([ids.dora, ids.ada]);
    expect(detail?.audit).toEqual([]);
    expect(await store.applications.getApplication('00000000-0000-0000-0000-000000000000')).toBeUndefined();
  });

  it('changes status and note with audit entries (who, when, from, to; never the note text)', async () => {
    const updated = await store.applications.updateApplication(ids.bob!, { status: 'shortlisted', note: 'Call Bob at 555' }, 'eve@brand.example');
    expect(updated).toMatchObject({ status: 'shortlisted', note: 'Call Bob at 555' });
    await store.applications.updateApplication(ids.bob!, { status: 'shortlisted' }, 'eve@brand.example');
    const audit = (await store.applications.getApplication(ids.bob!))!.audit;
    expect(audit).toEqual([
      { at: expect.any(String), actor: 'eve@brand.example', action: 'status', from: 'new', to: 'shortlisted' },
      { at: expect.any(String), actor: 'eve@brand.example', action: 'note' },
      { at: expect.any(String), actor: 'eve@brand.example', action: 'note-added' },
    ]);
    expect(JSON.stringify(audit)).not.toContain('555');
    expect(await store.applications.updateApplication('missing', { status: 'accepted' }, 'eve@brand.example')).toBeUndefined();
  });

  it('sets one status on a selection, one audit entry per changed application', async () => {
    expect(await store.applications.setStatuses([ids.bob!, ids.cleo!, 'missing'], 'accepted', 'eve@brand.example')).toBe(2);
    expect(names(await store.applications.listApplications({ status: 'accepted' }, { limit: 10 }))).toEqual(['cleo', 'bob']);
    expect((await store.applications.getApplication(ids.cleo!))!.audit).toEqual([
      { at: expect.any(String), actor: 'eve@brand.example', action: 'status', from: 'new', to: 'accepted' },
    ]);
  });

  it('erases an application: row and handles gone, an audit entry without personal data stays', async () => {
    expect(await store.applications.eraseApplication(ids.dora!, 'eve@brand.example')).toBe(true);
    expect(await store.applications.getApplication(ids.dora!)).toBeUndefined();
    expect(await store.applications.findById(ids.dora!)).toBeUndefined();
    expect(await store.applications.listApplications({ q: 'dora' }, { limit: 10 })).toEqual([]);
    expect(await store.applications.eraseApplication(ids.dora!, 'eve@brand.example')).toBe(false);
  });

  it('keeps users by lower-cased e-mail, refuses a second account, and ends sessions on reset and removal', async () => {
    const user = await store.users.createUser('Eve@Brand.example', 'hash-1', 'editor');
    expect(user.email).toBe('eve@brand.example');
    await expect(store.users.createUser('EVE@brand.example', 'hash-2', 'viewer')).rejects.toBeInstanceOf(UserExistsError);
    const now = new Date();
    const later = new Date(now.getTime() + 3_600_000).toISOString();
    await store.users.createSession('token-1', user.id, now.toISOString(), later);
    expect((await store.users.findSession('token-1', now.toISOString()))?.user.email).toBe('eve@brand.example');
    expect(await store.users.findSession('token-1', later)).toBeUndefined();
    const actor = { email: 'command line', address: 'command line' };
    expect(await store.team.resetPassword('eve@brand.example', 'hash-3', actor)).toBe(true);
    expect(await store.users.findSession('token-1', now.toISOString())).toBeUndefined();
    expect((await store.users.findUserForSignIn('EVE@BRAND.EXAMPLE'))?.passwordHash).toBe('hash-3');
    await store.users.createSession('token-2', user.id, now.toISOString(), later);
    expect((await store.users.listUsers()).map((u) => u.email)).toEqual(['eve@brand.example']);
    expect(await store.team.remove(user.id, actor)).toBe(true);
    expect(await store.users.findSession('token-2', now.toISOString())).toBeUndefined();
    expect(await store.team.remove(user.id, actor)).toBe(false);
  });

  it('counts sign-in attempts per key within a window, and takes one back by its id', async () => {
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    await store.users.countSignInAttempt(['account:x', 'address:1'], iso(now - 10_000), iso(now - 60_000));
    const second = await store.users.countSignInAttempt(['account:x', 'address:1'], iso(now), iso(now - 5_000));
    expect(second.counts.get('account:x')?.count).toBe(1);
    const third = await store.users.countSignInAttempt(['account:x'], iso(now), iso(now - 60_000));
    expect(third.counts.get('account:x')).toEqual({ count: 3, oldest: iso(now - 10_000) });
    await store.users.forgetSignInAttempt(third.attemptId);
    await store.users.forgetSignInAttempt(second.attemptId);
    const after = await store.users.countSignInAttempt(['account:x', 'address:1'], iso(now), iso(now - 60_000));
    expect(after.counts.get('account:x')?.count).toBe(2);
    expect(after.counts.get('address:1')?.count).toBe(2);
  });

  it('lets no more than n of many simultaneous attempts count n or fewer', async () => {
    const now = new Date().toISOString();
    const since = new Date(Date.now() - 60_000).toISOString();
    const attempts = await Promise.all(Array.from({ length: 20 }, () => store.users.countSignInAttempt(['account:volley'], now, since)));
    const counts = attempts.map((attempt) => attempt.counts.get('account:volley')!.count).sort((a, b) => a - b);
    counts.forEach((count, index) => expect(count).toBeGreaterThanOrEqual(index + 1));
  });

  it('adds funnel counts per page, day, event and step across flushes', async () => {
    store.funnel.recordFunnelEvent('creators', '2026-11-20', 'stepReached', 0);
    store.funnel.recordFunnelEvent('creators', '2026-11-20', 'stepReached', 0);
    await store.funnel.flush();
    store.funnel.recordFunnelEvent('creators', '2026-11-20', 'stepReached', 0);
    store.funnel.recordFunnelEvent('creators', '2026-11-21', 'submitted', -1);
    store.funnel.recordFunnelEvent('other', '2026-11-21', 'submitted', -1);
    const counts = await store.funnel.funnelCounts('creators', '2026-11-20', '2026-11-21');
    expect(counts.sort((a, b) => a.day.localeCompare(b.day))).toEqual([
      { day: '2026-11-20', event: 'stepReached', step: 0, count: 3 },
      { day: '2026-11-21', event: 'submitted', step: -1, count: 1 },
    ]);
  });

  it('keeps the audit entries of changes made within one millisecond in the order made', async () => {
    // A stopped clock: every change below happens at the same time.
    const frozen = await openStore(database.url, { clock: () => Date.parse('2026-11-29T12:00:00.000Z') });
    try {
      const payload = applicantPayload({ firstName: 'Eli', lastName: 'Same-Time', email: 'eli@example.com', country: 'GB', instagram: 'eli.same' });
      const { id } = await frozen.applications.save({ pageId: 'other', emailAddress: 'eli@example.com', payload });
      const note = await frozen.notes.add(id, 'eve@brand.example', 'First');
      if (typeof note === 'string') throw new Error(note);
      await frozen.notes.edit(id, note.id, 'eve@brand.example', 'First, edited');
      for (const status of ['shortlisted', 'accepted', 'declined', 'new'] as const)
        await frozen.applications.updateApplication(id, { status }, 'eve@brand.example');
      const audit = (await frozen.applications.getApplication(id))!.audit;
      expect(audit.map((entry) => [entry.action, entry.to])).toEqual([
        ['note-added', undefined],
        ['note-edited', undefined],
        ['status', 'shortlisted'],
        ['status', 'accepted'],
        ['status', 'declined'],
        ['status', 'new'],
      ]);
    } finally {
      await frozen.close();
    }
  });
});
