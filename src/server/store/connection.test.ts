import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { preparedOnce } from './connection';

const open: Database.Database[] = [];
afterEach(() => {
  for (const sqlite of open.splice(0)) sqlite.close();
});

function memory(): Database.Database {
  const sqlite = new Database(':memory:');
  open.push(sqlite);
  sqlite.exec('create table t (n integer)');
  sqlite.exec('insert into t values (1), (2), (3)');
  return sqlite;
}

it('compiles a statement once and hands the same one out for the same SQL', () => {
  const database = preparedOnce(memory());
  const first = database.prepare('select n from t where n > ?');
  expect(database.prepare('select n from t where n > ?')).toBe(first);
  expect(database.prepare('select n from t where n < ?')).not.toBe(first);
});

it('gives a statement that is still running to no other use', () => {
  const database = preparedOnce(memory());
  const sql = 'select n from t order by n';
  const streaming = database.prepare(sql).iterate([]) as IterableIterator<{ n: number }>;
  expect(streaming.next().value).toEqual({ n: 1 });
  const meanwhile = database.prepare(sql);
  expect(meanwhile.all([])).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  expect([...streaming]).toEqual([{ n: 2 }, { n: 3 }]);
});

it('keeps the statements used last, dropping the least recently used', () => {
  const database = preparedOnce(memory(), { statements: 2, characters: 1000, longest: 100 });
  const a = database.prepare('select 1');
  const b = database.prepare('select 2');
  expect(database.prepare('select 1')).toBe(a);
  database.prepare('select 3');
  expect(database.prepare('select 1')).toBe(a);
  expect(database.prepare('select 2')).not.toBe(b);
});

it('runs a kept statement again after the schema it was compiled against changed', () => {
  const sqlite = memory();
  const database = preparedOnce(sqlite);
  expect(database.prepare('select * from t order by n limit 1').all([])).toEqual([{ n: 1 }]);
  sqlite.exec('alter table t add column m integer default 7');
  expect(database.prepare('select * from t order by n limit 1').all([])).toEqual([{ n: 1, m: 7 }]);
});

it('keeps statements within a length of SQL text, and no long one', () => {
  const database = preparedOnce(memory(), { statements: 100, characters: 30, longest: 20 });
  const long = 'select 1 as one, 2 as two';
  expect(database.prepare(long)).not.toBe(database.prepare(long));
  const a = database.prepare('select 11');
  const b = database.prepare('select 12');
  expect(database.prepare('select 11')).toBe(a);
  // Four texts of nine characters pass thirty: the least recently used one goes.
  database.prepare('select 13');
  database.prepare('select 14');
  expect(database.prepare('select 11')).toBe(a);
  expect(database.prepare('select 12')).not.toBe(b);
});
