import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../src/server/inbox/password';
import { openStore } from '../src/server/store/store';
import { createTestUser } from '../tests/support/users';
import { createTestDatabase } from '../tests/support/postgres';
import { ADMIN_SOURCE_COMMAND, adminCommand } from '../tests/support/server-process';
import { validPayload } from '../tests/factories/application';

/**
 * A test here runs up to a dozen commands, each a process of its own (about half a second of CPU
 * compiled, two through tsx): beside the suite's other files on a loaded two-core machine one took
 * over 60 s (ms).
 */
const CLI_TIMEOUT = 150_000;

/**
 * Runs the admin command as an operator would, with the password on standard input: compiled
 * (`node build/server/admin.mjs`, as the container image runs it), or with `source` as `npm run
 * admin` runs it (scripts/admin.ts through tsx). The process runs beside the test's event loop
 * (not `spawnSync`), so the file's tests, each its own database, run their commands at the same time.
 */
function admin(databaseUrl: string, args: string[], input = '', env: Record<string, string> = {}, source = false) {
  const child = spawn(process.execPath, [...(source ? ADMIN_SOURCE_COMMAND : adminCommand()), ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(input);
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout: stdout.trim(), stderr: stderr.trim() }));
  });
}

// Every test has a database of its own: they run at the same time, each command a process.
describe.concurrent.each([
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'admin-cli-'));
      return { url: `sqlite:${join(dir, 'applications.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
  ['PostgreSQL', createTestDatabase],
])('npm run admin on %s (requirements §17)', (_name, createDatabase) => {
  const databases: { url: string; drop: () => Promise<void> }[] = [];
  afterAll(async () => Promise.all(databases.map((database) => database.drop())));
  /** A new database for one test. */
  async function databaseUrl() {
    const database = await createDatabase();
    databases.push(database);
    return database.url;
  }

  it(
    "creates (the first an owner), lists and resets users; refuses duplicates, unknown users and the last owner's deletion",
    { timeout: CLI_TIMEOUT },
    async () => {
      const url = await databaseUrl();
      expect(await admin(url, ['create-user', 'Eve@Brand.example'], 'a good long password\n')).toMatchObject({
        status: 0,
        stdout: 'Created eve@brand.example (owner: the first account is the owner).',
      });
      expect(await admin(url, ['create-user', 'eve@brand.example'], 'a good long password\n')).toMatchObject({
        status: 1,
        stderr: expect.stringContaining('exists already'),
      });
      expect((await admin(url, ['create-user', 'reader@brand.example', '--role', 'viewer'], 'reader password 1\n')).status).toBe(0);
      const listed = await admin(url, ['list-users']);
      expect(listed.status).toBe(0);
      expect(listed.stdout.split('\n').map((line) => line.split('\t').slice(0, 2))).toEqual([
        ['eve@brand.example', 'owner'],
        ['reader@brand.example', 'viewer'],
      ]);
      expect(listed.stdout).not.toContain('scrypt');

      const store = await openStore(url);
      try {
        // Each account made here is in the team's audit log.
        const added = (await store.team.events({ kind: 'member-added' })).events;
        expect(added.map((event) => [event.actor, event.subject, event.detail]).sort()).toEqual([
          ['command line', 'eve@brand.example', 'owner'],
          ['command line', 'reader@brand.example', 'viewer'],
        ]);
        const stored = await store.users.findUserForSignIn('eve@brand.example');
        expect(stored?.passwordHash).toMatch(/^scrypt\$65536\$8\$1\$/);
        expect(await verifyPassword('a good long password', stored?.passwordHash)).toBe(true);
        expect((await admin(url, ['reset-password', 'eve@brand.example'], 'another long password\n')).status).toBe(0);
        const reset = await store.users.findUserForSignIn('eve@brand.example');
        expect(await verifyPassword('a good long password', reset?.passwordHash)).toBe(false);
        expect(await verifyPassword('another long password', reset?.passwordHash)).toBe(true);
      } finally {
        await store.close();
      }
      expect((await admin(url, ['reset-password', 'nobody@brand.example'], 'another long password\n')).status).toBe(1);
      // There is always an owner: the last one is not deleted, until another is one.
      expect(await admin(url, ['delete-user', 'eve@brand.example'])).toMatchObject({ status: 1, stderr: expect.stringContaining('at least one owner') });
    },
  );

  it('sets roles and removes second factors for recovery, then deletes the owner once another is one', { timeout: CLI_TIMEOUT }, async () => {
    const url = await databaseUrl();
    const store = await openStore(url);
    try {
      await createTestUser(store, { email: 'eve@brand.example', password: 'a good long password' }, 'owner');
      await createTestUser(store, { email: 'reader@brand.example', password: 'reader password 1' }, 'viewer');
    } finally {
      await store.close();
    }
    const role = await admin(url, ['set-role', 'reader@brand.example', 'owner']);
    expect(role, role.stderr).toMatchObject({ status: 0, stdout: 'reader@brand.example is now owner.' });
    expect((await admin(url, ['remove-second-factor', 'eve@brand.example'])).status).toBe(0);
    expect(await admin(url, ['delete-user', 'eve@brand.example'])).toMatchObject({ status: 0, stdout: 'Deleted eve@brand.example.' });
    expect((await admin(url, ['delete-user', 'eve@brand.example'])).status).toBe(1);
  });

  it("exports a person's data as JSON and erases it (docs/privacy.md), leaving everyone else's", { timeout: CLI_TIMEOUT }, async () => {
    const url = await databaseUrl();
    const store = await openStore(url);
    const ids: string[] = [];
    try {
      for (const email of ['Mia.Dsr@example.com', 'mia.dsr@example.com', 'other.dsr@example.com']) {
        const payload = validPayload();
        payload.personalInfo = { ...payload.personalInfo, emailAddress: email, firstName: 'Mia' };
        ids.push((await store.applications.save({ pageId: 'creators', emailAddress: email, payload })).id);
      }
    } finally {
      await store.close();
    }
    const exported = await admin(url, ['export-person', 'MIA.DSR@example.com']);
    expect(exported.status, exported.stderr).toBe(0);
    const document = JSON.parse(exported.stdout) as {
      about: { email: string };
      applications: { id: string; answers: { question: string; answer: string }[] }[];
    };
    expect(document.about.email).toBe('mia.dsr@example.com');
    expect(document.applications.map((application) => application.id)).toEqual(ids.slice(0, 2));
    // Labelled by the default page's questions (its file, WIZARD_CONFIG).
    expect(document.applications[0]!.answers.find((answer) => answer.answer === 'Mia')?.question).toBeTruthy();
    // At a terminal (util-linux `script` gives the command one): the count, then a question; no means nothing erased.
    const atTerminal = (answer: string) =>
      new Promise<string>((resolve, reject) => {
        const command = [process.execPath, ...adminCommand(), 'erase-person', 'mia.dsr@example.com'].join(' ');
        const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, DATABASE_URL: url } });
        let output = '';
        let answered = false;
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          output += chunk;
          if (answered || !output.includes('[y/N]')) return;
          answered = true;
          child.stdin.end(`${answer}\n`);
        });
        child.once('error', reject);
        child.once('close', () => resolve(output));
      });
    const refused = await atTerminal('n');
    expect(refused).toContain('Erase 2 applications of mia.dsr@example.com on every page');
    expect(refused).toContain('Nothing erased.');
    expect(JSON.parse((await admin(url, ['export-person', 'mia.dsr@example.com'])).stdout)).toMatchObject({ applications: [{}, {}] });
    expect(await admin(url, ['erase-person', 'mia.dsr@example.com'])).toMatchObject({
      status: 0,
      stdout: 'Erased 2 applications of mia.dsr@example.com, with their answers, notes, tags, e-mails and webhook deliveries.',
    });
    expect(JSON.parse((await admin(url, ['export-person', 'mia.dsr@example.com'])).stdout)).toMatchObject({ applications: [] });
    expect(JSON.parse((await admin(url, ['export-person', 'other.dsr@example.com'])).stdout)).toMatchObject({ applications: [{ id: ids[2] }] });
    expect(await admin(url, ['erase-person', 'not-an-address'])).toMatchObject({ status: 1 });
  });

  it('prunes the uploaded images no draft, version or page file names, once older than the grace period', { timeout: CLI_TIMEOUT }, async () => {
    const url = await databaseUrl();
    const uploads = mkdtempSync(join(tmpdir(), 'uploads-'));
    try {
      // A draft names one image, a published version (an earlier draft) another, at one width of two.
      const hash = (digit: string) => digit.repeat(16);
      const store = await openStore(url);
      try {
        const draft = (image: string) => ({ title: 'Spring', logo: `/uploads/${image}-320.webp` });
        const created = await store.pages.create('spring', { draft: draft(hash('a')) }, 'eve@brand.example');
        expect(created).not.toBe('taken');
        expect(await store.pages.publish('spring', 1, 'eve@brand.example', (config) => ({ config }) as never)).toMatchObject({ version: 1 });
        expect(await store.pages.saveDraft('spring', JSON.stringify(draft(hash('b'))), 1, 'eve@brand.example')).toMatchObject({ revision: 2 });
      } finally {
        await store.close();
      }
      const old = new Date(Date.now() - 48 * 3_600_000);
      const file = (name: string, age?: Date) => {
        writeFileSync(join(uploads, name), 'x');
        if (age) utimesSync(join(uploads, name), age, age);
      };
      file(`${hash('a')}-320.webp`, old);
      file(`${hash('a')}-640.webp`, old);
      file(`${hash('b')}-320.webp`, old);
      file(`${hash('c')}-320.webp`, old);
      file(`${hash('d')}-320.webp`);
      file('.upload-0123456789abcdef.tmp', old);
      file('notes.txt', old);
      const prune = (...args: string[]) => admin(url, ['prune-uploads', ...args], '', { UPLOADS_DIR: uploads });

      expect(await prune('--dry-run')).toMatchObject({
        status: 0,
        stdout: expect.stringMatching(
          /^Would delete 2 files no page names from .* \(4 files kept\):\n\.upload-0123456789abcdef\.tmp\ncccccccccccccccc-320\.webp$/,
        ),
      });
      expect(readdirSync(uploads)).toHaveLength(7);
      expect(await prune()).toMatchObject({ status: 0, stdout: expect.stringMatching(/^Deleted 2 files/) });
      expect(readdirSync(uploads).sort()).toEqual([
        `${hash('a')}-320.webp`,
        `${hash('a')}-640.webp`,
        `${hash('b')}-320.webp`,
        `${hash('d')}-320.webp`,
        'notes.txt',
      ]);
      // A new image no page names goes once it is older than the hours given.
      expect(await prune('--older-than-hours', '0')).toMatchObject({
        status: 0,
        stdout: expect.stringMatching(/^Deleted 1 file no page names .*\n{4}-320\.webp$/.source.replace('{4}', hash('d'))),
      });
    } finally {
      rmSync(uploads, { recursive: true, force: true });
    }
  });
});

// The arguments a command refuses before it opens a store (a short password, an unknown role, an
// address that is none, an unknown command, hours that are no number) are refused alike whatever
// the store: checked once here, not once per store, since each command is a process of its own
// (about half a second of CPU), the five at once (docs/decisions/017, "A test suite that fits a
// working day"). `npm run admin` itself (the source through tsx) answers the unknown command.
describe('npm run admin refuses bad arguments before it opens a store', () => {
  it(
    'refuses short passwords, unknown roles, addresses that are none, unknown commands and hours that are no number, and creates no database',
    { timeout: CLI_TIMEOUT },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'admin-cli-'));
      const url = `sqlite:${join(dir, 'applications.db')}`;
      try {
        const [short, role, address, command, hours] = await Promise.all([
          admin(url, ['create-user', 'Eve@Brand.example'], 'eleven char\n'),
          admin(url, ['create-user', 'x@brand.example', '--role', 'superuser'], 'reader password 1\n'),
          admin(url, ['create-user', 'not-an-email'], 'a good long password\n'),
          admin(url, ['frobnicate'], '', {}, true),
          admin(url, ['prune-uploads', '--older-than-hours', 'soon'], '', { UPLOADS_DIR: dir }),
        ]);
        expect(short).toMatchObject({ status: 1, stderr: expect.stringContaining('Use at least 12 characters') });
        expect(role).toMatchObject({ status: 1, stderr: expect.stringContaining('The role must be one of owner, editor, viewer') });
        expect(address.status).toBe(1);
        expect(command).toMatchObject({ status: 1, stderr: expect.stringContaining('usage: npm run admin') });
        expect(hours).toMatchObject({ status: 1, stderr: expect.stringContaining('--older-than-hours takes a number') });
        expect(readdirSync(dir)).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
