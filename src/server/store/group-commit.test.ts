import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit';
import type { Database } from './schema';
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
});
