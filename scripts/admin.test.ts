import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../src/server/inbox/password';
import { openStore } from '../src/server/store/store';
import { createTestDatabase } from '../tests/support/postgres';

/** Runs `npm run admin -- …` as an operator would, with the password on standard input. */
function admin(databaseUrl: string, args: string[], input = '') {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
    input,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() };
}

describe.each([
  ['SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'admin-cli-'));
    return { url: `sqlite:${join(dir, 'applications.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }],
  ['PostgreSQL', createTestDatabase],
])('npm run admin on %s (DESIGN §8)', (_name, createDatabase) => {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  afterAll(async () => database?.drop());

  it('creates, lists, resets and deletes users; refuses short passwords, duplicates and unknown commands', { timeout: 60_000 }, async () => {
    database = await createDatabase();
    const url = database.url;
    expect(admin(url, ['create-user', 'Eve@Brand.example'], 'eleven char\n')).toMatchObject({ status: 1, stderr: 'The password must have at least 12 characters.' });
    expect(admin(url, ['create-user', 'Eve@Brand.example'], 'a good long password\n')).toMatchObject({ status: 0, stdout: 'Created eve@brand.example (editor).' });
    expect(admin(url, ['create-user', 'eve@brand.example'], 'a good long password\n')).toMatchObject({ status: 1, stderr: expect.stringContaining('exists already') });
    expect(admin(url, ['create-user', 'reader@brand.example', '--role', 'viewer'], 'reader password 1\n').status).toBe(0);
    expect(admin(url, ['create-user', 'x@brand.example', '--role', 'owner'], 'reader password 1\n')).toMatchObject({ status: 1, stderr: expect.stringContaining('--role') });
    expect(admin(url, ['create-user', 'not-an-email'], 'a good long password\n').status).toBe(1);
    const listed = admin(url, ['list-users']);
    expect(listed.status).toBe(0);
    expect(listed.stdout.split('\n').map((line) => line.split('\t').slice(0, 2))).toEqual([
      ['eve@brand.example', 'editor'],
      ['reader@brand.example', 'viewer'],
    ]);
    expect(listed.stdout).not.toContain('scrypt');

    const store = await openStore(url);
    try {
      const stored = await store.users.findUserForSignIn('eve@brand.example');
      expect(stored?.passwordHash).toMatch(/^scrypt\$65536\$8\$1\$/);
      expect(await verifyPassword('a good long password', stored?.passwordHash)).toBe(true);
      expect(admin(url, ['reset-password', 'eve@brand.example'], 'another long password\n').status).toBe(0);
      const reset = await store.users.findUserForSignIn('eve@brand.example');
      expect(await verifyPassword('a good long password', reset?.passwordHash)).toBe(false);
      expect(await verifyPassword('another long password', reset?.passwordHash)).toBe(true);
    } finally {
      await store.close();
    }
    expect(admin(url, ['reset-password', 'nobody@brand.example'], 'another long password\n').status).toBe(1);
    expect(admin(url, ['delete-user', 'eve@brand.example'])).toMatchObject({ status: 0, stdout: 'Deleted eve@brand.example.' });
    expect(admin(url, ['delete-user', 'eve@brand.example']).status).toBe(1);
    expect(admin(url, ['frobnicate'])).toMatchObject({ status: 1, stderr: expect.stringContaining('usage: npm run admin') });
  });
});
