// The SQLite writer thread: writes the submit path's batches (openBatchWriter in
// sqlite-batch-writer.ts, the same code the main thread runs when there is no thread), so the
// fsync of each commit (synchronous=FULL) blocks this thread, never the event loop that parses
// the next requests. Started by SqliteWriter (sqlite-writer.ts) through startWorker.
//
// In (workerData): { file } — the database file, already migrated by the main thread.
// Messages in:  WriterRequest — one batch, or a run of the answer index's follow-up; or 'close'.
// Messages out: WriterReply — the batch's results, or its error with the SQLite result code, so
// the main thread can tell a busy or full disk from a refused row.
import { parentPort, workerData } from 'node:worker_threads';
import { openBatchWriter } from './sqlite-batch-writer';
import { openDurableDatabase } from './sqlite-file';
import type { WriterReply, WriterRequest } from './sqlite-writer';

const port = parentPort!;
const db = openDurableDatabase((workerData as { file: string }).file);
const writer = openBatchWriter(db);

port.on('message', (message: WriterRequest | 'close') => {
  if (message === 'close') {
    db.close();
    port.close();
    return;
  }
  let reply: WriterReply;
  try {
    reply = { id: message.id, results: 'index' in message ? writer.index(message.index) : writer.write(message.rows, message.children) };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    reply = { id: message.id, error: error instanceof Error ? error.message : String(error), ...(typeof code === 'string' ? { code } : {}) };
  }
  port.postMessage(reply);
});
