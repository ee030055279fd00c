/**
 * Resolves once the event loop has polled for I/O since the call: the requests, sockets and timers
 * waiting get their turn before the caller goes on. For loops that drain a backlog through SQLite,
 * whose queries settle without any I/O (better-sqlite3 is synchronous): without a turn, such a loop
 * runs job after job as microtasks and the process serves nothing until it runs dry.
 *
 * Two `setImmediate`s: a job that finished in the poll phase (after I/O, a worker's message) would
 * meet one `setImmediate` in the check phase of the same iteration, before any new request is read;
 * the second runs in the next iteration, after its timers and its poll.
 */
export async function eventLoopTurn(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}
