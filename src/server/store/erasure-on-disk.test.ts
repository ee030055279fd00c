import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { applicantPayload } from '../../../tests/factories/application';
import { createTestDatabase } from '../../../tests/support/postgres';
import { openStore, type Store } from './store';
import { indexedColumns } from './indexed-columns';
import { migrationProvider } from './migrations';

/**
 * After an erasure no byte of the application remains on disk — on SQLite in
 * the database file, its -wal and its -shm, read as bytes; on PostgreSQL in any table. Every
 * field carries a string found nowhere else, so finding one finds a copy of the application.
 */
const REVIEWER = 'eve@brand.example';
const DREAM = Array.from({ length: 400 }, (_, i) => `Xylocarp-${i} parade of putty`).join(', '); // ~11 KB: overflow pages
const TARGET = {
  firstName: 'Quillonia',
  lastName: 'Ørsted-Zwyrbel',
  email: 'Zed.Quillonia+Erasure7@Example.COM',
  instagram: '@Quill.Zwyrbel.Makes',
  userAgent: 'ErasureProbe/9.7 (Zorblaxian Tablet; Vexmoor)',
  firstNote: 'Phoned Quillonia about the Glimmerquartz deal',
  secondNote: 'Second thoughts on Brackenfold',
};
/** The strings the store keeps, as it keeps them (the e-mail, names and handle also lower-cased). */
const STORED = [
  TARGET.firstName,
  TARGET.lastName,
  TARGET.email,
  TARGET.email.toLowerCase(),
  `${TARGET.firstName} ${TARGET.lastName}`.toLowerCase(),
  TARGET.instagram,
  TARGET.instagram.toLowerCase(),
  'quill.zwyrbel.makes',
  TARGET.userAgent,
  TARGET.secondNote,
  'Xylocarp-0 ',
  'Xylocarp-399 ',
];
/** What must be found nowhere after the erasure: every string, as sent and lower-cased, and the first note. */
const GONE = [
  ...new Set([...STORED, TARGET.firstNote, 'Xylocarp', 'Zorblaxian', 'Glimmerquartz', 'Brackenfold', 'Zwyrbel'].flatMap((s) => [s, s.toLowerCase()])),
];

const targetPayload = () =>
  applicantPayload({
    firstName: TARGET.firstName,
    lastName: TARGET.lastName,
    email: TARGET.email,
    country: 'NO',
    instagram: TARGET.instagram,
    fields: { howFamiliar: 'Super-Fan', dreamCampaign: DREAM },
  });

/** Stores `count` ordinary applications (one group commit), returning their ids. */
async function saveOthers(store: Store, count: number, from: number) {
  const saved = await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const n = from + i;
      const payload = applicantPayload({
        firstName: 'Kai',
        lastName: `Berg${n}`,
        email: `kai${n}@example.com`,
        instagram: `kai.${n}`,
        fields: { howFamiliar: 'Super-Fan', dreamCampaign: 'A putty castle '.repeat(n % 7) },
      });
      return store.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload, userAgent: 'Mozilla/5.0' });
    }),
  );
  return saved.map((s) => s.id);
}

/**
 * The target among 40 others, its note and status changed twice (each change writes new page
 * images; the first note must go too), others' statuses changed around it.
 * @returns the target's id and the others' ids.
 */
