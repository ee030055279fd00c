/**
 * What the store can tell of changes other processes (and, on SQLite, other connections) have
 * committed: a token that differs once any has committed since it was last read.
 */
export interface StoreChanges {
  /**
   * The token now (SQLite: the store's own connection's `data_version`, a pragma that changes with
   * every other connection's commit; PostgreSQL: the `inbox_changes` sequence's last value, one query).
   * @throws the store's error when it cannot be reached.
   */
  now(): Promise<unknown>;
  /**
   * Makes a change this process has just committed known to the others (PostgreSQL: advances
   * `inbox_changes`, migration 027; SQLite: nothing, its commit did).
   * @throws the store's error when it cannot be reached.
   */
  record(): Promise<void>;
}

/**
 * The changes of what the inbox's filters and counts read: this process's own as a number, raised
 * once each has committed (a batch of submissions, a decision, a bulk decision, an erasure, tags
 * applied, removed or deleted, an answer index follow-up that wrote rows) and before whoever made it
 * is answered; and, with
 * {@link StoreChanges}, those of every other process. A read that begins after {@link version}
 * has given a token sees every change made before it whose maker was told of it; two equal tokens
 * mean nothing was changed in between.
 */
export class InboxChanges {
  #version = 0;

  /** @param store - what tells of other processes' changes; none: this process's only (a store no other process writes). */
  constructor(private readonly store?: StoreChanges) {}

  /**
   * A token of every change so far: this process's number, then the store's.
   * @throws the store's error when it cannot be reached.
   */
  async version(): Promise<string> {
    const own = this.#version;
    return `${own}/${this.store ? String(await this.store.now()) : ''}`;
  }

  /**
   * `write`'s result, recorded as a change once it settles, before it is passed on (a failure may
   * have written part of it). With `shared` (the default), also made known to other processes
   * ({@link StoreChanges.record}, awaited before a write that committed is passed on; a failure
   * to do so is not the write's: a summary another process is running then may be shared, until it
   * ends, by summaries asked after the change, docs/decisions/020). Without, for the
   * submissions: what another process stored reaches this inbox after its answer index's delay
   * anyway (docs/decisions/022).
   * @throws what `write` throws.
   */
  async after<T>(write: Promise<T>, { shared = true }: { shared?: boolean } = {}): Promise<T> {
    let result: T;
    try {
      result = await write;
    } catch (error) {
      // Nobody is told of a change: its error goes back at once, the others learn of it meanwhile.
      this.changed();
      if (shared) void this.store?.record().catch(() => undefined);
      throw error;
    }
    this.changed();
    if (shared) await this.store?.record().catch(() => undefined);
    return result;
  }

  /** Records a change of this process's own, committed now (the answer index's follow-up: rows derived from what is stored). */
  changed(): void {
    this.#version += 1;
  }
}

/**
 * Identical reads asked while one runs, answered by that one (docs/decisions/020, "Summaries
 * asked at once share one read"): a team opening a shared view asks the same summary at the same
 * moment, and the inbox's few read connections (two threads on SQLite, four on PostgreSQL) would
 * otherwise run it once each, one after another. A read joins one already running only when
 * nothing the inbox reads has changed since that one was asked ({@link InboxChanges}, in this
 * process or another): whoever was told of a change (a decision answered, an erasure done) and asks
 * then gets a read that sees it. Submissions stored by another process are the one exception,
 * as for every read of the inbox: they reach it after that process's answer index's delay.
 */
export class SharedReads<T> {
  /** The reads running, by key, with the token of the changes when each was asked. */
  private readonly running = new Map<string, { version: string; result: Promise<T> }>();

  constructor(private readonly changes: InboxChanges) {}

  /**
   * The result of `run`, or of the read of the same `key` running and asked at the same token of
   * changes. Every caller gets the same value: callers must not change it.
   * @param key - what makes two reads the same (the filter and what is counted, as JSON).
   * @throws what the read throws, to every caller that shared it; the store's error when the token
   *   cannot be read.
   */
  async read(key: string, run: () => Promise<T>): Promise<T> {
    const version = await this.changes.version();
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
