import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { RateLimitCounter } from './store/rate-limits';

/** How often, at most, an unreachable counter is logged, in ms (one line, not one per request). */
const LOG_EVERY_MS = 10_000;
/** Longest a request waits for its count, in ms; a count takes a few ms when the database answers. */
const COUNT_WAIT_MS = 1_000;

/**
 * A `@fastify/rate-limit` store (its `store` option) that counts in a
 * {@link RateLimitCounter} shared by every server process, instead of the
 * plugin's in-memory one (decision 006). Keys are `<method> <route url> <client key>`,
 * so each route keeps its own count per client, as with the in-memory store.
 *
 * When the counter fails (the database cannot be reached), the store reports the
 * error, logged at most once every 10 s; registered with `skipOnError: true`, the
 * plugin then lets the request through.
 * @param counter - where the counts live.
 * @param log - where a failing counter is reported.
 * @returns the constructor the plugin's `store` option takes.
 */
export function sharedRateLimitStore(counter: RateLimitCounter, log: FastifyBaseLogger): FastifyRateLimitStoreCtor {
  let loggedAt = -Infinity;
  class SharedRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options?: unknown,
      private readonly prefix = '',
    ) {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      // A database that went silent must not hold every request for its query timeout: past
      // COUNT_WAIT_MS the request goes on uncounted, as when the database is down.
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`rate limit not counted within ${COUNT_WAIT_MS} ms`)), COUNT_WAIT_MS);
      });
      Promise.race([counter.hit(`${this.prefix}${key}`, timeWindow), waited])
        .finally(() => clearTimeout(timer))
        .then(
          (hit) => callback(null, { current: hit.count, ttl: hit.ttlMs }),
          (error: unknown) => {
            if (Date.now() - loggedAt >= LOG_EVERY_MS) {
              loggedAt = Date.now();
              log.error({ err: error }, 'rate limits cannot be counted: requests are let through uncounted');
            }
            callback(error instanceof Error ? error : new Error(String(error)));
          },
        );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]) {
      // The plugin passes the route's merged options with the route itself as `routeInfo`.
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      return new SharedRateLimitStore(undefined, `${String(route?.method)} ${String(route?.url)} `);
    }
  }
  return SharedRateLimitStore;
}
