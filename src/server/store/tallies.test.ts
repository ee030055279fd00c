import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicantPayload } from '../../../tests/factories/application';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import type { ApplicationFilter } from '../../shared/admin';
import { openConnection, parseDatabaseUrl } from './connection';
import { migration as tallyMigration } from './migrations/2026-11-27-009-tallies';
import { migration as answerStatusMigration } from './migrations/2026-11-27-011-answer-status';
import { migration as countedAnswersMigration } from './migrations/2026-11-28-016-counted-answers';
import { migration as answerProfilesMigration } from './migrations/2026-11-28-017-answer-profiles';
import { migration as profilesByNumberMigration } from './migrations/2026-12-01-029-answer-profiles-by-number';
import { openStore, type Store } from './store';
import type { SummaryRequest } from './summary';
import { TallyChanges, countingTally, talliesServe } from './tallies';

// The tallies (migration 009) answer the status tabs and the summary for a page and a
// status as counting the rows would, after submits, decisions, bulk decisions and erasures, and
// after the migration fills them from rows stored before it.

const REQUEST: SummaryRequest = {
  platforms: ['instagram', 'tiktok', 'youtube'],
  questions: [
    { key: 'howFamiliar', kind: 'choice', options: ['Super-Fan', 'Unfamiliar'] },
    { key: 'whichProducts', kind: 'multiple', options: ['Thinking Putty', 'Land of Dough'] },
    { key: 'dreamCampaign', kind: 'text', options: [] },
  ],
};

/** A filter that matches every row `filter` matches but that the tallies do not serve: the rows are counted. */
const counted = (filter: ApplicationFilter): ApplicationFilter => ({ ...filter, from: '2000-01-01' });

it('serves a filter of a page and a status only', () => {
  expect(talliesServe({})).toBe(true);
  expect(talliesServe({ pageId: 'creators', status: 'new', q: '  ', answer: [] })).toBe(true);
  expect(talliesServe({ pageId: 'creators', q: 'lena' })).toBe(false);
  expect(talliesServe({ answer: ['howFamiliar:Super-Fan'] })).toBe(false);
  expect(talliesServe(counted({}))).toBe(false);
  expect(countingTally({ pageId: 'creators' })).toEqual({ kind: 'application', key: '', value: '' });
  expect(countingTally({ answer: ['howFamiliar:Super-Fan', 'howFamiliar:Super-Fan'] })).toEqual({ kind: 'answer', key: 'howFamiliar', value: 'Super-Fan' });
  expect(countingTally({ answer: ['howFamiliar:Super-Fan', 'howFamiliar:Unfamiliar'] })).toBeUndefined();
  expect(countingTally({ answer: ['howFamiliar:Super-Fan'], country: 'FR' })).toBeUndefined();
  // As the list reads them: a blank search is none, a blank tag is a tag no application has.
  expect(talliesServe({ pageId: '', q: ' ' })).toBe(true);
  expect(talliesServe({ tag: ' ' })).toBe(false);
});

it('orders its rows by code point, as PostgreSQL\'s collate "C" does (one lock order for every writer)', () => {
  const changes = new TallyChanges();
  changes.add(
    'p',
    'new',
    [
      { kind: 'answer', key: 'k', value: '😀' },
      { kind: 'answer', key: 'k', value: 'Ａ' },
      { kind: 'answer', key: 'k', value: 'a' },
    ],
    1,
  );
  expect(changes.rows().map((row) => row.value)).toEqual(['a', 'Ａ', '😀']);
});

