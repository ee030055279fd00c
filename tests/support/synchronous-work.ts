/**
 * Keeps the calling thread busy for `ms` milliseconds, as a SQLite statement does (better-sqlite3
 * is synchronous): for tests of loops that must give the event loop a turn between such jobs.
 */
export function synchronousWork(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // busy, on purpose
  }
}

/**
 * A request arriving now, as a timer: it is served only when the event loop gets a turn.
 * @param progress - how far the work under test has gone.
 * @returns the progress when the timer fired; -1 while it has not.
 */
export function progressWhenServed(progress: () => number): () => number {
  let seen = -1;
  setTimeout(() => (seen = progress()), 0);
  return () => seen;
}
