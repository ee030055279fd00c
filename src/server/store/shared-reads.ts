/**
 * How many times this process has changed what the inbox's filters and counts read: a number
 * raised once each such change has committed (a batch of submissions, a decision, a bulk decision,
 * an erasure, tags applied, removed or deleted), before whoever made it is answered. A read that
 * began at the same number has seen every change this process has told anyone about.
 */
export class InboxChanges {
  #version = 0;

  /** The number of changes so far (starts at 0). */
  get version(): number {
    return this.#version;
  }

  /** Records one change, once it has committed (or failed: a failure may have written part of it). */
  changed(): void {
    this.#version += 1;
  }

  /**
   * `write`'s result, {@link changed} recorded once it settles, before it is passed on.
   * @throws what `write` throws.
   */
  async after<T>(write: Promise<T>): Promise<T> {
    try {
      return await write;
    } finally {
      this.changed();
    }
  }
}

/**
 * Identical reads asked while one runs, answered by that one (docs/decisions/020, "Summaries
 * asked at once share one read"): a team opening a shared view asks the same summary at the same
 * moment, and the inbox's few read connections (two threads on SQLite, four on PostgreSQL) would
 * otherwise run it once each, one after another. A read joins one already running only when this
 * process has changed nothing since that one was asked ({@link InboxChanges}): whoever was told of
 * a change (a decision answered, a submission stored) gets a read that sees it. What another
 * process changed meanwhile (PostgreSQL) may be missed by a joining read, as by a read asked a
 * moment sooner: at most the time the read runs, within the delay with which that process's
 * answers reach the inbox anyway (its answer index's follow-up).
 */
export class SharedReads<T> {
  /** The reads running, by key, with the number of changes when each was asked. */
  private readonly running = new Map<string, { version: number; result: Promise<T> }>();

  constructor(private readonly changes: InboxChanges) {}

  /**
   * The result of `run`, or of the read of the same `key` running and asked at the same number of
   * changes. Every caller gets the same value: callers must not change it.
   * @param key - what makes two reads the same (the filter and what is counted, as JSON).
   * @throws what the read throws, to every caller that shared it.
   */
  read(key: string, run: () => Promise<T>): Promise<T> {
    const version = this.changes.version;
    const shared = this.running.get(key);
    if (shared?.version === version) return shared.result;
    const entry = { version, result: run() };
    this.running.set(key, entry);
    const done = () => {
      if (this.running.get(key) === entry) this.running.delete(key);
    };
    entry.result.then(done, done);
    return entry.result;
  }
}
