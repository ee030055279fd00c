// The CSV export of applications in a thread of its own (issue 12; docs/decisions/014), started
// by ExportThreads (export-threads.ts) through startWorker (../worker-thread.ts): one thread per
// export, at the lowest scheduling priority, so the main thread (submissions, health checks)
// always runs first, and the export's garbage is collected in this thread's own V8 heap.
//
// In (workerData): an ExportJob — where to connect, the filter, the answer columns, rows per batch.
// In (messages): 'more' — the main thread wants the next chunk.
// Out: one { type: 'chunk', data } per batch (the CSV rows, UTF-8, the ArrayBuffer transferred),
// each only after a 'more'; then { type: 'end' }, or { type: 'error', message }. The thread then
// closes its connection and ends. The main thread terminates it when the client goes away.
//
// It runs the inbox's own exporter — KyselyAdminStore.exportApplications and applicationsCsv —
// on a connection of its own: SQLite read-only, PostgreSQL a pool of one with the server's query
// timeout and keepalive. It never migrates: the server did, before it served.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { KyselyAdminStore } from '../store/admin-store';
import type { Database } from '../store/application-store';
import { POSTGRES_EXPORT_ROWS_PER_QUERY, postgresExportReader, sqliteExportReader } from '../store/export-readers';
import { createPostgresPool } from '../store/postgres-pool';
import { openReadOnlyDatabase } from '../store/sqlite-batch-writer.mjs';
import { applicationsCsv } from './csv';
import { MORE, type ExportJob, type ExportMessage } from './export-threads';

/** The lowest priority there is (`nice` 19). */
const LOWEST_PRIORITY = 19;

/**
 * Lowers this thread's scheduling priority to the lowest. On Linux `setpriority(2)` with pid 0
 * applies to the calling thread only (each thread has its own nice value; check with
 * `ps -L -o tid,ni -p <pid>`): the main thread keeps its own. Elsewhere it would lower the whole
 * process's priority, so it is left alone there. Raising one's own nice value needs no privilege.
 */
function lowerPriority() {
  if (process.platform !== 'linux') return;
  try {
    setPriority(LOWEST_PRIORITY);
  } catch {
    // A container that forbids it: the export still runs, at the priority it has.
  }
}

/** The store's exporter on a connection of this thread's own, and how to close it. */
async function openExporter(location: ExportJob['location']): Promise<{ store: KyselyAdminStore; close: () => Promise<void> }> {
  if (location.dialect === 'sqlite') {
    const db = openReadOnlyDatabase(location.file);
    // Kysely only compiles the page queries here; the reader runs them on `db`.
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: db }) });
    return { store: new KyselyAdminStore(kysely, undefined, { read: sqliteExportReader(db) }), close: async () => void db.close() };
  }
  const pool = await createPostgresPool(location.url, { queryTimeoutMs: location.queryTimeoutMs, max: 1 });
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    store: new KyselyAdminStore(kysely, undefined, { read: postgresExportReader(pool), rowsPerQuery: POSTGRES_EXPORT_ROWS_PER_QUERY }),
    close: () => pool.end(),
  };
}

const port = parentPort!;
const job = workerData as ExportJob;

let credits = 0;
let wake: (() => void) | undefined;
const onMessage = (message: unknown) => {
  if (message !== MORE) return;
  credits += 1;
  wake?.();
  wake = undefined;
};
port.on('message', onMessage);

/** Resolves once the main thread has asked for a chunk it has not had yet. */
async function credit() {
  while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
  credits -= 1;
}

const post = (message: ExportMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

/** Sends a chunk, its memory moved to the main thread rather than copied (a copy when it shares a pool). */
function send(chunk: Buffer) {
  const whole = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength && chunk.buffer instanceof ArrayBuffer;
  const data = whole ? (chunk.buffer as ArrayBuffer) : new Uint8Array(chunk).buffer;
  post({ type: 'chunk', data }, [data]);
}

lowerPriority();
try {
  const { store, close } = await openExporter(job.location);
  try {
    const csv = applicationsCsv(store.exportApplications(job.filter, job.batchRows), job.columns, { head: false });
    for await (const chunk of csv as AsyncIterable<Buffer>) {
      await credit();
      send(chunk);
    }
    post({ type: 'end' });
  } finally {
    await close().catch(() => undefined);
  }
} catch (error) {
  post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
} finally {
  // Nothing left to keep the thread alive: it ends.
  port.off('message', onMessage);
}
