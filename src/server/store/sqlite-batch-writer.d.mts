import type BetterSqlite3 from 'better-sqlite3';
import type { ApplicationsTable, Database, SavedApplication } from './application-store';

/** Writes batches of the submit path with prepared statements on a connection of its own. */
export interface BatchWriter {
  /** Writes a batch in one transaction; returns once it is committed (synchronous=FULL: durable). */
  write(rows: ApplicationsTable[], handles: Database['application_handles'][][]): SavedApplication[];
  close(): void;
}

/**
 * Opens a batch writer on a migrated SQLite file (WAL, synchronous=FULL, busy_timeout 5 s).
 * @param verbose - called with every statement it runs, values inlined (tests: query plans).
 */
export function openBatchWriter(file: string, verbose?: (sql: string) => void): BatchWriter;

/**
 * Opens a SQLite file with the store's pragmas: WAL, synchronous=FULL, busy_timeout 5000 ms, secure_delete=ON.
 * @param verbose - called with every statement the connection runs, values inlined (tests: query plans).
 */
export function openDurableDatabase(file: string, verbose?: (sql: string) => void): BetterSqlite3.Database;

/** Opens a SQLite file read-only (WAL: it reads while batches are written), busy_timeout 5000 ms. */
export function openReadOnlyDatabase(file: string): BetterSqlite3.Database;

/** `PRAGMA user_version` of a file erased from since its last scrub (docs/decisions/005). */
export const ERASED_SINCE_SCRUB: 1;
/** `PRAGMA user_version` of a file scrubbed since its last erasure. */
export const SCRUBBED: 2;

/** True when the file may hold deleted data: not marked {@link SCRUBBED}. */
export function needsScrub(db: BetterSqlite3.Database): boolean;

/**
 * VACUUM, `wal_checkpoint(TRUNCATE)` (at most `attempts` tries, default 3), then marks the file
 * {@link SCRUBBED}. Synchronous. See the JavaScript source for why each step is needed.
 * @returns true when scrubbed; false when the checkpoint stayed busy (the file stays marked as not scrubbed).
 * @throws the SQLite error when VACUUM fails.
 */
export function scrubDatabase(file: string, attempts?: number): boolean;
