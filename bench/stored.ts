/**
 * Stores that already hold many applications, for the bench's "at scale" figures (a
 * million). Filling a million rows through the store's own write path takes minutes, so the
 * first run keeps a filled template — a SQLite file under `.bench-cache/`, a PostgreSQL template
 * database — and every measurement gets a fresh copy of it (a file copy; `create database …
 * template …`). A template is named after the row count and the schema's migrations, so a new
 * migration makes a new one; `BENCH_CACHE=off` fills afresh and keeps nothing.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, mkdtempSync, openSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openStore } from '../src/server/store/store';
import { migrationProvider } from '../src/server/store/migrations';
import { scrubDatabase } from '../src/server/store/sqlite-file';
import { TEST_DATABASE_URL } from '../tests/support/postgres';
import { BENCH_PAGE_ID, benchPayload } from './client';

const CACHE_DIR = fileURLToPath(new URL('../.bench-cache/', import.meta.url));
const KEEP = process.env.BENCH_CACHE !== 'off';

/** A database for one measurement, and how to throw it away. */
export interface BenchDatabase {
  url: string;
  drop: () => Promise<void>;
}

/** Short fingerprint of the schema: the migrations' names. */
async function schemaTag(): Promise<string> {
  const names = Object.keys(await migrationProvider.getMigrations()).sort();
  const last = names
    .at(-1)!
    .replace(/[^a-z0-9]+/gi, '_')
    .toLowerCase();
  return `${names.length}_${last.slice(0, 24)}`;
}

/**
 * Stores `rows` applications through the store's own write path (group commit, the indexed
 * columns and handle rows a real submission gets), each a distinct applicant with an
 * Idempotency-Key, as the wizard sends them.
 * @returns the time it took, in s.
 */
async function fill(url: string, rows: number, log: (line: string) => void): Promise<number> {
  const store = await openStore(url, { sqliteWriterThread: false, scrubOnOpen: false });
  const started = performance.now();
  try {
    const inFlight = 4000;
    for (let start = 0; start < rows; start += inFlight) {
      const batch = [];
      for (let n = start; n < Math.min(rows, start + inFlight); n++) {
        const payload = benchPayload(n, 'fill');
        batch.push(
          store.applications.save({
            pageId: BENCH_PAGE_ID,
            idempotencyKey: randomUUID(),
            emailAddress: payload.personalInfo.emailAddress,
            payload,
            payloadJson: JSON.stringify(payload),
          }),
        );
      }
      await Promise.all(batch);
      if ((start / inFlight) % 50 === 49) log(`  … ${start + inFlight} rows, ${Math.round((performance.now() - started) / 1000)} s`);
    }
  } finally {
    await store.close();
  }
  return Math.round((performance.now() - started) / 1000);
}

/** A SQLite file holding `rows` applications (a copy of the cached template). */
export async function filledSqlite(rows: number, log: (line: string) => void = console.log): Promise<BenchDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  const file = join(dir, 'applications.db');
  const template = join(CACHE_DIR, `sqlite-${rows}-${await schemaTag()}.db`);
  if (KEEP && existsSync(template)) {
    copyFileSync(template, file);
  } else {
    log(`filling a SQLite file with ${rows} applications (once: kept in .bench-cache/)`);
    const seconds = await fill(`sqlite:${file}`, rows, log);
    // As a served file is: scrubbed and marked so (the server scrubs a file not marked, at start).
    scrubDatabase(file);
    log(`  filled in ${seconds} s`);
    if (KEEP) {
      mkdirSync(CACHE_DIR, { recursive: true });
      copyFileSync(file, `${template}.part`);
      renameSync(`${template}.part`, template);
    }
  }
  // On disk before anything is measured: a copy's dirty pages written back during a measurement
  // would queue before every fsync of the submit path.
  const handle = openSync(file, 'r+');
  fsyncSync(handle);
  closeSync(handle);
  return { url: `sqlite:${file}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A PostgreSQL database (on `TEST_DATABASE_URL`'s server) holding `rows` applications. */
export async function filledPostgres(rows: number, log: (line: string) => void = console.log): Promise<BenchDatabase> {
  const template = `bench_template_${rows}_${await schemaTag()}`;
  const name = `bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const exists = await admin(async (client) => (await client.query('select 1 from pg_database where datname = $1', [template])).rowCount === 1);
  const urlOf = (database: string) => {
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${database}`;
    return url.toString();
  };
  if (!KEEP || !exists) {
    const building = `${template}_part`;
    await admin(async (client) => {
      await client.query(`drop database if exists ${building} with (force)`);
      await client.query(`create database ${building}`);
    });
    log(`filling a PostgreSQL database with ${rows} applications (once: kept as template ${template})`);
    const seconds = await fill(urlOf(building), rows, log);
    log(`  filled in ${seconds} s`);
    await admin(async (client) => {
      const target = KEEP ? template : name;
      await client.query(`alter database ${building} rename to ${target}`);
    });
    if (!KEEP) return { url: urlOf(name), drop: () => admin(async (client) => void (await client.query(`drop database if exists ${name} with (force)`))) };
  }
  await admin(async (client) => {
    // A file copy and a checkpoint, not the whole database written through the WAL (PostgreSQL
    // 15's default strategy), which the measurement would then pay for in checkpoints.
    await client.query(`create database ${name} template ${template} strategy file_copy`);
  });
  const url = urlOf(name);
  // A copied database starts without planner statistics until autovacuum's first pass: gather them.
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('analyze');
  await client.end();
  return { url, drop: () => admin(async (other) => void (await other.query(`drop database if exists ${name} with (force)`))) };
}
