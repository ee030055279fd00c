import type BetterSqlite3 from 'better-sqlite3';
import type { ApplicationsTable, ChildRows, SavedApplication } from './schema';
import { TallyChanges, tallyEntries } from './tallies';

/** Writes group-commit batches of applications on one SQLite connection (see {@link openBatchWriter}). */
export interface BatchWriter {
  /**
   * Writes a batch in one transaction (one commit, one fsync); synchronous.
   * @param children - per row, the handle and answer rows to store when the row is stored now.
   * @returns per row: its own id when stored now; else the first row stored under its
   *   Idempotency-Key, with `conflict` when that row's body differs (byte for byte).
   * @throws the SQLite error when it refuses the batch (nothing of it is stored).
   */
  write(rows: ApplicationsTable[], children: ChildRows[]): SavedApplication[];
}

/**
 * The SQLite submit path's one insert (issue 5): a batch of applications, their handles and answers,
 * written with prepared statements on `db`, idempotent on `(page_id, idempotency_key)` (DESIGN §4).
 * The same code runs in the writer's thread (`sqlite-writer.worker.ts`, on a connection of its
 * own) and on the main thread (one core, or an in-memory database: on the store's connection).
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

  const insertAnswer = db.prepare(
    'insert into application_answers (application_id, page_id, key, value) values (@application_id, @page_id, @key, @value)',
  );

  // Issue 17: a slot of a page with a cap, taken in the application's transaction (migration 013).
  // A page whose cap was removed meanwhile takes one too: `taken` is counted again when a cap is set.
  const takeSlot = db.prepare<[string], { taken: number; max_applications: number | null }>(
    'update pages set taken = taken + 1 where id = ? and (max_applications is null or taken < max_applications) returning taken, max_applications',
  );

  // Issue 16: the batch's additions to the tallies (tallies.ts), summed, one upsert per row changed.
  const addTally = db.prepare(
    `insert into application_tallies (page_id, status, kind, key, value, n) values (@page_id, @status, @kind, @key, @value, @n)
     on conflict (kind, page_id, key, value, status) do update set n = n + excluded.n`,
  );

  /** The answer to a row whose key was stored before: the first row, with `conflict` when its body was another (issue 11: 422). */
  const replayOf = (first: { id: string; received_at: string; payload: string }, row: ApplicationsTable): SavedApplication => {
    const replay = { id: first.id, receivedAt: first.received_at, created: false };
    return first.payload === row.payload ? replay : { ...replay, conflict: true as const };
  };

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
        for (const answer of children[index]!.answers) insertAnswer.run(answer);
        tallies.add(row.page_id, row.status, tallyEntries(row.platform_names, children[index]!.answers), 1);
        return { id: row.id, receivedAt: row.received_at, created: true, ...(slot ? { taken: slot } : {}) };
      }
      // The idempotency key was stored before (DESIGN §4): answer with the first row.
      return replayOf(firstWithKey.get(row.page_id, row.idempotency_key)!, row);
    });
    for (const tally of tallies.rows()) addTally.run(tally);
    return saved;
  });
  return { write: (rows, children) => write(rows, children) };
}
