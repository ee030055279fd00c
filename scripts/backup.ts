/**
 * `npm run admin -- backup <dir>` and `restore <dir>` (docs/operations.md, decision 012 "Backups"):
 * the database and the uploads directory, taken together while the server runs.
 *
 * A backup directory holds `database.sqlite` (SQLite: `VACUUM INTO`, one read transaction, so a
 * consistent snapshot however many applications arrive meanwhile; never a copy of the WAL
 * database's file) or `database.pgdump` (PostgreSQL: `pg_dump --format=custom`, one snapshot),
 * then `uploads/` (the image files, copied after the snapshot: a file is written before any page
 * names it and never changed, so every file the snapshot names is there), then `manifest.json`,
 * written last: a directory without it is not a finished backup.
 */
import { spawn } from 'node:child_process';
import { constants, existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { parseDatabaseUrl } from '../src/server/store/connection';

/** What `manifest.json` says of a backup. */
export interface BackupManifest {
  /** This layout's version. */
  format: 1;
  /** When the database's snapshot was taken (ISO 8601, UTC). */
  createdAt: string;
  store: 'sqlite' | 'postgres';
  /** The database file in the directory: `database.sqlite` or `database.pgdump`. */
  database: string;
  /** Applications in the snapshot. */
  applications: number;
  /** Files copied into `uploads/`. */
  uploads: number;
}

/** A backup or restore that cannot be done; its message is the one line the command prints. */
export class BackupError extends Error {}

const MANIFEST = 'manifest.json';
const UPLOADS = 'uploads';

/**
 * Runs a PostgreSQL client program (`pg_dump`, `pg_restore`, found on PATH).
 * @param onLine - reads each line the program writes to stdout (else stdout is ignored).
 * @throws BackupError when it is not on PATH, or exits with an error (its stderr in the message).
 */
function runClient(program: string, args: string[], onLine?: (line: string) => void): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', onLine ? 'pipe' : 'ignore', 'pipe'] });
    let stderr = '';
    let rest = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) onLine!(line);
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new BackupError(
              `${program} was not found on PATH: install PostgreSQL's client programs (Debian: apt-get install postgresql-client), of the server's major version or newer.`,
            )
          : error,
      );
    });
    child.on('close', (code) => {
      if (code === 0) resolvePromise();
      else reject(new BackupError(`${program} failed (exit code ${code}): ${stderr.trim()}`));
    });
  });
}

/** The regular files of the uploads directory, without the temporary files of uploads under way (`.upload-….tmp`). */
async function uploadFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries.filter((entry) => entry.isFile() && !entry.name.startsWith('.')).map((entry) => entry.name);
}

