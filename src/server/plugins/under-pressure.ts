import { performance } from 'node:perf_hooks';
import fastifyUnderPressure, { type FastifyUnderPressureOptions } from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { RETRY_AFTER_SECONDS } from '../constants';
import { prepareProblem } from '../problem';

/** @fastify/under-pressure's own floor for its sample interval (ms): its histogram's resolution. */
const SAMPLE_RESOLUTION_MS = 10;

/**
 * The answer to a request shed: 503 problem+json with `Retry-After`. Its body is returned, not
 * sent: @fastify/under-pressure sends what the handler returns and ends the request there ("any
 * other return value than a promise or nullish will be sent to the client with `reply.send`", its
 * README); a handler that sends and returns nothing lets the request go on, to its route or to the
 * 404 handler, which then answered a second time. Its types declare `void` only, hence the cast.
 */
function shed(_request: FastifyRequest, reply: FastifyReply) {
  return prepareProblem(reply, 503, 'The server is overloaded. Please try again shortly.', { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
}

/**
 * Load shedding: while the event loop lags more than `maxEventLoopDelayMs` (default 1000), every
 * request is answered 503 problem+json with `Retry-After` instead of queueing behind the lag, and
 * goes no further (no route runs: an application so answered is not stored).
 *
 * The lag measured while the server starts (its plugins and routes compiled after this one
 * registers, before it is ready) is not overload: for two sample intervals (`sampleIntervalMs`,
 * default 1000; the second is the first that began after the start) after the server is ready,
 * nothing is shed. Without it, a start that held the event loop a second on a busy machine answered
 * the server's first requests 503 (decision 008).
 */
export const underPressure = fp(
  async (app: FastifyInstance, options: { maxEventLoopDelayMs?: number | undefined; sampleIntervalMs?: number | undefined }) => {
    const sampleIntervalMs = Math.max(SAMPLE_RESOLUTION_MS, options.sampleIntervalMs ?? 1000);
    let measuresServing = Infinity;
    app.addHook('onReady', (done) => {
      measuresServing = performance.now() + 2 * sampleIntervalMs;
      done();
    });
    const pressureHandler = (request: FastifyRequest, reply: FastifyReply) => (performance.now() < measuresServing ? undefined : shed(request, reply));
    await app.register(fastifyUnderPressure, {
      maxEventLoopDelay: options.maxEventLoopDelayMs ?? 1000,
      sampleInterval: sampleIntervalMs,
      retryAfter: RETRY_AFTER_SECONDS,
      pressureHandler: pressureHandler as unknown as NonNullable<FastifyUnderPressureOptions['pressureHandler']>,
    });
  },
  { name: 'under-pressure' },
);
