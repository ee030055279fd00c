import type BetterSqlite3 from 'better-sqlite3';
import { indexedAnswers, readAnswerRows } from './answer-index';
import { SUBMITTED_EVENT, newEventId } from './outbox';
import type { AnswerRow, ApplicationsTable, ChildRows, SavedApplication } from './schema';
import { TallyChanges, answerTallyEntries, rowTallyEntries } from './tallies';

/** Writes group-commit batches of applications on one SQLite connection (see {@link openBatchWriter}). */
export interface BatchWriter {
  /**
   * Writes a batch in one transaction (one commit, one fsync); synchronous.
   * @param children - per row, the handle and answer rows to store when the row is stored now
   *   (the answer rows by {@link index}, after).
   * @returns per row: its own id when stored now; else the first row stored under its
   *   Idempotency-Key, with `conflict` when that row's body differs (byte for byte).
   * @throws the SQLite error when it refuses the batch (nothing of it is stored).
   */
  write(rows: ApplicationsTable[], children: ChildRows[]): SavedApplication[];
  /**
   * The follow-up (docs/decisions/022): writes the answer rows (each counted per value or not,
   * as its page's `tallied_questions` say: tallies.ts), answer tallies and search-index
   * entries of up to `limit` queued applications (`application_index_queue`) in one transaction,
   * without waiting for its fsync (what it writes is derived from rows already durable, and its
   * queue entries are removed in the same transaction: a crash loses both, and the next run writes
   * them again). Synchronous.
   * @returns how many queued applications it took (fewer than `limit`: the queue is empty now).
   * @throws the SQLite error when it cannot write (the queue keeps its entries).
   */
  index(limit: number): number;
}

/**
 * The SQLite submit path's one insert: a batch of applications, their handles and the
 * tallies of their rows, and each one's entry in the answer index's queue and its
 * `application.submitted` event in the outbox (outbox.ts), written with prepared
 * statements on `db`, idempotent on `(page_id, idempotency_key)` (requirements §13). The same code runs in
 * the writer's thread (`sqlite-writer.worker.ts`, on a connection of its own) and on the main
 * thread (one core, or an in-memory database: on the store's connection); so does its follow-up,
 * {@link BatchWriter.index}.
 * @param db - a connection to a migrated database, opened by `openDurableDatabase`.
 */
