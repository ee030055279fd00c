import fastifyUnderPressure, { type FastifyUnderPressureOptions } from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { RETRY_AFTER_SECONDS } from '../constants';
import { problemDetails } from '../problem';

/**
 * The answer to a request shed: 503 problem+json with `Retry-After`. Its body is returned, not
 * sent: @fastify/under-pressure sends what the handler returns and ends the request there ("any
 * other return value than a promise or nullish will be sent to the client with `reply.send`", its
 * README); a handler that sends and returns nothing lets the request go on, to its route or to the
 * 404 handler, which then answered a second time. Its types declare `void` only, hence the cast.
 */
const shed = ((_request: FastifyRequest, reply: FastifyReply) => {
  reply.code(503).type('application/problem+json').header('Retry-After', String(RETRY_AFTER_SECONDS));
  return problemDetails(503, 'The server is overloaded. Please try again shortly.');
}) as unknown as NonNullable<FastifyUnderPressureOptions['pressureHandler']>;

/**
 * Load shedding: while the event loop lags more than `maxEventLoopDelayMs` (default 1000), every
 * request is answered 503 problem+json with `Retry-After` instead of queueing behind the lag, and
 * goes no further (no route runs: an application so answered is not stored).
 */
export const underPressure = fp(
  async (app: FastifyInstance, options: { maxEventLoopDelayMs?: number | undefined; sampleIntervalMs?: number | undefined }) => {
    await app.register(fastifyUnderPressure, {
      maxEventLoopDelay: options.maxEventLoopDelayMs ?? 1000,
      ...(options.sampleIntervalMs ? { sampleInterval: options.sampleIntervalMs } : {}),
      retryAfter: RETRY_AFTER_SECONDS,
      pressureHandler: shed,
    });
  },
  { name: 'under-pressure' },
);