async function storeTarget(store: Store) {
  const before = await saveOthers(store, 20, 0);
  const target = await store.applications.save({
    pageId: 'creators',
    idempotencyKey: randomUUID(),
    emailAddress: TARGET.email,
    payload: targetPayload(),
    userAgent: TARGET.userAgent,
  });
  const after = await saveOthers(store, 20, 20);
  await store.applications.updateApplication(target.id, { status: 'shortlisted', note: TARGET.firstNote }, REVIEWER);
  await store.applications.setStatuses(before.slice(0, 10), 'declined', REVIEWER);
  await store.applications.updateApplication(target.id, { status: 'accepted', note: TARGET.secondNote }, REVIEWER);
  // A note of the thread naming the applicant, edited (its first text must go too), and a tag.
  const note = await store.notes.add(target.id, REVIEWER, 'Met Quill Zwyrbel at the Brackenfold fair');
  if (typeof note === 'string') throw new Error(note);
  await store.notes.edit(target.id, note.id, REVIEWER, 'Met Quill Zwyrbel at the fair; sent the Glimmerquartz kit');
  const tag = await store.tags.create('gifting');
  if (tag === 'full') throw new Error(tag);
  await store.tags.set(target.id, [tag.tag.id], REVIEWER);
  return { id: target.id, others: [...before, ...after] };
}

/** The SQLite files of a database, as bytes. */
const sqliteFiles = (file: string) => [file, `${file}-wal`, `${file}-shm`].filter(existsSync).map((path) => ({ path, bytes: readFileSync(path) }));

/** The strings found (UTF-8) in any of the database's files, with where. */
function foundInFiles(file: string, strings: string[]) {
  const files = sqliteFiles(file);
  return strings.flatMap((s) =>
    files.filter((f) => f.bytes.includes(Buffer.from(s, 'utf8'))).map((f) => `${s} in ${f.path.slice(file.length) || 'the database file'}`),
  );
}

const sqliteDirs: string[] = [];
afterEach(() => {
  for (const dir of sqliteDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const sqliteFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'erasure-'));
  sqliteDirs.push(dir);
  return join(dir, 'applications.db');
};

