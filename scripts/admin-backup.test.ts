import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startServer } from '../tests/e2e/support';
import { applicantPayload, completeForDefaultPage } from '../tests/factories/application';
import { createTestDatabase } from '../tests/support/postgres';
import { adminCommand } from '../tests/support/server-process';
import { xsrfPair } from '../tests/support/xsrf';

// `npm run admin -- backup <dir>` while applications arrive at a real running server, then
// `restore <dir>` into a new database and uploads directory (docs/operations.md, decision 012
// "Backups"): every application answered 201 before the backup began is in the restored database,
// and every uploaded file in the restored directory. One end-to-end run per store.

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'admin-backup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The admin command (compiled, as the container image runs it) without blocking this process (the submitters keep running meanwhile). */
const admin = (args: string[], env: Record<string, string>) =>
  run(process.execPath, [...adminCommand(), ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });

/** The ids of the applications in a database. */
async function storedIds(databaseUrl: string): Promise<Set<string>> {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(databaseUrl.slice('sqlite:'.length), { readonly: true });
    try {
      return new Set((db.prepare('select id from applications').all() as { id: string }[]).map((row) => row.id));
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return new Set((await client.query<{ id: string }>('select id from applications')).rows.map((row) => row.id));
  } finally {
    await client.end();
  }
}

/** Fake uploaded images (the backup copies files; what is in them does not matter) and a temporary file of an upload under way. */
function writeUploads(uploads: string): string[] {
  mkdirSync(uploads, { recursive: true });
  const names = ['a', 'b', 'c'].map((digit) => `${digit.repeat(16)}-320.webp`);
  for (const name of names) writeFileSync(join(uploads, name), `image ${name}`);
  writeFileSync(join(uploads, '.upload-0123456789abcdef.tmp'), 'half written');
  return names;
}

describe.each([
  ['SQLite', async (name: string) => ({ url: `sqlite:${join(dir, name, 'applications.db')}`, drop: async () => undefined })],
  ['PostgreSQL', (_name: string) => createTestDatabase()],
])('npm run admin -- backup / restore on %s', (store, createDatabase) => {
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => Promise.all(drops.map((drop) => drop())));

  it('backs up while applications arrive; the restore has every one acknowledged before the backup began, and the uploads', { timeout: 120_000 }, async () => {
    const source = await createDatabase(`${store}-source`);
    drops.push(source.drop);
    const uploads = join(dir, `${store}-uploads`);
    const uploaded = writeUploads(uploads);
    const env = { DATABASE_URL: source.url, UPLOADS_DIR: uploads };
    // What is stored across processes and kills, not who sends it: no bot check (docs/decisions/032).
    const server = await startServer({ ...env, RATE_LIMIT_PER_MINUTE: '100000', BOT_CHECK: 'off' });

    const acknowledged: string[] = [];
    let submitting = true;
    let sent = 0;
    const submitter = async () => {
      while (submitting) {
        sent += 1;
        const payload = completeForDefaultPage(applicantPayload({ firstName: 'Ada', lastName: 'Lovelace', email: `ada${sent}@example.com` }));
        const response = await fetch(`${server.url}/api/syncPage/creators`, {
          method: 'PUT',
          headers: { ...xsrfPair().headers, 'content-type': 'application/json' },
          body: JSON.stringify(payload),
        });
        const body = (await response.json()) as { id?: string };
        if (response.status === 201 && body.id) acknowledged.push(body.id);
      }
    };
    // As the inbox's CSV export does, a reader holds a snapshot from before the first
    // application: SQLite's checkpoints leave every later one in the -wal file alone, where a copy
    // of the database's file would miss it.
    const reader = source.url.startsWith('sqlite:') ? new Database(source.url.slice('sqlite:'.length), { readonly: true }) : undefined;
    reader?.prepare('begin').run();
    reader?.prepare('select count(*) from applications').get();
    const submitters = Promise.all([submitter(), submitter()]);
    try {
      await vi.waitFor(() => expect(acknowledged.length).toBeGreaterThanOrEqual(20), { timeout: 30_000, interval: 50 });
      const before = [...acknowledged];
      const backupDir = join(dir, `${store}-backup`);
      const made = await admin(['backup', backupDir], env);
      const during = acknowledged.length - before.length;
      reader?.close();
      submitting = false;
      await submitters;
      // The server took applications while the backup ran.
      expect(during).toBeGreaterThan(0);
      expect(made.stdout).toMatch(/^Backed up \d+ applications .* and 3 uploads into /);

      const target = await createDatabase(`${store}-restored`);
      drops.push(target.drop);
      const restoredUploads = join(dir, `${store}-restored-uploads`);
      const restored = await admin(['restore', backupDir], { DATABASE_URL: target.url, UPLOADS_DIR: restoredUploads });
      expect(restored.stdout).toMatch(/^Restored \d+ applications .* and 3 uploads into /);

      const ids = await storedIds(target.url);
      expect(before.filter((id) => !ids.has(id))).toEqual([]);
      // Nothing the server did not acknowledge (each application was answered before it stopped).
      expect([...ids].filter((id) => !acknowledged.includes(id))).toEqual([]);
      expect(readdirSync(restoredUploads).sort()).toEqual(uploaded);
      for (const name of uploaded) expect(readFileSync(join(restoredUploads, name), 'utf8')).toBe(`image ${name}`);

      // Restoring again over the restored database is refused: a restore only fills a new one.
      await expect(admin(['restore', backupDir], { DATABASE_URL: target.url, UPLOADS_DIR: restoredUploads })).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/exists: restore into a new file|restore into a new, empty database/),
      });
    } finally {
      if (reader?.open) reader.close();
      submitting = false;
      await submitters.catch(() => undefined);
      await server.stop();
    }
  });

  if (store === 'PostgreSQL') {
    it('says so when pg_dump is not on PATH', async () => {
      const result = spawnSync(process.execPath, [...adminCommand(), 'backup', join(dir, 'no-pg-dump')], {
        encoding: 'utf8',
        env: { ...process.env, PATH: join(dir, 'empty-path'), DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' },
      });
      expect(result.status).toBe(1);
      expect(result.stderr.trim()).toMatch(/^pg_dump was not found on PATH: install PostgreSQL's client programs/);
    });
  }
});
