/**
 * The store's SQLite files: how every connection opens one (its pragmas), and the scrub after
 * erasures. No Kysely here: the writer and scrub threads load this module alone.
 */
import Database from 'better-sqlite3';

/**
 * Opens a SQLite file as every connection of the store opens it: WAL, `synchronous=FULL` (a
 * committed transaction is on disk before the commit returns: requirements §13, decision 002), a busy
 * timeout of 5000 ms for the moments two connections write, and `secure_delete=ON`: what a
 * connection deletes or replaces (an erased row, a note's old text, a freed overflow page) is
 * overwritten with zeros rather than left in the file (docs/decisions/005). The pragma
 * holds per connection, so every connection, the submit writer's included, is opened here.
 * @param verbose - called with every statement the connection runs, values inlined (tests: query plans).
 * @returns the better-sqlite3 connection.
 */
export function openDurableDatabase(file: string, verbose?: (sql: string) => void): Database.Database {
  const db = new Database(file, verbose ? { verbose: (message?: unknown) => verbose(String(message)) } : {});
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('secure_delete = ON');
  defineFunctions(db);
  return db;
}

/**
 * The SQL functions the store's queries call beyond SQLite's own, on every connection:
 * `casefold(text)`, the text lower-cased as JavaScript's `toLowerCase` does it (every letter with
 * a lower case; SQLite's `lower` and `like` fold ASCII letters only), NULL and non-text as they are.
 */
function defineFunctions(db: Database.Database) {
  db.function('casefold', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value));
}

/**
 * How much of a SQLite file a read-only connection maps into memory, in bytes: 2 GiB (SQLite caps
 * it at its build's `SQLITE_MAX_MMAP_SIZE`, 2 GiB less 64 KiB in better-sqlite3's; past it, pages
 * are read as without a map). The inbox's reads at 100 000 applications touch tens of thousands of
 * pages a query; through the map they come from the operating system's page cache without a system
 * call and a copy each, where a connection's own page cache held 16 MiB (and is emptied whenever
 * the writer has committed since its last read; SQLite maps the file again then, the pages stay in
 * the operating system's cache): the status tabs' counts under a search took less than half the
 * time, the summaries under a filter the tallies do not serve two thirds to three quarters
 * (docs/decisions/020, "Reads through a memory map", with what a map risks: a read error ends the
 * process rather than one read). The writer is not mapped: its submits cost more CPU so.
 */
export const READ_MAP_BYTES = 2 * 1024 ** 3;

/**
 * Opens a SQLite file read-only, for reads that must not queue behind the store's other queries
 * (the inbox's reader threads, the CSV export's pages): in WAL mode it reads while batches are
 * written; memory-mapped ({@link READ_MAP_BYTES}). Busy timeout as {@link openDurableDatabase}.
 * @returns the better-sqlite3 connection.
 */
export function openReadOnlyDatabase(file: string): Database.Database {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.pragma(`mmap_size = ${READ_MAP_BYTES}`);
  defineFunctions(db);
  return db;
}

/**
 * Where a file stands with erasure, kept in its header (`PRAGMA user_version`, which the
 * store uses for nothing else): an erasure's transaction writes {@link ERASED_SINCE_SCRUB}, a
 * completed {@link scrubDatabase} writes {@link SCRUBBED}. Any other value (0: a file written
 * before the store scrubbed, docs/decisions/005) means the file may hold deleted data.
 */
export const ERASED_SINCE_SCRUB = 1 as const;
/** See {@link ERASED_SINCE_SCRUB}. */
export const SCRUBBED = 2 as const;

/**
 * True when the file may hold data deleted from it: written before the store scrubbed, or
 * erased from since its last completed scrub (see {@link ERASED_SINCE_SCRUB}).
 * @param db - any connection to the file.
 */
export function needsScrub(db: Database.Database): boolean {
  return db.pragma('user_version', { simple: true }) !== SCRUBBED;
}

