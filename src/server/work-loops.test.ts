import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { WorkLoops } from './work-loops';
import { progressWhenServed, synchronousWork } from '../../tests/support/synchronous-work';

describe('WorkLoops', () => {
  it('lets the process serve between the jobs of a loop draining a backlog, even when each job settles without I/O', async () => {
    const loops = new WorkLoops('backlog', Fastify({ logger: false }).log, 60_000);
    const BACKLOG = 200;
    let jobs = 0;
    let drained!: () => void;
    const done = new Promise<void>((resolve) => (drained = resolve));
    // A job as a SQLite query runs it: synchronous work behind a promise that settles at once.
    const job = async () => {
      synchronousWork(0.05);
      jobs += 1;
      if (jobs === BACKLOG) drained();
      return jobs < BACKLOG;
    };
    const jobsWhenServed = progressWhenServed(() => jobs);
    loops.start([{ job, timed: true }]);
    await done;
    await loops.stop();
    expect(jobsWhenServed()).toBeGreaterThanOrEqual(0);
    expect(jobsWhenServed()).toBeLessThan(BACKLOG);
  });
});
