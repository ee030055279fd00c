import type { Timers } from '../../src/wizard/services/timers';

/** {@link Timers} on a clock that moves only when the test says: `advance(ms)` runs what falls due, in order. */
export function manualTimers(): Timers & { now: () => number; advance: (ms: number) => void; pending: () => number[] } {
  let now = 0;
  let nextId = 0;
  const due = new Map<number, { at: number; run: () => void }>();
  return {
    set: (run, ms) => {
      const id = nextId++;
      due.set(id, { at: now + ms, run });
      return id;
    },
    clear: (handle) => void due.delete(handle as number),
    now: () => now,
    /** The pending runs' remaining delays, in ms. */
    pending: () => [...due.values()].map((timer) => timer.at - now),
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const next = [...due.entries()].filter(([, timer]) => timer.at <= until).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!next) break;
        due.delete(next[0]);
        now = next[1].at;
        next[1].run();
      }
      now = until;
    },
  };
}