/** Copies the upload files of `from` into `to`, keeping those already there (a name is its content's hash). */
async function copyUploads(from: string, to: string): Promise<number> {
  await mkdir(to, { recursive: true });
  const names = await uploadFiles(from);
  for (const name of names) {
    await copyFile(join(from, name), join(to, name), constants.COPYFILE_EXCL).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
  return names.length;
}

/** Opens PostgreSQL's client (loaded only for a PostgreSQL backup), runs `query`, and closes it. */
async function pgQuery<T>(url: string, query: string): Promise<T[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(query)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * Backs up the database of `databaseUrl` and the uploads directory into `dir` (created; it must be
 * empty), safely beside a running server.
 * @returns the manifest written.
 * @throws BackupError when `dir` is not empty, the SQLite file does not exist, or pg_dump is missing or fails.
 */
export async function backup(databaseUrl: string, uploadsDir: string, dir: string): Promise<BackupManifest> {
  const target = resolve(dir);
  await mkdir(target, { recursive: true });
  if ((await readdir(target)).length > 0) throw new BackupError(`${target} is not empty: back up into a new directory.`);
  const location = parseDatabaseUrl(databaseUrl);
  const createdAt = new Date().toISOString();
  let manifest: BackupManifest;
  if (location.dialect === 'sqlite') {
    if (location.file === ':memory:' || !existsSync(location.file)) throw new BackupError(`DATABASE_URL: there is no SQLite file at ${location.file}.`);
    const database = 'database.sqlite';
    const db = new Database(location.file, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      // One read transaction: a consistent snapshot while the server writes; free pages (erased
      // applications' old bytes, docs/decisions/005) are not copied.
      db.prepare('VACUUM INTO ?').run(join(target, database));
    } finally {
      db.close();
    }
    const copy = new Database(join(target, database), { readonly: true });
    const { count } = copy.prepare('select count(*) as count from applications').get() as { count: number };
    copy.close();
    manifest = { format: 1, createdAt, store: 'sqlite', database, applications: count, uploads: 0 };
  } else {
    const database = 'database.pgdump';
    await runClient('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', '--file', join(target, database), '--dbname', location.url]);
    const list = await listDump(join(target, database));
    manifest = { format: 1, createdAt, store: 'postgres', database, applications: list, uploads: 0 };
  }
  manifest.uploads = await copyUploads(uploadsDir, join(target, UPLOADS));
  await writeFile(join(target, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx' });
  return manifest;
}

/**
 * The applications in a PostgreSQL dump: `pg_restore` writes the table's data as SQL to stdout, and
 * its COPY lines are counted.
 */
async function listDump(file: string): Promise<number> {
  let rows = 0;
  let inCopy = false;
  await runClient('pg_restore', ['--data-only', '--table=applications', '--file=-', file], (line) => {
    if (line.startsWith('COPY ')) inCopy = true;
    else if (line === '\\.') inCopy = false;
    else if (inCopy) rows += 1;
  });
  return rows;
}

/**
 * Restores the backup in `dir` into the database of `databaseUrl` and the uploads directory. The
 * database must be new: SQLite, no file there yet; PostgreSQL, an existing database without tables
 * (`createdb`). Start the server on it afterwards: it migrates a backup made by an older version.
 * @returns the backup's manifest.
 * @throws BackupError when `dir` holds no finished backup, the backup is of the other store, the
 *   target is not new, or pg_restore is missing or fails.
 */
export async function restore(dir: string, databaseUrl: string, uploadsDir: string): Promise<BackupManifest> {
  const source = resolve(dir);
  const manifest = (await readFile(join(source, MANIFEST), 'utf8').then(
    (text) => JSON.parse(text) as BackupManifest,
    () => undefined,
  )) as BackupManifest | undefined;
  if (manifest?.format !== 1) throw new BackupError(`${source} holds no finished backup (no ${MANIFEST}: npm run admin -- backup writes it last).`);
  const location = parseDatabaseUrl(databaseUrl);
  if (manifest.store !== location.dialect) {
    throw new BackupError(
      `This is a ${manifest.store === 'sqlite' ? 'SQLite' : 'PostgreSQL'} backup; DATABASE_URL names a ${location.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} database.`,
    );
  }
  const file = join(source, manifest.database);
  if (location.dialect === 'sqlite') {
    if (location.file === ':memory:') throw new BackupError('DATABASE_URL: restore into a SQLite file, not :memory:.');
    for (const existing of [location.file, `${location.file}-wal`]) {
      if (existsSync(existing))
        throw new BackupError(`${resolve(existing)} exists: restore into a new file (stop the server and move the old one away first).`);
    }
    await mkdir(dirname(resolve(location.file)), { recursive: true });
    await copyFile(file, location.file, constants.COPYFILE_EXCL);
  } else {
    const [tables] = await pgQuery<{ count: string }>(
      location.url,
      "select count(*) as count from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
    );
    const count = Number(tables?.count ?? 0);
    if (count > 0) throw new BackupError(`The database of DATABASE_URL has ${count} tables: restore into a new, empty database (createdb).`);
    await runClient('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', '--dbname', location.url, file]);
  }
  if ((await stat(join(source, UPLOADS)).catch(() => undefined))?.isDirectory()) await copyUploads(join(source, UPLOADS), uploadsDir);
  return manifest;
}
