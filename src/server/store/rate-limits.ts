import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import type { Database } from './schema';

/** A key's count in its current window, as {@link RateLimitCounter.hit} answers it. */
export interface RateLimitHit {
  /** Requests counted in the current window, the one just counted included (1 or more). */
  count: number;
  /** Milliseconds until the window ends and the count starts again. */
  ttlMs: number;
}

/**
 * Fixed-window request counts kept in the database, so every server process on
 * it counts against the same limit (decision 006). Windows are as
 * `@fastify/rate-limit`'s own: a key's window starts at its first request and
 * lasts `windowMs`; the first request after it starts a new one at 1.
 */
export interface RateLimitCounter {
  /**
   * Counts one request under `key` (any text; `@fastify/rate-limit` passes route and client IP).
   * @param windowMs - the window's length in ms, used when this request starts a window.
   * @returns the count in the current window and the ms left in it.
   * @throws the database's error when it cannot be reached or refuses the write.
   */
  hit(key: string, windowMs: number): Promise<RateLimitHit>;
}

interface CountRow {
  key: string;
  count: number;
  ttl_ms: number;
}

/**
 * One count of a batch of keys: each key's hits added to its window, or a new window started when
 * its window has ended; rows locked in one order by every process, so two batches sharing keys never
 * deadlock. Parameters: keys (text[]), hits (integer[]), window lengths in ms (float8[]).
 */
const COUNT = {
  name: 'rate-limit-count-1',
  text: `insert into rate_limits as r (key, count, reset_at)
    select key, hits, now() + window_ms * interval '1 millisecond'
    from unnest($1::text[], $2::integer[], $3::float8[]) as t(key, hits, window_ms)
    order by key
    on conflict (key) do update set
      count = case when r.reset_at <= now() then excluded.count else r.count + excluded.count end,
      reset_at = case when r.reset_at <= now() then excluded.reset_at else r.reset_at end
    returning key, count, (extract(epoch from reset_at - now()) * 1000)::float8 as ttl_ms`,
};

/** How often, at most, one process deletes the rows of windows that have ended, in ms. */
const SWEEP_INTERVAL_MS = 60_000;
/** Most keys counted by one statement. */
const MAX_KEYS_PER_BATCH = 500;

interface PendingKey {
  windowMs: number;
  waiters: { resolve: (hit: RateLimitHit) => void; reject: (error: unknown) => void }[];
}

/**
 * {@link RateLimitCounter} on PostgreSQL's `rate_limits` table (UNLOGGED, migration
 * `2026-11-24-004-rate-limits`). Each count is one `insert … on conflict do update … returning`,
 * atomic under concurrent processes, on the database's clock (processes whose clocks differ agree
 * on when a window ends). As the submissions' group commit does, the hits that arrive while one
 * statement runs are counted together by the next — one statement and one row update per key for
 * the whole batch — so the limiter costs one round trip per batch, not per request, and requests
 * from one address under load do not queue on that address's row lock one by one.
 */
export class PostgresRateLimitCounter implements RateLimitCounter {
  private pending = new Map<string, PendingKey>();
  private counting = false;
  private nextSweep = 0;

  /**
   * @param db - the store's database (the sweep of ended windows).
   * @param pool - the store's pg pool: each count runs on it as a named prepared statement, parsed
   *   and planned once per connection rather than on every count (with two server
   *   processes there are twice as many counts, each half as large).
   * @param onQuery - called with each count's statement and parameters before it runs (tests: query plans).
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly pool: pg.Pool,
    private readonly onQuery?: (sql: string, parameters: readonly unknown[]) => void,
  ) {}

  hit(key: string, windowMs: number): Promise<RateLimitHit> {
    return new Promise((resolve, reject) => {
      let entry = this.pending.get(key);
      if (!entry) this.pending.set(key, (entry = { windowMs, waiters: [] }));
      entry.waiters.push({ resolve, reject });
      if (!this.counting) void this.drain();
    });
  }

  /** Counts batches until nothing is pending; one statement at a time. */
  private async drain() {
    this.counting = true;
    // Let the hits arriving in this tick join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.pending.size > 0) {
      const keys = [...this.pending.keys()].slice(0, MAX_KEYS_PER_BATCH);
      const batch = keys.map((key) => [key, this.pending.get(key)!] as const);
      for (const key of keys) this.pending.delete(key);
      try {
        const counted = await this.count(batch.map(([key, entry]) => ({ key, hits: entry.waiters.length, windowMs: entry.windowMs })));
        for (const [key, entry] of batch) {
          const row = counted.get(key)!;
          // The batch's hits of one key took the counts just below the total, in arrival order.
          entry.waiters.forEach((waiter, index) => waiter.resolve({ count: row.count - entry.waiters.length + 1 + index, ttlMs: row.ttlMs }));
        }
      } catch (error) {
        for (const [, entry] of batch) for (const waiter of entry.waiters) waiter.reject(error);
      }
    }
    this.counting = false;
    this.sweep();
  }

  private async count(keys: { key: string; hits: number; windowMs: number }[]) {
    const values = [keys.map((k) => k.key), keys.map((k) => k.hits), keys.map((k) => k.windowMs)];
    this.onQuery?.(COUNT.text, values);
    const { rows } = await this.pool.query<CountRow>({ name: COUNT.name, text: COUNT.text, values });
    return new Map(rows.map((row) => [row.key, { count: row.count, ttlMs: Math.max(0, Math.ceil(row.ttl_ms)) }]));
  }

  /** Deletes ended windows at most once a minute, in the background: the table keeps one row per live key. */
  private sweep() {
    const now = Date.now();
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_INTERVAL_MS;
    // Skipping the rows a count holds, the sweep never waits on one, so it cannot deadlock with it.
    void sql`delete from rate_limits where key in (
        select key from rate_limits where reset_at < now() for update skip locked
      )`
      .execute(this.db)
      .catch(() => undefined);
  }
}
