// The SQLite scrub after erasures (docs/decisions/005), in a thread of its own so that
// VACUUM never blocks the event loop. The store keeps its own connections idle while it runs.
// Started by SqliteErasureScrub (erasure-follow-up.ts) through startWorker.
//
// In (workerData): { file } — the database file.
// Message out, once: { scrubbed: boolean, error?: string }; then the thread ends.
import { parentPort, workerData } from 'node:worker_threads';
import { scrubDatabase } from './sqlite-file';

try {
  parentPort!.postMessage({ scrubbed: scrubDatabase((workerData as { file: string }).file) });
} catch (error) {
  parentPort!.postMessage({ scrubbed: false, error: error instanceof Error ? error.message : String(error) });
}
