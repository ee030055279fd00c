import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit';
import type { ApplicationsTable, ChildRows, Database } from './schema';
import { progressWhenServed, synchronousWork } from '../../../tests/support/synchronous-work';

describe('GroupCommit', () => {
  it('takes a backlog of the answer index a run at a time, serving the process between runs, even when each run settles without I/O', async () => {
    const BACKLOG_RUNS = 200;
    let runs = 0;
    let drained!: () => void;
    const done = new Promise<void>((resolve) => (drained = resolve));
    // A follow-up as SQLite runs it: synchronous work behind a promise that settles at once; a full run until the backlog is gone.
    const writeIndex = async (limit: number) => {
      synchronousWork(0.05);
      runs += 1;
      if (runs === BACKLOG_RUNS) drained();
      return runs < BACKLOG_RUNS ? limit : 0;
    };
    const commit = new GroupCommit({} as Kysely<Database>, async () => [], writeIndex);
    const runsWhenServed = progressWhenServed(() => runs);
    await commit.indexed();
    await done;
    await commit.settled();
    expect(runsWhenServed()).toBeGreaterThanOrEqual(0);
    expect(runsWhenServed()).toBeLessThan(BACKLOG_RUNS);
  });

  /** A few turns of the event loop: what is not held has run by then. */
  const turns = async (count = 20) => {
    for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
  };

  it.each([
    [true, 'written while a follow-up beside it still runs (PostgreSQL)'],
    [false, 'written once the follow-up run before it ended (SQLite: one writer)'],
  ])('with indexBeside %s, a batch is %s', async (indexBeside) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const writeIndex = async () => {
      started();
      await held;
      return 0;
    };
    const batches: number[] = [];
    const writeBatch = async (rows: ApplicationsTable[]) => {
      batches.push(rows.length);
      return rows.map(() => ({ id: 'stored', receivedAt: '2026-12-01T00:00:00.000Z', created: false }));
    };
    const commit = new GroupCommit({} as Kysely<Database>, writeBatch, writeIndex, { indexBeside });
    commit.wantIndex();
    await running;
    const saved = commit.add({} as ApplicationsTable, { handles: [], answers: [] } as unknown as ChildRows);
    await turns();
    expect(batches).toEqual(indexBeside ? [1] : []);
    release();
    await expect(saved).resolves.toMatchObject({ id: 'stored' });
    expect(batches).toEqual([1]);
    await commit.settled();
  });
});
