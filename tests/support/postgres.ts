import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The PostgreSQL server tests use: `TEST_DATABASE_URL`, or this machine's
 * (127.0.0.1:5432, user postgres, database test). `.ci/run` starts it.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Creates a fresh database for one test file, so files running in parallel
 * never see each other's rows.
 * @returns its URL and a function that drops it.
 */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `wizard_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