export function openBatchWriter(db: BetterSqlite3.Database): BatchWriter {
  // The insert names the row's own columns (the store builds every row with all of them), so the
  // column list lives in one place: the ApplicationsTable type the rows are built from.
  const inserts = new Map<string, BetterSqlite3.Statement>();
  const insertFor = (row: ApplicationsTable) => {
    const columns = Object.keys(row);
    const key = columns.join(',');
    let statement = inserts.get(key);
    if (!statement) {
      statement = db.prepare(
        `insert into applications (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})
         on conflict (page_id, idempotency_key) do nothing`,
      );
      inserts.set(key, statement);
    }
    return statement;
  };
  const firstWithKey = db.prepare<[string, string | null], { id: string; received_at: string; payload: string }>(
    'select id, received_at, payload from applications where page_id = ? and idempotency_key = ?',
  );
  const insertHandle = db.prepare(
    'insert into application_handles (application_id, page_id, platform, handle) values (@application_id, @page_id, @platform, @handle)',
  );
  const enqueue = db.prepare<[string]>('insert into application_index_queue (application_id) values (?)');
  // The outbox (outbox.ts): each application's `application.submitted`, in the batch's transaction.
  const submittedEvent = db.prepare<[string, string, string, string, string, string]>(
    'insert into outbox_events (event_id, type, occurred_at, page_id, application_id, data) values (?, ?, ?, ?, ?, ?)',
  );

  // A slot of a page with a cap, taken in the application's transaction (migration 013).
  // A page whose cap was removed meanwhile takes one too: `taken` is counted again when a cap is set.
  const takeSlot = db.prepare<[string], { taken: number; max_applications: number | null }>(
    'update pages set taken = taken + 1 where id = ? and (max_applications is null or taken < max_applications) returning taken, max_applications',
  );

  // A batch's additions to the tallies (tallies.ts), summed, one upsert per row changed.
  const addTally = db.prepare(
    `insert into application_tallies (page_id, status, kind, key, value, n) values (@page_id, @status, @kind, @key, @value, @n)
     on conflict (kind, page_id, key, value, status) do update set n = n + excluded.n`,
  );

  /** The answer to a row whose key was stored before: the first row, with `conflict` when its body was another (422). */
  const replayOf = (first: { id: string; received_at: string; payload: string }, row: ApplicationsTable): SavedApplication => {
    const replay = { id: first.id, receivedAt: first.received_at, created: false };
    return first.payload === row.payload ? replay : { ...replay, conflict: true as const };
  };

  /**
   * The answer rows of the applications this connection stored and has not indexed yet, by id: the
   * follow-up writes them as the submit made them, without reading the payload again (a queued
   * application stored before this process started is read from its payload).
   */
  const unindexed = new Map<string, AnswerRow[]>();

  /** One transaction, one commit (one fsync) for the whole batch. */
  const write = db.transaction((rows: ApplicationsTable[], children: ChildRows[]) => {
    const tallies = new TallyChanges();
    const saved = rows.map((row, index): SavedApplication => {
      let slot: SavedApplication['taken'];
      if (children[index]!.slot) {
        // A replay of a stored application answers as the first time, full page or not.
        const first = row.idempotency_key === null ? undefined : firstWithKey.get(row.page_id, row.idempotency_key);
        if (first) return replayOf(first, row);
        const taken = takeSlot.get(row.page_id);
        if (!taken) return { id: '', receivedAt: '', created: false, full: true };
        slot = { taken: taken.taken, max: taken.max_applications };
      }
      if (insertFor(row).run(row).changes === 1) {
        for (const handle of children[index]!.handles) insertHandle.run(handle);
        enqueue.run(row.id);
        submittedEvent.run(newEventId(), SUBMITTED_EVENT.type, row.received_at, row.page_id, row.id, SUBMITTED_EVENT.data);
        tallies.add(row.page_id, row.status, rowTallyEntries(row.platform_names), 1);
        return { id: row.id, receivedAt: row.received_at, created: true, ...(slot ? { taken: slot } : {}) };
      }
      // The idempotency key was stored before (requirements §13): answer with the first row.
      return replayOf(firstWithKey.get(row.page_id, row.idempotency_key)!, row);
    });
    for (const tally of tallies.rows()) addTally.run(tally);
    return saved;
  });

  const queued = db.prepare<[number], { application_id: string }>('select application_id from application_index_queue order by application_id limit ?');
  const stored = db.prepare<[string], { rowid: number; page_id: string; status: string; search_text: string; platform_names: string; country_code: string }>(
    'select rowid, page_id, status, search_text, platform_names, country_code from applications where id = ?',
  );
  const payloadOf = db.prepare<[string], { payload: string }>('select payload from applications where id = ?');
  // On a row not counted per value (migration 029): `folded`, lower-cased as `casefold` folds it, and its application's country.
  const insertAnswer = db.prepare<[string, string, string, string, string, number, number | null, string | null, string | null]>(
    'insert into application_answers (application_id, page_id, key, value, status, tallied, profile_id, folded, country_code) values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  // Each distinct answer profile once, by number, counting the rows that name it (migration 029):
  // one upsert a profile a transaction, by the rows of the transaction that name it.
  const nameProfile = db.prepare<[string, number], { id: number }>(
    'insert into answer_profiles (profile, n) values (?, ?) on conflict (profile) do update set n = answer_profiles.n + excluded.n returning id',
  );
  // The questions a page offers as choices (migration 016): only their answers are counted per value.
  const talliedQuestions = db.prepare<[string], { key: string }>('select key from tallied_questions where page_id = ?');
  const insertSearch = db.prepare<[number, string]>('insert into applications_search (rowid, search_text) values (?, ?)');
  const dequeue = db.prepare<[string]>('delete from application_index_queue where application_id = ?');

  const indexQueued = db.transaction((ids: string[]) => {
    const tallies = new TallyChanges();
    // Per page, read once a transaction: the questions listed now decide the rows written now.
    const talliedOf = new Map<string, Set<string>>();
    const talliedKeys = (pageId: string) => {
      let keys = talliedOf.get(pageId);
      if (!keys) talliedOf.set(pageId, (keys = new Set(talliedQuestions.all(pageId).map((question) => question.key))));
      return keys;
    };
    const indexed: { id: string; row: NonNullable<ReturnType<typeof stored.get>>; answers: ReturnType<typeof indexedAnswers> }[] = [];
    // The rows naming each profile, for one upsert a profile.
    const naming = new Map<string, number>();
    for (const id of ids) {
      // Read in this transaction: the status a decision gave meanwhile, or no row (erased).
      const row = stored.get(id);
      if (row) {
        const answers = indexedAnswers(
          unindexed.get(id) ?? readAnswerRows(id, row.page_id, payloadOf.get(id)?.payload),
          talliedKeys(row.page_id),
          row.platform_names,
        );
        for (const { profile } of answers) if (profile !== null) naming.set(profile, (naming.get(profile) ?? 0) + 1);
        indexed.push({ id, row, answers });
      }
      dequeue.run(id);
    }
    const profileIds = new Map([...naming].map(([profile, rows]) => [profile, nameProfile.get(profile, rows)!.id]));
    for (const { id, row, answers } of indexed) {
      for (const answer of answers) {
        const [folded, country] = answer.tallied ? [null, null] : [answer.value.toLowerCase(), row.country_code];
        const profileId = answer.profile === null ? null : profileIds.get(answer.profile)!;
        insertAnswer.run(id, row.page_id, answer.key, answer.value, row.status, answer.tallied, profileId, folded, country);
      }
      tallies.add(row.page_id, row.status, answerTallyEntries(answers), 1);
      insertSearch.run(row.rowid, row.search_text);
    }
    for (const tally of tallies.rows()) addTally.run(tally);
  });

  return {
    write(rows, children) {
      const saved = write(rows, children);
      saved.forEach((result, index) => {
        if (result.created) unindexed.set(result.id, children[index]!.answers);
      });
      return saved;
    },
    index(limit) {
      // This connection's own first; else the queue's head (what an earlier process left).
      const own = [...unindexed.keys()].slice(0, limit);
      const ids = own.length > 0 ? own : queued.all(limit).map((row) => row.application_id);
      if (ids.length === 0) return 0;
      db.pragma('synchronous = NORMAL');
      try {
        // `begin immediate`: the write lock first, waited for as a batch waits for it (a read first
        // could not take it once another connection had written since, and would fail at once).
        indexQueued.immediate(ids);
      } finally {
        db.pragma('synchronous = FULL');
      }
      for (const id of ids) unindexed.delete(id);
      return ids.length;
    },
  };
}
