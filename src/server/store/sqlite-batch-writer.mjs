// Writes the submit path's batches with prepared statements on a connection of its own (issue 5).
// Plain JavaScript so that it loads the same under tsx, Vitest and node, in a worker or not.
import Database from 'better-sqlite3';

/**
 * Opens a batch writer on a migrated SQLite file.
 * @returns write(rows, handles) → results (synchronous: one transaction, one fsync), and close().
 */
export function openBatchWriter(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');

  const COLUMNS = [
    'id',
    'page_id',
    'idempotency_key',
    'email',
    'payload',
    'received_at',
    'user_agent',
    'status',
    'note',
    'first_name',
    'last_name',
    'country_code',
    'search_text',
    'platform_names',
  ];
  const insertApplication = db.prepare(
    `insert into applications (${COLUMNS.join(', ')}) values (${COLUMNS.map((c) => `@${c}`).join(', ')})
     on conflict (page_id, idempotency_key) do nothing`,
  );
  const firstWithKey = db.prepare('select id, received_at from applications where page_id = ? and idempotency_key = ?');
  const insertHandle = db.prepare(
    'insert into application_handles (application_id, page_id, platform, handle) values (@application_id, @page_id, @platform, @handle)',
  );

  /** One transaction, one commit (one fsync) for the whole batch. */
  const writeBatch = db.transaction((rows, handles) =>
    rows.map((row, index) => {
      if (insertApplication.run(row).changes === 1) {
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
