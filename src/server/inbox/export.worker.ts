// The CSV export of applications in a thread of its own (docs/decisions/014), started
// by ExportThreads (export-threads.ts) through startWorker (../worker-thread.ts): one export at a
// time, at the lowest scheduling priority, so the main thread (submissions, health checks) always
// runs first, and the export's garbage is collected in this thread's own V8 heap.
//
// In (messages, ExportCommand): { type: 'job', job } — an export to run: where to connect, the
// filter, the answer columns (and whether a page version column follows the page), rows
// per batch; 'more' — the main thread wants the export's next chunk; 'close' — close the connection and end.
// Out (ExportMessage): { type: 'chunk', text } — the CSV rows of a couple of batches, some 64 K
// characters — or, for a gzip job, { type: 'bytes', bytes } — some 32 K of the gzip stream of the
// head and rows — each only after a 'more'; then { type: 'end' }, or { type: 'error', message }.
// After an end the thread waits for the next job (its connection kept open) or 'close'; after an
// error, or when the client goes away, the main thread terminates it.
//
// It runs the inbox's own exporter — ApplicationReader.exportApplications and applicationsCsv —
// on a connection of its own (openReadOnlyConnection): SQLite read-only, PostgreSQL a pool of one
// with the server's keepalive and query timeout (per page). It never migrates: the server did, before it served.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { Gzip } from 'fflate';
import { ApplicationReader } from '../store/applications';
import { openReadOnlyConnection } from '../store/connection';
import { POSTGRES_THREAD_EXPORT_ROWS_PER_QUERY, postgresExportReader, sqliteExportReader } from '../store/export-readers';
import { applicationsCsv, applicationsCsvHead } from './csv';
import { CLOSE, MORE, type ExportCommand, type ExportJob, type ExportMessage } from './export-threads';

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
interface Exporter {
  store: ApplicationReader;
  close: () => Promise<void>;
}

/** Opens an {@link Exporter} at `location`. */
async function openExporter(location: ExportJob['location']): Promise<Exporter> {
  const connection = await openReadOnlyConnection(location);
  // SQLite: Kysely only compiles the page queries; the reader runs them on the read-only connection.
  const exportPages = connection.sqlite
    ? { read: sqliteExportReader(connection.sqlite) }
    : {
        read: postgresExportReader(connection.pool, { timeoutMs: location.dialect === 'postgres' ? location.queryTimeoutMs : undefined }),
        rowsPerQuery: POSTGRES_THREAD_EXPORT_ROWS_PER_QUERY,
      };
  return { store: new ApplicationReader(connection.db, { exportPages }), close: connection.close };
}

const port = parentPort!;

/** The connection of the last job, kept for the next one from the same place. */
let opened: { key: string; exporter: Promise<Exporter> } | undefined;
let credits = 0;
let wake: (() => void) | undefined;

/** Resolves once the main thread has asked for a chunk it has not had yet. */
async function credit() {
  while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
  credits -= 1;
}

const post = (message: ExportMessage) => port.postMessage(message);

/**
 * Characters of CSV sent at a time: batches are gathered up to this (two of 200 rows, some 70 KB),
 * so the main thread relays some 250 chunks per 100 000 rows rather than 500; under V8's 128 KiB,
 * above which a string is allocated in the old generation.
 */
const CHUNK_CHARACTERS = 64 * 1024;

/** Where an export's CSV goes: to the main thread as text, or through gzip as bytes; each chunk after a credit. */
interface Sink {
  write(text: string): Promise<void>;
  /** Sends what is left. */
  end(): Promise<void>;
}

/** CSV text in chunks of {@link CHUNK_CHARACTERS} or more. */
function textSink(): Sink {
  let text = '';
  return {
    async write(chunk) {
      text += chunk;
      if (text.length < CHUNK_CHARACTERS) return;
      await credit();
      post({ type: 'chunk', text });
      text = '';
    },
    async end() {
      if (text === '') return;
      await credit();
      post({ type: 'chunk', text });
    },
  };
}

/**
 * Gzip bytes sent at a time, at least: some 32 K, the gzip of roughly three text chunks (CSV of
 * applications compresses about 5 to 1), so the main thread relays about as many messages.
 */
const GZIP_CHUNK_BYTES = 32 * 1024;

/**
 * The gzip stream (RFC 1952) of the CSV, compressed on this thread by fflate at zlib's default
 * level 6, so the compression runs at this thread's low priority. Node's own zlib streams would
 * run it on libuv's thread pool, at normal priority, beside the submissions.
 */
function gzipSink(): Sink {
  let pending: Uint8Array[] = [];
  let size = 0;
  const gzip = new Gzip({ level: 6 }, (data) => {
    if (data.length === 0) return;
    pending.push(data);
    size += data.length;
  });
  const send = async () => {
    await credit();
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const part of pending) {
      bytes.set(part, at);
      at += part.length;
    }
    pending = [];
    size = 0;
    port.postMessage({ type: 'bytes', bytes } satisfies ExportMessage, [bytes.buffer]);
  };
  return {
    async write(text) {
      gzip.push(Buffer.from(text, 'utf8'));
      if (size >= GZIP_CHUNK_BYTES) await send();
    },
    async end() {
      gzip.push(new Uint8Array(0), true);
      if (size > 0) await send();
    },
  };
}

/** Runs one export, chunk by chunk as the main thread asks, then posts its end or its error. */
async function run(job: ExportJob) {
  credits = 0;
  try {
    const sink = job.encoding === 'gzip' ? gzipSink() : textSink();
    // Compressed, the head is the first text of the gzip stream, sent with the first rows. (Not
    // flushed ahead of them: fflate 0.8.3's `flush` in the middle of a gzip stream gave bytes
    // that gunzip refused, "invalid stored block lengths".)
    if (job.encoding === 'gzip') await sink.write(applicationsCsvHead(job.columns, { pageVersion: job.pageVersion }));
    const key = JSON.stringify(job.location);
    if (opened?.key !== key) {
      const previous = opened;
      opened = undefined;
      await previous?.exporter.then((exporter) => exporter.close()).catch(() => undefined);
      opened = { key, exporter: openExporter(job.location) };
    }
    const { store } = await opened.exporter;
    const csv = applicationsCsv(store.exportApplications(job.filter, job.batchRows), job.columns, { head: false, strings: true, pageVersion: job.pageVersion });
    for await (const chunk of csv as AsyncIterable<string>) await sink.write(chunk);
    await sink.end();
    post({ type: 'end' });
  } catch (error) {
    // The connection may be what failed: the next job (there is none: the main thread ends this
    // thread after an error) would open another.
    opened = undefined;
    post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
}

const onMessage = (message: ExportCommand) => {
  if (message === MORE) {
    credits += 1;
    wake?.();
    wake = undefined;
  } else if (message === CLOSE) {
    // Nothing left to keep the thread alive once the connection is closed: it ends.
    port.off('message', onMessage);
    void opened?.exporter.then((exporter) => exporter.close()).catch(() => undefined);
  } else {
    void run(message.job);
  }
};

lowerPriority();
port.on('message', onMessage);
