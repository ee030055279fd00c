import fastifyUnderPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { RETRY_AFTER_SECONDS } from '../constants';
import { sendProblem } from '../problem';

/**
 * Load shedding: while the event loop lags more than `maxEventLoopDelayMs` (default 1000), every
 * request is answered 503 problem+json with `Retry-After` instead of queueing behind the lag.
 */
export const underPressure = fp(
  async (app: FastifyInstance, options: { maxEventLoopDelayMs?: number | undefined; sampleIntervalMs?: number | undefined }) => {
    await app.register(fastifyUnderPressure, {
      maxEventLoopDelay: options.maxEventLoopDelayMs ?? 1000,
      ...(options.sampleIntervalMs ? { sampleInterval: options.sampleIntervalMs } : {}),
      retryAfter: RETRY_AFTER_SECONDS,
      pressureHandler: (_request, reply) => {
        void sendProblem(reply, 503, 'The server is overloaded. Please try again shortly.', {
          headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
        });
      },
    });
  },
  { name: 'under-pressure' },
);
