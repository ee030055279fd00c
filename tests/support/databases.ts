import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createTestDatabase } from './postgres';

/** A test database: its `DATABASE_URL`, how to drop it, and how to run SQL on a connection of the test's own. */
export interface ExecDatabase {
  url: string;
  drop: () => Promise<void>;
  /** Runs one or more SQL statements on a connection of the test's own (not the store's). */
  exec: (statement: string) => Promise<void>;
}

/** A SQLite file in a temporary directory of its own (`prefix` names the directory). */
export async function sqliteExecDatabase(prefix: string): Promise<ExecDatabase> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const file = join(dir, 'applications.db');
  return {
    url: `sqlite:${file}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
    exec: async (statement: string) => {
      const db = new Database(file);
      try {
        db.exec(statement);
      } finally {
        db.close();
      }
    },
  };
}

/** A PostgreSQL database of its own on `TEST_DATABASE_URL`'s server ({@link createTestDatabase}). */
export async function postgresExecDatabase(): Promise<ExecDatabase> {
  const database = await createTestDatabase();
  return {
    ...database,
    exec: async (statement: string) => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query(statement);
      } finally {
        await client.end();
      }
    },
  };
}
