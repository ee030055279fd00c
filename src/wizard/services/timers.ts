/**
 * How the wizard waits: the draft's debounce and the submit's retry back-off. The browser's timers
 * by default; tests give a clock they move by hand, so nothing waits for real time.
 */
export interface Timers {
  /** Runs `run` once after `ms` milliseconds; returns a handle for {@link Timers.clear}. */
  set(run: () => void, ms: number): unknown;
  /** Cancels a run not yet made (a handle from {@link Timers.set}, or undefined). */
  clear(handle: unknown): void;
}

/** The browser's (or Node's) own timers. */
export const systemTimers: Timers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout> | undefined),
};
