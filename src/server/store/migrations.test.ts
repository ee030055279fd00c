import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { applicantPayload } from '../../../tests/factories/application';
import { createTestDatabase } from '../../../tests/support/postgres';
import { openStore } from './store';
import { migrationProvider, migrationsPending } from './migrations';

const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('gives applications stored before the inbox existed their review columns and handles', async () => {
  const file = join(dir, 'applications.db');
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(file) }) });
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo('2026-11-22-001-create-applications');
  expect(error).toBeUndefined();
  const payload = applicantPayload({ firstName: 'Old', lastName: 'Timer', email: 'old@example.com', country: 'DE', instagram: '@Old.Timer' });
  await db
    .insertInto('applications' as never)
    .values({
      id: 'old-1',
      page_id: 'creators',
      idempotency_key: null,
      email: 'old@example.com',
      payload: JSON.stringify(payload),
      received_at: '2026-01-02T03:04:05.000Z',
      user_agent: null,
    } as never)
    .execute();
  await db.destroy();

  const store = await openStore(`sqlite:${file}`);
  try {
    const [row] = await store.applications.listApplications({ q: 'old.timer', country: 'DE', platform: 'instagram' }, { limit: 10 });
    expect(row).toMatchObject({ id: 'old-1', status: 'new', note: '', firstName: 'Old', lastName: 'Timer', countryCode: 'DE' });
    const saved = await store.applications.save({
      pageId: 'creators',
      emailAddress: 'new@example.com',
      payload: applicantPayload({ firstName: 'New', lastName: 'One', email: 'new@example.com', instagram: 'old.timer' }),
    });
    const [newest] = await store.applications.listApplications({}, { limit: 1, withDuplicates: true });
    expect(newest).toMatchObject({ id: saved.id, duplicateOf: 'old-1' });
  } finally {
    await store.close();
  }
});

it('tells a database with a migration still to run from an up-to-date one (a start on the latter runs one query)', async () => {
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(join(dir, 'pending.db')) }) });
  try {
    expect(await migrationsPending(db)).toBe(true);
    expect((await new Migrator({ db, provider: migrationProvider }).migrateTo('2026-11-22-002-inbox')).error).toBeUndefined();
    expect(await migrationsPending(db)).toBe(true);
    expect((await new Migrator({ db, provider: migrationProvider }).migrateToLatest()).error).toBeUndefined();
    expect(await migrationsPending(db)).toBe(false);
  } finally {
    await db.destroy();
  }
});

it('keeps every migration frozen: a migration file imports nothing but Kysely', () => {
  const folder = fileURLToPath(new URL('./migrations/', import.meta.url));
  const files = readdirSync(folder).filter((name) => name.endsWith('.ts'));
  expect(files.length).toBeGreaterThanOrEqual(6);
  for (const name of files) {
    // Every module a file names: `from '…'`, a bare `import '…'`, `import('…')`, `require('…')`.
    const text = readFileSync(join(folder, name), 'utf8');
    const imports = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"`]([^'"`]+)['"`]/g)].map((match) => match[1]);
    expect({ name, imports: [...new Set(imports)] }).toEqual({ name, imports: ['kysely'] });
    // No module named by a computed string either.
    expect(text).not.toMatch(/\bimport\s*\(\s*[^'"`\s]|\brequire\s*\(\s*[^'"`\s]/);
  }
});

it("starts each application's notes thread with its single note, dated by the audit entry that last changed it", async () => {
  const file = join(dir, 'notes.db');
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(file) }) });
  expect((await new Migrator({ db, provider: migrationProvider }).migrateTo('2026-11-24-006-phone-e164')).error).toBeUndefined();
  const row = (id: string, note: string) => ({
    id,
    page_id: 'creators',
    idempotency_key: null,
    email: `${id}@example.com`,
    payload: JSON.stringify(applicantPayload({ firstName: 'Old', lastName: id, email: `${id}@example.com` })),
    received_at: '2026-01-02T03:04:05.000Z',
    user_agent: null,
    note,
  });
  await db
    .insertInto('applications' as never)
    .values([row('noted', 'Call back in May'), row('audited', 'Second thoughts'), row('silent', '')] as never)
    .execute();
  await db
    .insertInto('audit_log' as never)
    .values([
      { id: 'a1', application_id: 'audited', at: '2026-02-01T00:00:00.000Z', actor: 'ana@brand.example', action: 'note', from_value: null, to_value: null },
      { id: 'a2', application_id: 'audited', at: '2026-03-01T00:00:00.000Z', actor: 'ben@brand.example', action: 'note', from_value: null, to_value: null },
    ] as never)
    .execute();
  await db.destroy();

  const store = await openStore(`sqlite:${file}`);
  try {
    expect(await store.notes.list('noted')).toEqual([
      {
        id: expect.any(String),
        author: '(earlier note)',
        createdAt: '2026-01-02T03:04:05.000Z',
        updatedAt: '2026-01-02T03:04:05.000Z',
        text: 'Call back in May',
      },
    ]);
    expect(await store.notes.list('audited')).toEqual([
      expect.objectContaining({ author: '(earlier note)', createdAt: '2026-03-01T00:00:00.000Z', text: 'Second thoughts' }),
    ]);
    expect(await store.notes.list('silent')).toEqual([]);
    // The single note stays where requirements §17 reads it; nobody may edit the carried-over note.
    expect((await store.applications.getApplication('noted'))!.note).toBe('Call back in May');
    const [carried] = await store.notes.list('noted');
    expect(await store.notes.edit('noted', carried!.id, 'ana@brand.example', 'Mine now')).toBe('not-yours');
  } finally {
    await store.close();
  }
});