describe.each([
  ['a writer thread', true],
  ['the writer on the main thread', false],
])('erasure on SQLite, submissions written by %s', (_name, sqliteWriterThread) => {
  it('leaves no byte of the application in the database file, its -wal or its -shm', async () => {
    const file = sqliteFile();
    const store = await openStore(`sqlite:${file}`, { sqliteWriterThread });
    try {
      const { id, others } = await storeTarget(store);
      // The search sees what is there.
      expect(foundInFiles(file, STORED).map((hit) => hit.split(' in ')[0])).toEqual(expect.arrayContaining(STORED));
      // Read through the inbox's readers, which map the file as it is (sqlite-file.ts), before the scrub rewrites it.
      expect(await store.applications.listApplications({}, { limit: 100 })).toHaveLength(others.length + 1);

      expect(await store.applications.eraseApplication(id, REVIEWER)).toBe(true);
      await store.applications.flushErasures();

      expect(foundInFiles(file, GONE)).toEqual([]);
      expect(readFileSync(`${file}-wal`)).toHaveLength(0);
      // Nothing else went: the others, and the audit entries (none of which held the applicant's data).
      expect(await store.applications.listApplications({}, { limit: 100 })).toHaveLength(others.length);
      expect(foundInFiles(file, ['kai0@example.com', 'kai39@example.com'])).toHaveLength(2);
      const db = new Database(file, { readonly: true });
      const audit = db.prepare('select action from audit_log where application_id = ? order by id').all(id);
      db.close();
      expect(audit).toEqual([
        { action: 'status' },
        { action: 'note' },
        { action: 'note-added' },
        { action: 'status' },
        { action: 'note' },
        { action: 'note-added' },
        { action: 'note-added' },
        { action: 'note-edited' },
        { action: 'tagged' },
        { action: 'erased' },
      ]);
    } finally {
      await store.close();
    }
  });

  it('writes the submissions that arrive while the files are scrubbed, once it is done', async () => {
    const file = sqliteFile();
    const store = await openStore(`sqlite:${file}`, { sqliteWriterThread });
    try {
      const { id } = await storeTarget(store);
      await store.applications.eraseApplication(id, REVIEWER);
      const scrub = store.applications.flushErasures();
      const [saved] = await Promise.all([saveOthers(store, 20, 100), scrub]);
      expect(await Promise.all(saved.map(async (savedId) => (await store.applications.findById(savedId))?.email))).toEqual(
        saved.map((_, i) => `kai${100 + i}@example.com`),
      );
      expect(foundInFiles(file, GONE)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe('erasure on SQLite, beyond what secure_delete does', () => {
  it('leaves no old copy that a page rebuild made, after many applications, changes and erasures', async () => {
    // A fixed workload (mulberry32, seed 1). With secure_delete and the checkpoint alone, 3 of the
    // 61 erased applications stay in the file (SQLite 3.53.2): b-tree pages rebuilt by inserts and
    // note changes kept old copies of cells in their unused middle, index and table pages alike.
    let seed = 1;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const file = sqliteFile();
    const store = await openStore(`sqlite:${file}`, { sqliteWriterThread: false });
    try {
      const applications: { id: string; mark: string }[] = [];
      const saves = [];
      for (let i = 0; i < 400; i++) {
        const mark = `k${String(Math.floor(random() * 1e6)).padStart(6, '0')}q${String(i).padStart(4, '0')}`;
        const payload = applicantPayload({
          firstName: 'Ann',
          lastName: `L${mark}`,
          email: `${mark}@example.com`,
          instagram: `h${mark}`,
          fields: { howFamiliar: 'Super-Fan', dreamCampaign: 'A putty castle '.repeat(1 + Math.floor(random() * 8)) },
        });
        saves.push(
          store.applications
            .save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload })
            .then((saved) => applications.push({ id: saved.id, mark })),
        );
      }
      await Promise.all(saves);
      for (const application of applications) {
        if (random() < 0.5)
          await store.applications.updateApplication(application.id, { status: 'shortlisted', note: 'n'.repeat(Math.floor(random() * 300)) }, REVIEWER);
      }
      const erased = applications.filter(() => random() < 0.15);
      for (const application of erased) await store.applications.eraseApplication(application.id, REVIEWER);
      await store.applications.flushErasures();
      expect(erased).toHaveLength(61);
      expect(
        foundInFiles(
          file,
          erased.map((application) => application.mark),
        ),
      ).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("leaves none of it in the planner's statistics (sqlite_stat4 samples index keys)", async () => {
    const file = sqliteFile();
    const store = await openStore(`sqlite:${file}`, { sqliteWriterThread: false });
    try {
      const payload = targetPayload();
      const { id } = await store.applications.save({ pageId: 'creators', emailAddress: TARGET.email, payload });
      await saveOthers(store, 5, 0);
      // As the store's periodic `pragma optimize` does once the tables grew: every key of a small index is a sample.
      const analyzer = new Database(file);
      analyzer.exec('analyze');
      const samples = analyzer
        .prepare<[Buffer], { n: number }>('select count(*) as n from sqlite_stat4 where instr(sample, ?) > 0')
        .get(Buffer.from(TARGET.email.toLowerCase(), 'utf8'));
      analyzer.close();
      expect(samples?.n).toBeGreaterThan(0);

      expect(await store.applications.eraseApplication(id, REVIEWER)).toBe(true);
      await store.applications.flushErasures();
      expect(foundInFiles(file, GONE)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('scrubs at the next start an erasure its process did not get to scrub', async () => {
    const file = sqliteFile();
    const first = await openStore(`sqlite:${file}`);
    try {
      const { id } = await storeTarget(first);
      await first.applications.eraseApplication(id, REVIEWER);
      // As if the process had ended before its scrub: the next one to open the file scrubs it.
      const next = await openStore(`sqlite:${file}`);
      await next.close();
      expect(foundInFiles(file, GONE)).toEqual([]);
    } finally {
      await first.close();
    }
  });

  it('scrubs a file written before the store did, when it opens it', async () => {
    // As the store wrote before decision 005: no secure_delete; an application changed, then erased.
    const file = sqliteFile();
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: old }) });
    expect((await new Migrator({ db, provider: migrationProvider }).migrateToLatest()).error).toBeUndefined();
    const payload = targetPayload();
    const { handles, ...columns } = indexedColumns(payload);
    old
      .prepare(
        `insert into applications (id, page_id, email, payload, received_at, user_agent, first_name, last_name, country_code, search_text, platform_names)
         values ('old-1', 'creators', @email, @payload, '2026-01-02T03:04:05.000Z', @userAgent, @first_name, @last_name, @country_code, @search_text, @platform_names)`,
      )
      .run({ email: TARGET.email.toLowerCase(), payload: JSON.stringify(payload), userAgent: TARGET.userAgent, ...columns });
    // Its search-index entry, as the store's answer index writes it.
    old.prepare(`insert into applications_search (rowid, search_text) select rowid, search_text from applications where id = 'old-1'`).run();
    for (const handle of handles) old.prepare(`insert into application_handles values ('old-1', 'creators', ?, ?)`).run(handle.platform, handle.handle);
    old.prepare(`update applications set note = ? where id = 'old-1'`).run(TARGET.firstNote);
    old.exec(`delete from applications where id = 'old-1'; delete from application_handles where application_id = 'old-1'`);
    await db.destroy();
    expect(foundInFiles(file, GONE).length).toBeGreaterThan(0);

    const store = await openStore(`sqlite:${file}`);
    try {
      expect(foundInFiles(file, GONE)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe('erasure on PostgreSQL', () => {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('leaves the application in no table, and vacuums the tables it was stored in', async () => {
    database = await createTestDatabase();
    const store = await openStore(database.url);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      /** Every row of every table of the store, as text, lower-cased. */
      const everyTable = async () => {
        const tables = await client.query<{ name: string }>(
          `select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
        );
        const texts: { name: string; text: string }[] = [];
        for (const { name } of tables.rows) {
          const rows = await client.query<{ row: string }>(`select x::text as row from ${client.escapeIdentifier(name)} x`);
          texts.push({
            name,
            text: rows.rows
              .map((r) => r.row)
              .join('\n')
              .toLowerCase(),
          });
        }
        return (strings: string[]) => strings.flatMap((s) => texts.filter((t) => t.text.includes(s.toLowerCase())).map((t) => `${s} in ${t.name}`));
      };
      const { id, others } = await storeTarget(store);
      // Another applicant's note: ANALYZE of a table left empty keeps its old statistics (docs/decisions/005).
      await store.notes.add(others[0]!, REVIEWER, 'Ordinary note about Kai');
      // The planner's statistics sample column values (pg_statistic's most common values and histograms).
      await client.query('analyze');
      const statistics = async () =>
        (
          await client.query<{ text: string }>(
            `select coalesce(most_common_vals::text, '') || coalesce(histogram_bounds::text, '') as text from pg_stats where schemaname = current_schema()`,
          )
        ).rows
          .map((row) => row.text)
          .join('\n')
          .toLowerCase();
      expect(await statistics()).toContain(TARGET.email.toLowerCase());
      const before = await everyTable();
      expect(before(['quill.zwyrbel.makes']).sort()).toEqual(['quill.zwyrbel.makes in application_handles', 'quill.zwyrbel.makes in applications']);
      expect(before(STORED).map((hit) => hit.split(' in ')[0])).toEqual(expect.arrayContaining(STORED));

      expect(await store.applications.eraseApplication(id, REVIEWER)).toBe(true);
      await store.applications.flushErasures();

      expect((await everyTable())(GONE)).toEqual([]);
      const left = await statistics();
      expect(GONE.filter((gone) => left.includes(gone.toLowerCase()))).toEqual([]);
      const vacuumed = await client.query<{ relname: string }>(
        `select relname from pg_stat_user_tables where last_vacuum is not null and relname in ('applications', 'application_handles', 'application_notes', 'application_tags') order by relname`,
      );
      expect(vacuumed.rows.map((row) => row.relname)).toEqual(['application_handles', 'application_notes', 'application_tags', 'applications']);
    } finally {
      await client.end();
      await store.close();
    }
  });
});
