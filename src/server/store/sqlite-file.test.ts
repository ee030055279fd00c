import { statSync } from 'node:fs';
import { expect, it } from 'vitest';
import { sqliteExecDatabase } from '../../../tests/support/databases';
import { LARGE_SQLITE_BYTES, READ_MAP_BYTES, largeSqliteWarning, openDurableDatabase, openReadOnlyDatabase } from './sqlite-file';

it('warns at start of a SQLite file past 2 GiB that each erasure rewrites it while submissions wait, and names PostgreSQL', () => {
  expect(largeSqliteWarning(0)).toBeUndefined();
  expect(largeSqliteWarning(LARGE_SQLITE_BYTES - 1)).toBeUndefined();
  const warning = largeSqliteWarning(9.6 * 1024 ** 3)!;
  expect(warning).toMatch(/^The SQLite database is 9\.6 GiB: each erasure .* rewrite of the whole file, during which submissions wait/);
  expect(warning).toContain('use PostgreSQL (DATABASE_URL=postgres://…; docs/operations.md)');
});

it('maps the file into memory for the read-only connections (the inbox, the exports), not for the writer', async () => {
  const database = await sqliteExecDatabase('sqlite-file-');
  const file = database.url.slice('sqlite:'.length);
  try {
    const writer = openDurableDatabase(file);
    writer.exec('create table t (x)');
    const reader = openReadOnlyDatabase(file);
    // SQLite caps the map at its build's largest (2 GiB less 64 KiB in better-sqlite3's).
    const mapped = reader.pragma('mmap_size', { simple: true }) as number;
    expect(mapped).toBeGreaterThan(READ_MAP_BYTES - 1024 ** 2);
    expect(mapped).toBeLessThanOrEqual(READ_MAP_BYTES);
    expect(writer.pragma('mmap_size', { simple: true })).toBe(0);
    reader.close();
    writer.close();
  } finally {
    await database.drop();
  }
});

it('reads on through its map when the writer makes the file smaller (a vacuum, as the scrub after an erasure)', async () => {
  const database = await sqliteExecDatabase('sqlite-file-');
  const file = database.url.slice('sqlite:'.length);
  try {
    const writer = openDurableDatabase(file);
    writer.exec(
      'create table t (x); with recursive n(i) as (select 1 union all select i + 1 from n where i < 2000) insert into t select randomblob(2000) from n',
    );
    writer.pragma('wal_checkpoint(TRUNCATE)');
    const reader = openReadOnlyDatabase(file);
    const count = reader.prepare('select count(*) as n, sum(length(x)) as bytes from t');
    // Every page read through the map of the whole file.
    expect(count.get()).toEqual({ n: 2000, bytes: 4_000_000 });
    const before = statSync(file).size;
    writer.exec('delete from t where rowid > 10; vacuum');
    expect(writer.pragma('wal_checkpoint(TRUNCATE)')).toEqual([{ busy: 0, log: 0, checkpointed: 0 }]);
    expect(statSync(file).size).toBeLessThan(before / 10);
    // Past the new end the map would fault: SQLite maps the file again at the next read.
    expect(count.get()).toEqual({ n: 10, bytes: 20_000 });
    expect(reader.pragma('integrity_check', { simple: true })).toBe('ok');
    reader.close();
    writer.close();
  } finally {
    await database.drop();
  }
});
