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
