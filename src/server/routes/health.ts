import type { FastifyPluginAsync } from 'fastify';
import { RETRY_AFTER_SECONDS } from '../constants';
import { sendProblem } from '../problem';

/**
 * `GET /healthz` (the process answers: liveness) and `GET /readyz` (the store answers a query:
 * readiness; 503 problem+json with `Retry-After` when it does not).
 */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await app.store.ping();
      return { status: 'ok' };
    } catch {
      return sendProblem(reply, 503, 'The application store is not reachable.', { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
    }
  });
};
