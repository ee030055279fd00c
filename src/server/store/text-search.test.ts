import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicantPayload } from '../../../tests/factories/application';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import type { ApplicationFilter } from '../../shared/admin';
import { openStore, type Store } from './store';

// The search box (`q`) and free-text answer filters (`contains`) through the trigram
// indexes of migration 010 find what reading every row found: any part of a name, e-mail or
// handle, case aside, quotes and like's wildcards taken literally, short texts too; and an erased
// application is found no more, before and after the scrub that follows an erasure.

describe.each([
  ['SQLite', () => sqliteExecDatabase('text-search-')],
  ['PostgreSQL', postgresExecDatabase],
])('text search on %s', (_name, createDatabase: () => Promise<ExecDatabase>) => {
  let database: ExecDatabase;
  let store: Store;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    database = await createDatabase();
    store = await openStore(database.url);
    const people = [
      ['Ada', 'Lovelace', 'ada.makes', 'A castle of "putty"'],
      ['Zoë', 'Ørsted', 'zoe_100%', 'Stop motion with 50% less dough'],
      ['Bo', 'Li', 'bo', 'Unboxing'],
      ['Élan', 'Été', 'elan', `ÉCOLE de pâte, ΟΔΟΣ; ${'long '.repeat(50)}then SpanÉx7 past the first 200 characters`],
    ] as const;
    for (const [first, last, handle, dream] of people) {
      const payload = applicantPayload({
        firstName: first,
        lastName: last,
        email: `${handle.replace(/\W/g, '')}@example.com`,
        instagram: handle,
        fields: { dreamCampaign: dream },
      });
      ids.set(first, (await store.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload })).id);
    }
  }, 60_000);

  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  const names = async (filter: ApplicationFilter) => (await store.applications.listApplications(filter, { limit: 10 })).map((row) => row.firstName).sort();

  it('finds any part of a name, an e-mail or a handle, case aside', async () => {
    expect(await names({ q: 'LOVELACE' })).toEqual(['Ada']);
    expect(await names({ q: 'ada lov' })).toEqual(['Ada']);
    expect(await names({ q: 'ørsted' })).toEqual(['Zoë']);
    expect(await names({ q: 'ZOË' })).toEqual(['Zoë']);
    expect(await names({ q: '@example.com' })).toEqual(['Ada', 'Bo', 'Zoë', 'Élan']);
    // Shorter than a trigram: still found.
    expect(await names({ q: 'li' })).toEqual(['Bo']);
    expect(await names({ q: 'b' })).toEqual(['Bo']);
  });

  it('takes quotes and like wildcards literally', async () => {
    expect(await names({ q: 'zoe_100%' })).toEqual(['Zoë']);
    expect(await names({ q: '100%' })).toEqual(['Zoë']);
    expect(await names({ q: '%' })).toEqual(['Zoë']);
    expect(await names({ q: '_' })).toEqual(['Zoë']);
    expect(await names({ q: '"ada' })).toEqual([]);
    expect(await names({ contains: ['dreamCampaign:"putty"'] })).toEqual(['Ada']);
    expect(await names({ contains: ['dreamCampaign:50%'] })).toEqual(['Zoë']);
    expect(await names({ contains: ['dreamCampaign:PUTTY'] })).toEqual(['Ada']);
    expect(await names({ contains: ['dreamCampaign:x"y OR z'] })).toEqual([]);
  });

  it('folds the case of every letter, not only ASCII, short texts and the part past 200 characters included, alike in the list and the export', async () => {
    const exported = async (filter: ApplicationFilter) => {
      const rows: string[] = [];
      for await (const batch of store.applications.exportApplications(filter, 10)) rows.push(...batch.map((row) => row.firstName));
      return rows.sort();
    };
    // Three letters or more through the trigram index, fewer row by row; the list and the export alike.
    for (const text of ['école', 'ÉCOLE', 'éc', 'É', 'ΟΔΟΣ', 'spanéx7', 'SpanÉx7']) {
      const filter: ApplicationFilter = { contains: [`dreamCampaign:${text}`] };
      expect(await names(filter), text).toEqual(['Élan']);
      expect(await exported(filter), text).toEqual(['Élan']);
      // The status tabs count from the answer rows (and the payload past their 200 characters).
      expect((await store.applications.countApplications(filter)).all, text).toBe(1);
      expect(
        (await store.applications.countApplications({ ...filter, answer: ['howFamiliar:Super-Fan', 'howFamiliar:Unfamiliar', 'howFamiliar:Used to love it'] }))
          .all,
        text,
      ).toBe(
        (
          await store.applications.listApplications(
            { ...filter, answer: ['howFamiliar:Super-Fan', 'howFamiliar:Unfamiliar', 'howFamiliar:Used to love it'] },
            { limit: 10 },
          )
        ).length,
      );
    }
    expect(await names({ q: 'ÉTÉ' })).toEqual(['Élan']);
  });

  it('counts what the search finds', async () => {
    expect(await store.applications.countApplications({ q: 'example' })).toEqual({ new: 4, shortlisted: 0, accepted: 0, declined: 0, all: 4 });
    expect(await store.applications.countApplications({ contains: ['dreamCampaign:dough'] })).toEqual({
      new: 1,
      shortlisted: 0,
      accepted: 0,
      declined: 0,
      all: 1,
    });
  });

  it('finds an erased application no more, and the others still, after the scrub', async () => {
    await store.applications.eraseApplication(ids.get('Ada')!, 'ana@brand.example');
    expect(await names({ q: 'lovelace' })).toEqual([]);
    expect(await names({ contains: ['dreamCampaign:castle'] })).toEqual([]);
    await store.applications.flushErasures();
    expect(await names({ q: 'lovelace' })).toEqual([]);
    expect(await names({ q: 'example.com' })).toEqual(['Bo', 'Zoë', 'Élan']);
    expect(await names({ contains: ['dreamCampaign:dough'] })).toEqual(['Zoë']);
  });

  it('finds a name ending in a final sigma however it is typed, as the stored text was lower-cased', async () => {
    // JavaScript lower-cases a word's last capital sigma to ς, PostgreSQL's `lower` to σ: both sides are folded by JavaScript.
    const payload = applicantPayload({ firstName: 'Νίκος', lastName: 'Παπαδόπουλος', email: 'nikos@greek.test', instagram: 'nikos', fields: {} });
    await store.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload });
    for (const text of ['ΠΑΠΑΔΌΠΟΥΛΟΣ', 'Παπαδόπουλος', 'παπαδόπουλος', 'ΝΊΚΟΣ ΠΑΠ']) {
      expect(await names({ q: text }), text).toEqual(['Νίκος']);
      expect((await store.applications.countApplications({ q: text })).all, text).toBe(1);
    }
  });
});

describe("the search index's statistics on SQLite", () => {
  it("keeps none for the FTS5 index's own tables, from an empty start and after a restart: taken small, they made every submit past 75 000 applications 60 times dearer", async () => {
    const database = await sqliteExecDatabase('fts-statistics-');
    const file = database.url.replace(/^sqlite:/, '');
    const ftsStatistics = () => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare("select tbl from sqlite_stat1 where tbl like 'applications_search%'").all();
      } finally {
        db.close();
      }
    };
    try {
      const empty = await openStore(database.url);
      await empty.close();
      expect(ftsStatistics()).toEqual([]);
      // A file whose statistics were taken small (before this rule): forgotten at the next start.
      const db = new Database(file);
      db.prepare("insert into sqlite_stat1 (tbl, idx, stat) values ('applications_search_data', null, '2')").run();
      db.close();
      const restarted = await openStore(database.url);
      await restarted.close();
      expect(ftsStatistics()).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});