it("counts a page's slots taken from its applications stored before (migration 013; decision 021, the fifth outside attack, F1)", async () => {
  const file = join(dir, 'slots.db');
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(file) }) });
  expect((await new Migrator({ db, provider: migrationProvider }).migrateTo('2026-11-27-012-pages')).error).toBeUndefined();
  const page = (id: string) => ({
    id,
    status: 'published',
    draft: '{}',
    revision: 1,
    updated_by: 'a',
    updated_at: 'x',
    published_version: null,
    opens_at: null,
    closes_at: null,
    max_applications: 3,
    created_at: 'x',
    created_by: 'a',
  });
  await db
    .insertInto('pages' as never)
    .values([page('summer'), page('winter')] as never)
    .execute();
  const row = (id: string, pageId: string) => ({
    id,
    page_id: pageId,
    idempotency_key: null,
    email: `${id}@example.com`,
    payload: '{}',
    received_at: '2026-01-02T03:04:05.000Z',
    user_agent: null,
  });
  await db
    .insertInto('applications' as never)
    .values([row('s1', 'summer'), row('s2', 'summer'), row('w1', 'winter')] as never)
    .execute();
  await db.destroy();

  const store = await openStore(`sqlite:${file}`);
  try {
    const payload = applicantPayload({ firstName: 'New', lastName: 'One', email: 'new@example.com' });
    const save = () => store.applications.save({ pageId: 'summer', emailAddress: 'new@example.com', payload, capped: true });
    expect(await save()).toMatchObject({ created: true, taken: { taken: 3, max: 3 } });
    expect(await save()).toMatchObject({ created: false, full: true });
  } finally {
    await store.close();
  }
});

it.each([
  [
    'SQLite',
    async () => ({
      url: `sqlite:${join(dir, 'guardians.db')}`,
      db: new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(join(dir, 'guardians.db')) }) }),
      drop: async () => {},
    }),
  ],
  [
    'PostgreSQL',
    async () => {
      const database = await createTestDatabase();
      return { ...database, db: new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 1 }) }) }) };
    },
  ],
])("finds a guardian's applications consented to before the column (migration 022), on %s", async (_name, open) => {
  const { url, db, drop } = await open();
  try {
    expect((await new Migrator({ db, provider: migrationProvider }).migrateTo('2026-11-30-021-children-and-consents')).error).toBeUndefined();
    const row = (id: string, guardian: string) => ({
      id,
      page_id: 'creators',
      idempotency_key: null,
      email: `${id}@example.com`,
      payload: JSON.stringify({
        ...applicantPayload({ firstName: 'Mia', lastName: 'Young', email: `${id}@example.com` }),
        guardian: { name: 'Pat', emailAddress: guardian },
      }),
      received_at: '2026-11-30T03:04:05.000Z',
      user_agent: null,
    });
    await db
      .insertInto('applications' as never)
      .values([row('consented', 'Pat@Example.com'), row('sent-but-not-released', 'pat@example.com')] as never)
      .execute();
    await db
      .insertInto('audit_log' as never)
      .values({ id: 'a1', application_id: 'consented', at: '2026-11-30T04:00:00.000Z', actor: 'parent or guardian', action: 'guardian-consented' } as never)
      .execute();
    await db.destroy();
    const store = await openStore(url);
    try {
      expect(await store.applications.idsByGuardianEmail('PAT@example.com')).toEqual(['consented']);
    } finally {
      await store.close();
    }
  } finally {
    await drop();
  }
});
