// The SQLite connections of the store: their pragmas, and the submit path's batches written with prepared
// statements on a connection of their own (issue 5).
// Plain JavaScript so that it loads the same under tsx, Vitest and node, in a worker or not.
import Database from 'better-sqlite3';

/**
 * Opens a SQLite file as every connection of the store opens it: WAL, `synchronous=FULL` (a
 * committed transaction is on disk before the commit returns: issue 5, DESIGN §4), a busy
 * timeout of 5000 ms for the moments two connections write, and `secure_delete=ON`: what a
 * connection deletes or replaces (an erased row, a note's old text, a freed overflow page) is
 * overwritten with zeros rather than left in the file (issue 11; docs/decisions/005). The pragma
 * holds per connection, so every connection, the submit writer's included, is opened here.
 * @returns the better-sqlite3 connection.
 */
export function openDurableDatabase(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('secure_delete = ON');
  return db;
}

/**
 * Opens a batch writer on a migrated SQLite file.
 * @returns write(rows, handles) → results (synchronous: one transaction, one fsync), and close().
 */
export function openBatchWriter(file) {
  const db = openDurableDatabase(file);
  // The insert names the row's own columns (the store builds every row with all of them), so the
  // column list lives in one place: the ApplicationsTable type the rows are built from.
  const inserts = new Map();
  const insertFor = (row) => {
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
  const firstWithKey = db.prepare('select id, received_at from applications where page_id = ? and idempotency_key = ?');
  const insertHandle = db.prepare(
    'insert into application_handles (application_id, page_id, platform, handle) values (@application_id, @page_id, @platform, @handle)',
  );

  /** One transaction, one commit (one fsync) for the whole batch. */
  const writeBatch = db.transaction((rows, handles) =>
    rows.map((row, index) => {
      if (insertFor(row).run(row).changes === 1) {
        for (const handle of handles[index]) insertHandle.run(handle);
        return { id: row.id, receivedAt: row.received_at, created: true };
      }
      // The idempotency key was stored before (DESIGN §4): answer with the first row.
      const first = firstWithKey.get(row.page_id, row.idempotency_key);
      return { id: first.id, receivedAt: first.received_at, created: false };
    }),
  );
  return { write: writeBatch, close: () => db.close() };
}
