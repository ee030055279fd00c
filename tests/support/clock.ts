import type { Clock } from '../../src/server/clock';

/**
 * A clock that moves on by `stepMs` each time it is read, from `startMs` (default: now): each
 * application saved with it gets its own time, in the order saved, without waiting for the wall
 * clock to tick.
 */
export function steppingClock(stepMs = 10, startMs = Date.now()): Clock {
  let now = startMs;
  return () => (now += stepMs);
}
