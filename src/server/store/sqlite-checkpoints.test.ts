import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applicantPayload } from '../../../tests/factories/application';
import Database from 'better-sqlite3';
import { SCRUBBED } from './sqlite-file';
import { openStore, type Store } from './store';

/**
 * A SQLite file's checkpoints run in a thread of their own (decision 022): the store's commits
 * leave the write-ahead log to it (past SQLite's own mark of 1 000 pages, up to the backstop),
 * and the thread, started once the log reaches that mark, copies the log into the file within
 * its interval. Observed from outside, as
 * the files' sizes on disk.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const sqliteFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'checkpoints-'));
  dirs.push(dir);
  return join(dir, 'applications.db');
};
const bytes = (path: string) => (existsSync(path) ? statSync(path).size : 0);

/** SQLite's default page, and its own checkpoint mark (`wal_autocheckpoint`), in pages. */
const PAGE_BYTES = 4096;
const SQLITE_MARK_PAGES = 1000;

/** Stores `count` applications at once (one group commit or a few), each with a long answer, and waits for the answer index. */
async function saveMany(store: Store, count: number, from: number) {
  await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const n = from + i;
      const payload = applicantPayload({
        firstName: 'Kai',
        lastName: `Berg${n}`,
        email: `kai${n}@example.com`,
        instagram: `kai.${n}`,
        fields: { dreamCampaign: `Castle ${n}: ${'a putty parade, '.repeat(40)}` },
      });
      return store.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload, userAgent: 'Mozilla/5.0' });
    }),
  );
  await store.applications.indexed();
}

/** Resolves once `check` holds, looking every 20 ms; fails after `timeoutMs`. */
async function until(check: () => boolean, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each([
  ['a writer thread', true],
  ['the writer on the main thread', false],
])('SQLite checkpoints, submissions written by %s', (_name, sqliteWriterThread) => {
  it('no commit of the store copies the log into the file: it grows past SQLite’s own mark while the thread waits', async () => {
    const file = sqliteFile();
    // A thread that would not checkpoint within the test.
    const store = await openStore(`sqlite:${file}`, { sqliteWriterThread, checkpointIntervalMs: 3_600_000 });
    try {
      await saveMany(store, 50, 0);
      const before = bytes(file);
      const past = 1.5 * SQLITE_MARK_PAGES * PAGE_BYTES;
      for (let from = 50; bytes(`${file}-wal`) < past && from < 4_000; from += 200) await saveMany(store, 200, from);
      expect(bytes(`${file}-wal`)).toBeGreaterThan(past);
      // SQLite's own checkpoint would have copied the log into the file past 1 000 pages.
      expect(bytes(file)).toBe(before);
      expect((await store.applications.countApplications({})).all).toBeGreaterThan(250);
    } finally {
      await store.close();
    }
  });

  it('once the log reaches SQLite’s mark, the thread copies it into the file within its interval; the store closes and reopens whole', async () => {
    const file = sqliteFile();
    const store = await openStore(`sqlite:${file}`, { sqliteWriterThread, checkpointIntervalMs: 50 });
    let count = 0;
    let from = 50;
    try {
      await saveMany(store, 50, 0);
      const before = bytes(file);
      // The thread starts once the log reaches SQLite's mark.
      for (; bytes(`${file}-wal`) < SQLITE_MARK_PAGES * PAGE_BYTES && from < 4_000; from += 200) await saveMany(store, 200, from);
      await until(() => bytes(file) > before, 'the database file grows');
      count = (await store.applications.countApplications({})).all;
    } finally {
      await store.close();
    }
    const again = await openStore(`sqlite:${file}`, { sqliteWriterThread });
    try {
      expect((await again.applications.countApplications({})).all).toBe(count);
      expect(count).toBe(from);
    } finally {
      await again.close();
    }
  });

  it('an erasure’s scrub completes beside a thread that checkpoints every few milliseconds', async () => {
    const file = sqliteFile();
    const store = await openStore(`sqlite:${file}`, { sqliteWriterThread, checkpointIntervalMs: 5 });
    try {
      for (let from = 0; bytes(`${file}-wal`) < SQLITE_MARK_PAGES * PAGE_BYTES && from < 4_000; from += 200) await saveMany(store, 200, from);
      const [first] = await store.applications.listApplications({}, { limit: 1 });
      await store.applications.eraseApplication(first!.id, 'eve@brand.example');
      await store.applications.flushErasures();
      // Scrubbed (decision 005): the mark written, the log cut to nothing by the scrub's own checkpoint.
      const probe = new Database(file, { readonly: true });
      try {
        expect(probe.pragma('user_version', { simple: true })).toBe(SCRUBBED);
      } finally {
        probe.close();
      }
    } finally {
      await store.close();
    }
  });
});