/**
 * Rewrites a SQLite file so that no byte of what was deleted from it stays in the database file
 * or its `-wal` (docs/decisions/005), on a connection of its own:
 *
 * 1. The planner's `sqlite_stat4` samples, which are index keys (e-mails, handles), are deleted.
 *    `VACUUM` rebuilds every page from the live rows (and the FTS5 indexes are rebuilt after it). `secure_delete` alone is not enough: when a
 *    b-tree page is rebuilt (SQLite's rebuildPage, on an insert or an update that does not fit),
 *    the page's unused middle keeps old copies of cells that now live elsewhere, and when such a
 *    row is erased later its live copy is zeroed but the old one is not (measured: a few
 *    erasures in a thousand left an e-mail, a handle or a whole row behind, in index and table
 *    pages).
 * 2. `wal_checkpoint(TRUNCATE)` copies every frame into the database file and cuts the `-wal`
 *    to 0 bytes, so no old page image (the application as inserted, as before its note
 *    changed) stays in it. It needs every other connection of the file to be idle; the store
 *    runs this while its own connections do nothing (the caller's job), so only another process
 *    reading (the admin command, a backup tool) can make it busy: SQLite then waits up to 1 s
 *    in its busy handler, and this tries `attempts` times in all. A checkpoint that stays busy
 *    leaves the file marked as not scrubbed, so the next scrub (the next erasure, or the next
 *    start: {@link needsScrub}) does it again; nothing here reports success while an old frame
 *    may remain.
 * 3. Marks the file {@link SCRUBBED}, and truncates the `-wal` again (the mark's own frame is page
 *    1: the file header and the schema, no row).
 *
 * Needs free disk space for a copy of the database (VACUUM's temporary file) and a `-wal` as
 * large as the database while it runs. Synchronous: call it in a thread of its own, or before
 * the store serves.
 * @param file - a migrated SQLite file, path as given to {@link openDurableDatabase}.
 * @param attempts - checkpoints tried while another process keeps it busy (default 3).
 * @returns true when the file is scrubbed; false when the checkpoint stayed busy (see 2).
 * @throws the SQLite error when VACUUM fails (disk full, I/O error); the file stays marked.
 */
export function scrubDatabase(file: string, attempts = 3): boolean {
  const db = openDurableDatabase(file);
  try {
    // The planner's samples (`pragma optimize` gathers them) are index keys: e-mails, handles.
    // Without them the planner keeps sqlite_stat1's counts; the next gathering takes samples of what is left.
    if (db.prepare("select 1 from sqlite_schema where name = 'sqlite_stat4'").get()) db.exec('delete from sqlite_stat4');
    db.exec('VACUUM');
    // VACUUM keeps each row's rowid (measured), which the inbox's FTS5 indexes point at (migration
    // 010); SQLite does not promise it for a table without an INTEGER PRIMARY KEY, so rebuild them.
    for (const { name } of db
      .prepare<[], { name: string }>(`select name from sqlite_master where type = 'table' and sql like 'create virtual table % using fts5%'`)
      .all()) {
      db.prepare(`insert into "${name}" ("${name}") values ('rebuild')`).run();
    }
    // A checkpoint kept busy by another process is tried again later: wait 1 s per attempt, not 5.
    db.pragma('busy_timeout = 1000');
    if (!checkpointTruncate(db, attempts)) return false;
    db.pragma(`user_version = ${SCRUBBED}`);
    checkpointTruncate(db, attempts);
    return true;
  } finally {
    db.close();
  }
}

/** `wal_checkpoint(TRUNCATE)` until it is not busy, at most `attempts` times; true when it completed. */
function checkpointTruncate(db: Database.Database, attempts: number): boolean {
  for (let attempt = 1; ; attempt++) {
    const [{ busy }] = db.pragma('wal_checkpoint(TRUNCATE)') as [{ busy: number }];
    if (busy === 0) return true;
    if (attempt >= attempts) return false;
    // The busy handler has waited already; a short pause before asking again.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50 * attempt);
  }
}

/** The SQLite file size past which the server warns at start that PostgreSQL is the store for it: 2 GiB (about 200 000 applications). */
export const LARGE_SQLITE_BYTES = 2 * 1024 ** 3;

/**
 * The warning a server on a SQLite file of `bytes` logs at start, or undefined under
 * {@link LARGE_SQLITE_BYTES}: at that size each erasure's scrub ({@link scrubDatabase}: a rewrite of
 * the whole file) holds the writes for a long while — measured at 2 to 2.5 minutes for the 9 GB of a
 * million applications (docs/performance.md, "A person's data at a million applications") — and
 * the retention policy erases every hour. PostgreSQL is the store past a few hundred thousand
 * applications (docs/decisions/002).
 */
export function largeSqliteWarning(bytes: number): string | undefined {
  if (bytes < LARGE_SQLITE_BYTES) return undefined;
  const size = `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  return `The SQLite database is ${size}: each erasure (the inbox's, a person's, the retention policy's) is followed by a rewrite of the whole file, during which submissions wait (about 2 minutes at 9 GiB). At this size use PostgreSQL (DATABASE_URL=postgres://…; docs/operations.md).`;
}