describe.each([
  ['SQLite', () => sqliteExecDatabase('tallies-')],
  ['PostgreSQL', postgresExecDatabase],
])('tallies on %s', (_name, createDatabase: () => Promise<ExecDatabase>) => {
  let database: ExecDatabase;
  let store: Store;
  const ids: string[] = [];

  beforeAll(async () => {
    database = await createDatabase();
    store = await openStore(database.url);
    const people = [
      [
        'Ada',
        'creators',
        { instagram: 'ada', country: 'US' },
        { howFamiliar: 'Super-Fan', whichProducts: 'Thinking Putty, Land of Dough', dreamCampaign: 'A castle of putty' },
      ],
      ['Kai', 'creators', { tiktok: 'kai' }, { howFamiliar: 'Super-Fan', whichProducts: 'Land of Dough', dreamCampaign: 'A video' }],
      ['Lena', 'creators', { instagram: 'lena', tiktok: 'lena' }, { howFamiliar: 'Unfamiliar', dreamCampaign: 'Stop motion' }],
      [
        'Omar',
        'creators',
        { tiktok: 'omar', country: 'FR' },
        { howFamiliar: 'Used to love it', whichProducts: 'Gone Putty', dreamCampaign: 'Un CHÂTEAU de pâte à 300 \u212a' },
      ],
      ['Zoe', 'other', { instagram: 'zoe' }, { howFamiliar: 'Super-Fan', dreamCampaign: 'Only mine: erase me' }],
      ['Ivo', 'creators', {}, {}],
    ] as const;
    for (const [first, pageId, platforms, fields] of people) {
      // Ada and Kai answered before the page's choices were recorded (a page published while the
      // server had not recorded them yet): none of their answers is counted per value.
      if (first === 'Lena') {
        await store.applications.indexed();
        expect(await store.applications.countAnswersPerValue('creators', ['howFamiliar', 'whichProducts'])).toBe(true);
        expect(await store.applications.countAnswersPerValue('creators', ['whichProducts', 'howFamiliar'])).toBe(false);
      }
      const payload = applicantPayload({ firstName: first, lastName: 'Tester', email: `${first.toLowerCase()}@example.com`, ...platforms, fields });
      ids.push((await store.applications.save({ pageId, emailAddress: payload.personalInfo.emailAddress, payload })).id);
    }
    // The same Idempotency-Key twice stores (and tallies) one application.
    const payload = applicantPayload({ firstName: 'Rae', lastName: 'Tester', email: 'rae@example.com', fields: { howFamiliar: 'Super-Fan' } });
    for (let i = 0; i < 2; i++) await store.applications.save({ pageId: 'creators', idempotencyKey: 'rae-once', emailAddress: 'rae@example.com', payload });
  }, 60_000);

  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  /** Every filter of a page and status, read from the tallies and counted on the rows: the same. */
  async function expectTalliesToMatchTheRows() {
    for (const pageId of [undefined, 'creators', 'other']) {
      const base: ApplicationFilter = pageId ? { pageId } : {};
      expect(await store.applications.countApplications(base)).toEqual(await store.applications.countApplications(counted(base)));
      // One answer to one question: counted by its tally too.
      for (const answer of ['howFamiliar:Super-Fan', 'whichProducts:Land of Dough', 'whichProducts:Thinking Putty, Land of Dough', 'dreamCampaign:A video']) {
        const filter: ApplicationFilter = { ...base, answer: [answer] };
        expect(await store.applications.countApplications(filter), answer).toEqual(await store.applications.countApplications(counted(filter)));
      }
      // Several answers and texts: counted on the answer rows, which keep each application's status (migration 011).
      for (const terms of [
        { answer: ['howFamiliar:Super-Fan', 'whichProducts:Land of Dough'] },
        { answer: ['whichProducts:Thinking Putty', 'whichProducts:Land of Dough'] },
        { contains: ['dreamCampaign:a'] },
        { answer: ['howFamiliar:Super-Fan'], contains: ['dreamCampaign:castle'] },
        // With a country: the answer rows keep their application's (migration 029).
        { contains: ['dreamCampaign:a'], country: 'US' },
        { contains: ['dreamCampaign:â'], country: 'FR' },
        // An ASCII text, and a letter past ASCII that lower-cases to ASCII (the Kelvin sign: "k").
        { contains: ['dreamCampaign:300 k'] },
      ]) {
        const filter: ApplicationFilter = { ...base, ...terms };
        expect(await store.applications.countApplications(filter), JSON.stringify(terms)).toEqual(await store.applications.countApplications(counted(filter)));
      }
      for (const status of [undefined, 'new', 'shortlisted', 'accepted', 'declined'] as const) {
        const filter: ApplicationFilter = { ...base, ...(status ? { status } : {}) };
        expect(await store.summary.summarize(filter, REQUEST)).toEqual(await store.summary.summarize(filter, REQUEST, { rows: true }));
        // A period holding every application: the tallies less the none outside it; and one
        // holding none (it ends before any was received): its rows, none.
        expect(await store.summary.summarize(counted(filter), REQUEST)).toEqual(await store.summary.summarize(filter, REQUEST, { rows: true }));
        expect(await store.summary.summarize({ ...filter, to: '2000-01-01' }, REQUEST)).toEqual(
          await store.summary.summarize({ ...filter, to: '2000-01-01' }, REQUEST, { rows: true }),
        );
        // Under a filter no tally serves: each matched application's profile, and the rows of those
        // without one (stored before the page's choices were recorded), as counted on the rows.
        for (const terms of [{ platform: 'tiktok' as const }, { q: 'example' }, { country: 'US' }]) {
          const other: ApplicationFilter = { ...filter, ...terms };
          expect(await store.summary.summarize(other, REQUEST), JSON.stringify(other)).toEqual(await store.summary.summarize(other, REQUEST, { rows: true }));
        }
        // Under a free-text `contains`: from the profiles of the rows the text matches (a few
        // applications' rows carry none: those counted the same), as counted on the applications' rows.
        for (const terms of [
          { contains: ['dreamCampaign:a'] },
          { contains: ['dreamCampaign:PUTTY '] },
          { contains: ['dreamCampaign:o'], answer: ['howFamiliar:Super-Fan', 'howFamiliar:Unfamiliar'] },
          { contains: ['dreamCampaign:o'], answer: ['whichProducts:Land of Dough'], platform: 'tiktok' as const },
          { contains: ['dreamCampaign:nobody wrote this'] },
          // Case aside past ASCII too (each row's value folded once when written, or by migration 029).
          { contains: ['dreamCampaign:château'] },
          { contains: ['dreamCampaign:ÂteaU'] },
          { contains: ['dreamCampaign:château'], country: 'FR' },
          { contains: ['dreamCampaign:300 k'] },
          { contains: ['dreamCampaign:château'], country: 'US' },
          { contains: ['dreamCampaign:a'], country: 'US', answer: ['howFamiliar:Super-Fan'] },
        ]) {
          const texts: ApplicationFilter = { ...filter, ...terms };
          expect(await store.summary.summarize(texts, REQUEST), JSON.stringify(texts)).toEqual(await store.summary.summarize(texts, REQUEST, { rows: true }));
        }
      }
    }
  }

  it('counts what was submitted, a replayed Idempotency-Key once', async () => {
    expect(await store.applications.countApplications({ pageId: 'creators' })).toEqual({ new: 6, shortlisted: 0, accepted: 0, declined: 0, all: 6 });
    const summary = await store.summary.summarize({ pageId: 'creators' }, REQUEST);
    expect(summary.matched).toBe(6);
    expect(summary.platforms).toEqual({ instagram: 2, tiktok: 3, youtube: 0 });
    expect(summary.questions[0]).toEqual({ answered: 5, options: [3, 1], other: 1 });
    expect(summary.questions[1]).toEqual({ answered: 3, options: [1, 2], other: 1 });
    await expectTalliesToMatchTheRows();
  });

  it('keeps no tally row per free-text answer: only the answers to the questions the page offers as choices are counted per value', async () => {
    const tallied = await database.query<{ kind: string; key: string; value: string; n: number | string }>(
      "select kind, key, value, sum(n) as n from application_tallies where kind in ('answer', 'uncounted') group by kind, key, value order by kind, key, value",
    );
    // No free text in the tallies: each applicant's own text would be a row of its own.
    expect(tallied.filter((row) => row.key === 'dreamCampaign' && row.kind === 'answer')).toEqual([]);
    expect(JSON.stringify(tallied)).not.toMatch(/castle|video|Stop motion|erase me/);
    // The choices, counted per value from the applications stored once they were recorded (Lena's, Omar's, Rae's)…
    expect(tallied.filter((row) => row.kind === 'answer').map((row) => [row.key, row.value, Number(row.n)])).toEqual([
      ['howFamiliar', 'Super-Fan', 1],
      ['howFamiliar', 'Unfamiliar', 1],
      ['howFamiliar', 'Used to love it', 1],
      ['whichProducts', 'Gone Putty', 1],
    ]);
    // …and per question, the applications whose answers are not (Ada's and Kai's, and every free text).
    expect(tallied.filter((row) => row.kind === 'uncounted').map((row) => [row.key, Number(row.n)])).toEqual([
      ['dreamCampaign', 5],
      ['howFamiliar', 3],
      ['whichProducts', 2],
    ]);
    // Each answer row says which it is, and the whole answer of a question not counted per value carries its application's profile.
    const [ada] = await database.query<{ rows: string }>(
      `select count(*) as rows from application_answers where tallied = 0 and profile_id is not null and application_id = '${ids[0]}'`,
    );
    expect(Number(ada!.rows)).toBe(3);
    const [lena] = await database.query<{ profile: string }>(
      `select p.profile as profile from application_answers as a join answer_profiles as p on p.id = a.profile_id where a.application_id = '${ids[2]}' and a.key = 'dreamCampaign'`,
    );
    expect(JSON.parse(lena!.profile)).toEqual([
      ',instagram,tiktok,',
      [
        ['dreamCampaign', null],
        ['howFamiliar', ['Unfamiliar']],
      ],
    ]);
  });

  it('counts one answer to a question with answers not counted per value on its rows, exactly', async () => {
    // Kai's "Super-Fan" is not in the tallies: its rows count it.
    expect(await store.applications.countApplications({ pageId: 'creators', answer: ['howFamiliar:Super-Fan'] })).toEqual({
      new: 3,
      shortlisted: 0,
      accepted: 0,
      declined: 0,
      all: 3,
    });
    expect((await store.applications.countApplications({ answer: ['dreamCampaign:A video'] })).all).toBe(1);
    const summary = await store.summary.summarize({ pageId: 'creators' }, REQUEST);
    expect(summary.questions[0]).toEqual({ answered: 5, options: [3, 1], other: 1 });
  });

  it('counts a page whose versions ask more questions than a statement may bind, from the tallies and from the rows (fourth attack, F3)', async () => {
    const many: SummaryRequest['questions'] = Array.from({ length: 70_000 }, (_, index) => ({ key: `q${index}`, kind: 'choice' as const, options: ['a'] }));
    const request: SummaryRequest = { platforms: REQUEST.platforms, questions: [...many, ...REQUEST.questions] };
    const filter = { pageId: 'creators' };
    for (const rows of [false, true]) {
      const summary = await store.summary.summarize(filter, request, { rows });
      expect(summary.questions).toHaveLength(70_003);
      expect(summary.questions[0]).toEqual({ answered: 0, options: [0], other: 0 });
      expect(summary.questions.slice(70_000)).toEqual((await store.summary.summarize(filter, REQUEST)).questions);
    }
  });

  it('counts several answers, with other filters or alone, as the list lists them', async () => {
    const filters: ApplicationFilter[] = [
      { answer: ['howFamiliar:Super-Fan', 'whichProducts:Land of Dough'] },
      // Alternatives of one multi-select question: Ada has both, and counts once.
      { answer: ['whichProducts:Thinking Putty', 'whichProducts:Land of Dough', 'howFamiliar:Super-Fan'] },
      { answer: ['howFamiliar:Super-Fan', 'howOften:Never'] },
      { answer: ['howFamiliar:Super-Fan', 'whichProducts:Land of Dough'], platform: 'tiktok' },
      { answer: ['howFamiliar:Super-Fan'], q: 'ada' },
      { answer: ['howFamiliar:Super-Fan', 'howFamiliar:Unfamiliar'], pageId: 'creators', contains: ['dreamCampaign:castle'] },
    ];
    for (const filter of filters) {
      const listed = await store.applications.listApplications(filter, { limit: 100 });
      const counts = await store.applications.countApplications(filter);
      expect(counts.all, JSON.stringify(filter)).toBe(listed.length);
      expect(counts.new, JSON.stringify(filter)).toBe(listed.filter((row) => row.status === 'new').length);
    }
    expect((await store.applications.countApplications(filters[0]!)).all).toBe(2);
    expect((await store.applications.countApplications(filters[1]!)).all).toBe(2);
  });

  it('follows each decision, one at a time and in bulk, and each erasure', async () => {
    await store.applications.updateApplication(ids[0]!, { status: 'shortlisted' }, 'ana@brand.example');
    await store.applications.updateApplication(ids[0]!, { note: 'No status change' }, 'ana@brand.example');
    await store.applications.setStatuses([ids[1]!, ids[2]!, ids[3]!], 'accepted', 'ana@brand.example');
    await store.applications.setStatuses([ids[2]!], 'declined', 'ana@brand.example');
    await store.applications.setStatuses([ids[2]!], 'declined', 'ana@brand.example');
    expect(await store.applications.countApplications({ pageId: 'creators' })).toEqual({ new: 2, shortlisted: 1, accepted: 2, declined: 1, all: 6 });
    await expectTalliesToMatchTheRows();

    await store.applications.eraseApplication(ids[4]!, 'ana@brand.example');
    await store.applications.eraseApplication(ids[2]!, 'ana@brand.example');
    expect(await store.applications.countApplications({})).toEqual({ new: 2, shortlisted: 1, accepted: 2, declined: 0, all: 5 });
    await expectTalliesToMatchTheRows();
  });

  it('stay exact when the same applications are decided and erased at the same time', async () => {
    const payload = (n: number) =>
      applicantPayload({
        firstName: `Race${n}`,
        lastName: 'Tester',
        email: `race${n}@example.com`,
        tiktok: `race${n}`,
        fields: { howFamiliar: 'Super-Fan', dreamCampaign: `Race secret ${n}` },
      });
    const raced: string[] = [];
    for (let n = 0; n < 8; n++)
      raced.push((await store.applications.save({ pageId: 'creators', emailAddress: `race${n}@example.com`, payload: payload(n) })).id);
    const statuses = ['accepted', 'declined', 'shortlisted', 'new'] as const;
    // The same application decided twice at once, bulk decisions on overlapping sets in other orders, and decisions racing erasures.
    await Promise.all([
      store.applications.updateApplication(raced[0]!, { status: 'accepted' }, 'a@brand.example'),
      store.applications.updateApplication(raced[0]!, { status: 'accepted' }, 'b@brand.example'),
      ...Array.from({ length: 6 }, (_, n) => store.applications.updateApplication(raced[1]!, { status: statuses[n % 4]! }, 'a@brand.example')),
      ...Array.from({ length: 6 }, (_, n) =>
        store.applications.setStatuses(n % 2 ? raced.slice(2, 6) : raced.slice(2, 6).reverse(), statuses[n % 4]!, 'a@brand.example'),
      ),
      store.applications.updateApplication(raced[6]!, { status: 'accepted' }, 'a@brand.example'),
      store.applications.eraseApplication(raced[6]!, 'b@brand.example'),
      store.applications.eraseApplication(raced[7]!, 'b@brand.example'),
      store.applications.setStatuses([raced[7]!, raced[5]!], 'declined', 'a@brand.example'),
      // Submissions written meanwhile (on SQLite by the writer's own connection: no decision may meet SQLITE_BUSY).
      ...Array.from({ length: 10 }, (_, n) =>
        store.applications.save({ pageId: 'creators', emailAddress: `race${10 + n}@example.com`, payload: payload(10 + n) }),
      ),
    ]);
    await expectTalliesToMatchTheRows();
    expect(await database.query(`select * from application_tallies where value like 'Race secret 6%' or value like 'Race secret 7%'`)).toEqual([]);
  });

  it('lets the team create tags and save views while applications are submitted (no SQLITE_BUSY)', async () => {
    const payload = (n: number) =>
      applicantPayload({ firstName: `Busy${n}`, lastName: 'Tester', email: `busy${n}@example.com`, fields: { howFamiliar: 'Super-Fan' } });
    // SQLite's submit writer on a thread and connection of its own, as the server runs it.
    await store.close();
    store = await openStore(database.url, { sqliteWriterThread: true });
    for (let round = 0; round < 3; round++) {
      const results = await Promise.allSettled([
        ...Array.from({ length: 30 }, (_, n) => store.tags.create(`Busy tag ${round}.${n}`)),
        ...Array.from({ length: 30 }, (_, n) => store.views.save('user-1', `View ${round}.${n}`, 'status=new', 1000)),
        ...Array.from({ length: 60 }, (_, n) =>
          store.applications.save({ pageId: 'creators', emailAddress: `busy${round}.${n}@example.com`, payload: payload(round * 100 + n) }),
        ),
      ]);
      expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    }
    await expectTalliesToMatchTheRows();
  });

  it('keeps nothing of an erased applicant: the free text only they wrote leaves no tally', async () => {
    const kept = await store.summary.summarize(
      { pageId: 'other' },
      { platforms: [], questions: [{ key: 'dreamCampaign', kind: 'choice', options: ['Only mine: erase me'] }] },
    );
    expect(kept).toEqual({ matched: 0, platforms: {}, questions: [{ answered: 0, options: [0], other: 0 }] });
    // Read on a connection of the test's own, as anyone with the file or the database would.
    expect(await database.query(`select * from application_tallies where value like '%erase me%' or page_id = 'other'`)).toEqual([]);
  });

  it('keeps nothing of an erased applicant in the answer profiles: a profile goes with the last row naming it', async () => {
    // A question the page offers as a choice by the time the answers are indexed: its value (here
    // the applicant's own words, written against an earlier version) is counted per value, and
    // held by the answer profile its free-text answer names.
    expect(await store.applications.countAnswersPerValue('third', ['dreamCampaign'])).toBe(true);
    const third: string[] = [];
    for (const first of ['Uma', 'Vic']) {
      const payload = applicantPayload({
        firstName: first,
        lastName: 'Tester',
        email: `${first}@example.com`,
        fields: { dreamCampaign: 'My secret words', howFamiliar: 'Mine' },
      });
      third.push((await store.applications.save({ pageId: 'third', emailAddress: payload.personalInfo.emailAddress, payload })).id);
    }
    await store.applications.indexed();
    const profiles = () => database.query<{ n: number | string }>(`select n from answer_profiles where profile like '%secret words%'`);
    expect((await profiles()).map((row) => Number(row.n))).toEqual([2]);
    await store.applications.eraseApplication(third[0]!, 'ana@brand.example');
    expect((await profiles()).map((row) => Number(row.n))).toEqual([1]);
    await store.applications.eraseApplication(third[1]!, 'ana@brand.example');
    expect(await profiles()).toEqual([]);
    expect(await database.query(`select * from application_tallies where page_id = 'third'`)).toEqual([]);
  });

  // PostgreSQL, where several processes write at once (SQLite takes one writer at a time; two
  // stores in one test process would wait on each other's lock with the event loop held).
  it.skipIf(_name === 'SQLite')('keep each answer profile named exactly while two processes index and erase at once', async () => {
    const other = await openStore(database.url);
    try {
      const save = (target: Store, i: number) => {
        const payload = applicantPayload({ firstName: `P${i}`, lastName: 'Tester', email: `p${i}@example.com`, fields: { dreamCampaign: `Race ${i}` } });
        return target.applications.save({ pageId: 'fourth', emailAddress: payload.personalInfo.emailAddress, payload });
      };
      const first = await Promise.all(Array.from({ length: 20 }, (_, i) => save(i % 2 ? other : store, i)));
      await Promise.all([store.applications.indexed(), other.applications.indexed()]);
      // The last rows naming the profile erased while the same profile is named again by both.
      const [, second] = await Promise.all([
        Promise.all(first.map((saved, i) => (i % 2 ? store : other).applications.eraseApplication(saved.id, 'ana@brand.example'))),
        Promise.all(Array.from({ length: 20 }, (_, i) => save(i % 2 ? store : other, 100 + i))),
      ]);
      await Promise.all([store.applications.indexed(), other.applications.indexed()]);
      const named = async () =>
        (
          await database.query<{ id: number; n: number | string; rows: number | string }>(
            `select p.id as id, p.n as n, (select count(*) from application_answers as a where a.profile_id = p.id) as rows from answer_profiles as p`,
          )
        ).filter((row) => Number(row.n) !== Number(row.rows));
      expect(await named()).toEqual([]);
      expect(
        await database.query(
          `select a.profile_id from application_answers as a left join answer_profiles as p on p.id = a.profile_id where a.profile_id is not null and p.id is null`,
        ),
      ).toEqual([]);
      expect(
        await database.query<{ n: number | string }>(`select count(*) as n from application_answers where page_id = 'fourth' and profile_id is not null`),
      ).toEqual([{ n: expect.anything() }]);
      for (const saved of second) await store.applications.eraseApplication(saved.id, 'ana@brand.example');
      expect(await named()).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('are filled by migration 009 from the rows stored before it', async () => {
    const before = await store.applications.countApplications({});
    await store.close();
    await database.exec('drop table application_tallies; drop index applications_id_status_page_id');
    const connection = await openConnection(parseDatabaseUrl(database.url));
    try {
      await tallyMigration.up(connection.db);
    } finally {
      await connection.db.destroy();
    }
    store = await openStore(database.url);
    expect(await store.applications.countApplications({})).toEqual(before);
    await expectTalliesToMatchTheRows();
  });

  it('keep the answer profiles and the answers folded as written through migration 029 (past ASCII too)', async () => {
    await store.close();
    const connection = await openConnection(parseDatabaseUrl(database.url));
    try {
      await profilesByNumberMigration.down!(connection.db);
      await profilesByNumberMigration.up(connection.db);
    } finally {
      await connection.db.destroy();
    }
    store = await openStore(database.url);
    const [omar] = await database.query<{ folded: string; profile: string }>(
      `select a.folded as folded, p.profile as profile from application_answers as a join answer_profiles as p on p.id = a.profile_id
        where a.application_id = '${ids[3]}' and a.key = 'dreamCampaign'`,
    );
    expect(omar).toEqual({ folded: 'un château de pâte à 300 k', profile: expect.stringContaining('Used to love it') });
    await expectTalliesToMatchTheRows();
  });

  it("keep each answer row's status from migration 011, for applications decided before it", async () => {
    await store.close();
    const connection = await openConnection(parseDatabaseUrl(database.url));
    try {
      // Migration 016 indexes the status (and 017 and 029 the profiles 016 added): taken down first, as a database of before it had none.
      await profilesByNumberMigration.down!(connection.db);
      await answerProfilesMigration.down!(connection.db);
      await countedAnswersMigration.down!(connection.db);
      await answerStatusMigration.down!(connection.db);
      await answerStatusMigration.up(connection.db);
      await countedAnswersMigration.up(connection.db);
      await answerProfilesMigration.up(connection.db);
      await profilesByNumberMigration.up(connection.db);
    } finally {
      await connection.db.destroy();
    }
    store = await openStore(database.url);
    const [decided] = await database.query<{ n: number | string }>("select count(*) as n from application_answers where status <> 'new'");
    expect(Number(decided!.n)).toBeGreaterThan(0);
    await expectTalliesToMatchTheRows();
  });
});
