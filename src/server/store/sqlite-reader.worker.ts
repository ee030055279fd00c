// A SQLite reader thread: runs the inbox's reads (lists, counts, summaries) on a
// read-only connection of its own, so a read that takes long (a hostile filter, a summary of
// 100 000 applications) blocks this thread, never the event loop that answers applicants.
// Started by SqliteReadPool (sqlite-reader.ts) through startWorker.
//
// In (workerData): { file } — the database file, already migrated by the main thread.
// Messages in:  ReadRequest — one statement; 'reload' — open the file again (new planner
//               statistics); or 'close'.
// Messages out: 'ready' once the file is open; then a ReadReply per statement — its rows, or its
// error with the SQLite result code.
import type BetterSqlite3 from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { openReadOnlyDatabase } from './sqlite-file';
import type { ReadReply, ReadRequest } from './sqlite-reader';

const port = parentPort!;
const file = (workerData as { file: string }).file;
let db = openReadOnlyDatabase(file);
/** Prepared statements by SQL, the inbox's few shapes; dropped all at once past 500. */
const statements = new Map<string, BetterSqlite3.Statement>();
port.postMessage('ready');

port.on('message', (message: ReadRequest | 'close' | 'reload') => {
  if (message === 'close') {
    db.close();
    port.close();
    return;
  }
  if (message === 'reload') {
    // The planner's statistics are read when a connection opens (a read-only one cannot reload
    // them with `analyze sqlite_schema`): the store gathered new ones, so open again.
    statements.clear();
    db.close();
    db = openReadOnlyDatabase(file);
    return;
  }
  let reply: ReadReply;
  try {
    let statement = statements.get(message.sql);
    if (!statement) {
      if (statements.size >= 500) statements.clear();
      statement = db.prepare(message.sql);
      statements.set(message.sql, statement);
    }
    if (!statement.reader) throw Object.assign(new Error('A reader thread runs reads only'), { code: 'SQLITE_READONLY' });
    reply = { id: message.id, rows: statement.all(message.parameters) as Record<string, unknown>[] };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    reply = { id: message.id, error: error instanceof Error ? error.message : String(error), ...(typeof code === 'string' ? { code } : {}) };
  }
  port.postMessage(reply);
});
