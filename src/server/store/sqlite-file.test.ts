import { expect, it } from 'vitest';
import { LARGE_SQLITE_BYTES, largeSqliteWarning } from './sqlite-file';

it('warns at start of a SQLite file past 2 GiB that each erasure rewrites it while submissions wait, and names PostgreSQL', () => {
  expect(largeSqliteWarning(0)).toBeUndefined();
  expect(largeSqliteWarning(LARGE_SQLITE_BYTES - 1)).toBeUndefined();
  const warning = largeSqliteWarning(9.6 * 1024 ** 3)!;
  expect(warning).toMatch(/^The SQLite database is 9\.6 GiB: each erasure .* rewrite of the whole file, during which submissions wait/);
  expect(warning).toContain('use PostgreSQL (DATABASE_URL=postgres://…; docs/operations.md)');
});
