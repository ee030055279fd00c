// The SQLite checkpoint thread (SqliteCheckpoints in sqlite-checkpoints.ts, docs/decisions/022):
// copies the write-ahead log's committed pages into the database file every `intervalMs`
// (`wal_checkpoint(PASSIVE)`: it never waits for a reader or a writer), so that no commit of the
// store's does it and waits for its fsync. Started by SqliteCheckpoints through startWorker.
//
// In (workerData): { file, intervalMs, paused } — the database file, already migrated; the interval
// in ms; whether it starts paused.
// Messages in:  'pause' (answered 'paused' once no checkpoint runs, and none starts until
// 'resume'), 'resume', 'close' (the connection closes, the thread ends).
import { parentPort, workerData } from 'node:worker_threads';
import { openDurableDatabase } from './sqlite-file';
import type { CheckpointRequest } from './sqlite-checkpoints';

const port = parentPort!;
const { file, intervalMs, paused: startPaused } = workerData as { file: string; intervalMs: number; paused: boolean };
const db = openDurableDatabase(file);
let paused = startPaused;

const timer = setInterval(() => {
  if (paused) return;
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // The disk full, an I/O error: tried again at the next interval; the store's connections
    // checkpoint past their backstop meanwhile.
  }
}, intervalMs);

port.on('message', (message: CheckpointRequest) => {
  if (message === 'pause') {
    // Messages come between two runs of the timer: no checkpoint is running now.
    paused = true;
    port.postMessage('paused');
  } else if (message === 'resume') {
    paused = false;
  } else if (message === 'close') {
    clearInterval(timer);
    db.close();
    port.close();
  }
});
