import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sharedRateLimitStore } from '../rate-limit-store';

/**
 * Per-route rate limits (`config.rateLimit` on a route; none by default), keyed by client IP.
 * On PostgreSQL the counts are shared by every server process on the database (decision 006);
 * SQLite has one process, which counts in memory. Needs the `store` decorator.
 */
export const rateLimits = fp(
  async (app: FastifyInstance) => {
    const counter = app.store.rateLimits;
    await app.register(fastifyRateLimit, {
      global: false,
      ...(counter && {
        store: sharedRateLimitStore(counter, app.log),
        // The database unreachable: the request goes through uncounted (and is logged) instead of a
        // 500. The limits keep floods off the store, and without the database there is no store to
        // protect: a submission is answered 503 by its route, a beacon is counted in memory. Refusing
        // instead would turn a database outage into 429s for every applicant, for nothing.
        skipOnError: true,
      }),
      errorResponseBuilder: (request, context) => ({
        statusCode: 429,
        // The same limiter guards submissions, sign-ins and the funnel's beacons: each says its own.
        message: `Too many ${request.method === 'PUT' ? 'applications' : 'requests'} from this address. Try again in ${context.after}.`,
      }),
    });
  },
  { name: 'rate-limits', dependencies: ['services'] },
);
