import type BetterSqlite3 from 'better-sqlite3';
import type { ApplicationsTable, Database, SavedApplication } from './application-store';

/** Writes batches of the submit path with prepared statements on a connection of its own. */
export interface BatchWriter {
  /** Writes a batch in one transaction; returns once it is committed (synchronous=FULL: durable). */
  write(rows: ApplicationsTable[], handles: Database['application_handles'][][]): SavedApplication[];
  close(): void;
}

/** Opens a batch writer on a migrated SQLite file (WAL, synchronous=FULL, busy_timeout 5 s). */
export function openBatchWriter(file: string): BatchWriter;

/** Opens a SQLite file with the store's pragmas: WAL, synchronous=FULL, busy_timeout 5000 ms, secure_delete=ON. */
export function openDurableDatabase(file: string): BetterSqlite3.Database;
