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
  /** The rows of one query, on a connection of the test's own. */
  query: <Row = Record<string, unknown>>(statement: string) => Promise<Row[]>;
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
    query: async <Row>(statement: string) => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare(statement).all() as Row[];
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
    query: async <Row>(statement: string) => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        return (await client.query(statement)).rows as Row[];
      } finally {
        await client.end();
      }
    },
  };
}
