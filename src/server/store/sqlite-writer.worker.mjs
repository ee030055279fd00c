// The SQLite writer thread (issue 5): writes the submit path's batches (sqlite-batch-writer.mjs),
// so the fsync of each commit (synchronous=FULL) blocks this thread, never the event loop that
// parses the next requests.
//
// In (workerData): { file } — the database file, already migrated by the main thread.
// Messages in:  { id, rows: ApplicationsTable[], handles: HandleRow[][] } — one batch; or 'close'.
// Messages out: { id, results: { id, receivedAt, created, conflict? }[] } or { id, error: string, code?: string }
// (the SQLite result code, so the main thread can tell a busy or full disk from a refused row).
import { parentPort, workerData } from 'node:worker_threads';
import { openBatchWriter } from './sqlite-batch-writer.mjs';

const writer = openBatchWriter(workerData.file);

parentPort.on('message', (message) => {
  if (message === 'close') {
    writer.close();
    parentPort.close();
    return;
  }
  try {
    parentPort.postMessage({ id: message.id, results: writer.write(message.rows, message.handles) });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error), code: error?.code });
  }
});
