import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '../../shared/zod';
import { RETRY_AFTER_SECONDS } from '../constants';
import { sendProblem } from '../problem';

/** A health check's answer when all is well. */
const HealthSchema = z.object({ status: z.literal('ok') });

/**
 * `GET /healthz` (the process answers: liveness) and `GET /readyz` (the store answers a query:
 * readiness; 503 problem+json with `Retry-After` when it does not).
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/healthz', { schema: { response: { 200: HealthSchema } } }, async () => ({ status: 'ok' as const }));
  app.get('/readyz', { schema: { response: { 200: HealthSchema } } }, async (_request, reply) => {
    try {
      await app.store.ping();
      return { status: 'ok' as const };
    } catch {
      return sendProblem(reply, 503, 'The application store is not reachable.', { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
    }
  });
};
