import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import { benchPayload } from '../../../bench/client';
import { startServer, type RunningServer } from '../../../tests/e2e/support';
import { xsrfPair } from '../../../tests/support/xsrf';
import { newIdempotencyKey } from '../../shared/idempotency-key';
import { ANSWER_INDEX_BATCH } from './answer-index';
import { MAX_BATCH } from './group-commit';
import { openStore, type Store } from './store';

// The answer index (answer-index.ts, docs/decisions/022): an application's answer rows, answer
// tallies and search-index entry are written after its submit was answered. A server killed in
// between loses none of them: its queue entries are durable with the application, and the next
// start writes them.

/** Applicants submitting at once, fewer than a follow-up's worth (it then waits its delay). */
const APPLICANTS = 30;

/** `count` new applicants saved at once to `store` (the bench's applications, e-mail `creator.<tag>…`). */
function saveApplicants(store: Store, count: number, tag: string) {
  return Promise.all(
    Array.from({ length: count }, (_, n) => {
      const payload = benchPayload(n, tag);
      return store.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload });
    }),
  );
}

/** Resolves once some transaction of `database`'s server waits for a lock (PostgreSQL). */
async function lockAwaited(database: ExecDatabase) {
  await expect
    .poll(async () => Number((await database.query<{ n: unknown }>('select count(*) as n from pg_locks where not granted'))[0]!.n))
    .toBeGreaterThan(0);
}

describe('the answer index after a crash (SQLite, the real server)', () => {
  let server: RunningServer;

  beforeAll(async () => {
    // What is stored across processes and kills, not who sends it: no bot check (docs/decisions/032).
    server = await startServer({ BOT_CHECK: 'off' });
  });
  afterAll(() => server?.stop());

  /** What the file holds: applications, those queued, answer rows, search-index entries. */
  function counts() {
    const db = new Database(server.dbFile, { readonly: true });
    try {
      const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
      return {
        applications: count('select count(*) as n from applications'),
        queued: count('select count(*) as n from application_index_queue'),
        answered: count("select count(distinct application_id) as n from application_answers where key = 'howFamiliar'"),
        searchable: count(`select count(*) as n from applications_search where search_text match '"creator.crash"'`),
      };
    } finally {
      db.close();
    }
  }

  it('writes what a SIGKILL left queued at the next start, and the inbox finds every application', async () => {
    const { headers } = xsrfPair();
    const answers = await Promise.all(
      Array.from({ length: APPLICANTS }, (_, n) =>
        fetch(`${server.url}/api/syncPage/creators`, {
          method: 'PUT',
          headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': newIdempotencyKey() },
          body: JSON.stringify(benchPayload(n, 'crash')),
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    await server.halt('SIGKILL');
    const killed = counts();
    expect(killed.applications).toBe(APPLICANTS);
    // Killed before its follow-up: answered and durable, not indexed yet.
    expect(killed.queued).toBeGreaterThan(0);
    expect(killed.answered + killed.queued).toBe(APPLICANTS);

    await server.restart();
    await expect.poll(() => counts()).toEqual({ applications: APPLICANTS, queued: 0, answered: APPLICANTS, searchable: APPLICANTS });
  });
});

describe.each([
  ['SQLite', () => sqliteExecDatabase('answer-index-')],
  ['PostgreSQL', postgresExecDatabase],
])('the answer index on %s', (name, createDatabase) => {
  it('lets a read wait for every application stored before it, however many follow-ups that takes', async () => {
    const database = await createDatabase();
    const store = await openStore(database.url);
    try {
      const stored = ANSWER_INDEX_BATCH * 3 + 7;
      await saveApplicants(store, stored, 'wait');
      await store.applications.indexed();
      expect(Number((await database.query<{ n: unknown }>('select count(*) as n from application_index_queue'))[0]!.n)).toBe(0);
      expect((await store.applications.countApplications({ answer: ['howFamiliar:Super-Fan'] })).all).toBe(stored);
      expect((await store.applications.listApplications({ q: 'creator.wait' }, { limit: 1 })).length).toBe(1);
    } finally {
      await store.close();
      await database.drop();
    }
  });

  // SQLite runs the follow-up between two batches; PostgreSQL beside them, waiting for it once it is a batch behind.
  const behind = name === 'SQLite' ? 1 : 2;
  it(`keeps up with full batches: a burst leaves at most ${behind} batch(es) queued when its last submission is answered`, async () => {
    const database = await createDatabase();
    const store = await openStore(database.url);
    try {
      // Ten full batches at once: a follow-up between each two takes what the batch before stored.
      const stored = MAX_BATCH * 10;
      await saveApplicants(store, stored, 'burst');
      const queued = Number((await database.query<{ n: unknown }>('select count(*) as n from application_index_queue'))[0]!.n);
      expect(queued).toBeLessThanOrEqual(behind * MAX_BATCH);
      await store.applications.indexed();
      expect((await store.applications.countApplications({ answer: ['howFamiliar:Super-Fan'] })).all).toBe(stored);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});

describe('the answer index on PostgreSQL, beside another process', () => {
  it("lets a read wait for this process's applications when another process's follow-up took some of them", async () => {
    const database = await postgresExecDatabase();
    const store = await openStore(database.url);
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    const queued = async (tag: string) =>
      Number(
        (
          await database.query<{ n: unknown }>(
            `select count(*) as n from application_index_queue as q join applications as a on a.id = q.application_id where a.email like 'creator.${tag}%'`,
          )
        )[0]!.n,
      );
    try {
      await store.applications.indexed();
      // A follow-up run held up on the answer rows' table, while batches go on beside it.
      await holder.query('begin');
      await holder.query('lock table application_answers in share mode');
      await saveApplicants(store, ANSWER_INDEX_BATCH, 'held');
      await lockAwaited(database);
      await saveApplicants(store, 150, 'first');
      await saveApplicants(store, 150, 'second');
      // Another process's follow-up takes the queue's head: this process's first wave (the held run has the rest locked).
      await database.exec("delete from application_index_queue as q using applications as a where a.id = q.application_id and a.email like 'creator.first%'");
      const reading = store.applications.indexed();
      await holder.query('commit');
      await reading;
      expect(await queued('second')).toBe(0);
    } finally {
      await holder.end();
      await store.close();
      await database.drop();
    }
  });

  it("erases an application another process's follow-up is indexing: the erasure waits for it, neither deadlocks", async () => {
    const database = await postgresExecDatabase();
    const store = await openStore(database.url);
    const follower = new pg.Client({ connectionString: database.url });
    await follower.connect();
    try {
      const payload = benchPayload(0, 'erased');
      const { id } = await store.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload });
      await store.applications.indexed();
      // Queued again, as another process leaves what it stored; that process's follow-up takes the entry, then the application's row.
      await database.exec(`insert into application_index_queue (application_id) values ('${id}')`);
      await follower.query('begin');
      await follower.query('delete from application_index_queue where application_id = $1', [id]);
      const erasing = store.applications.eraseApplication(id, 'ana@brand.example');
      await lockAwaited(database);
      await follower.query('select id from applications where id = $1 for update', [id]);
      await follower.query('commit');
      await expect(erasing).resolves.toBe(true);
    } finally {
      await follower.end();
      await store.close();
      await database.drop();
    }
  });
});
