import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '../../shared/zod';
import { RETRY_AFTER_SECONDS } from '../constants';
import { sendProblem } from '../problem';

/** A health check's answer when all is well. */
const HealthSchema = z.object({ status: z.literal('ok') });

/**
 * `GET /healthz` (the process answers: liveness; answered even while load shedding answers every
 * other request 503) and `GET /readyz` (readiness: the store answers a query, and takes applications;
 * shed with the rest under load, so that a balancer sends elsewhere meanwhile). `/readyz` answers 503 problem+json with `Retry-After` when the
 * store does not answer, and when the last batch of applications was refused by the store (a full
 * disk, an I/O error) and a probe write still fails: a query alone never writes, and answered
 * 200 while every submission was refused (docs/decisions/008, "A full disk, as the operator lives
 * it"). The refusal is logged as a warning with the store's error; the client learns no internals.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const retry = { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } };
  // Never shed as overloaded (plugins/under-pressure.ts): a process that answers is alive, however
  // busy, and an orchestrator that took a lag for death would restart it into the same backlog.
  app.get('/healthz', { schema: { response: { 200: HealthSchema } }, config: { pressureHandler: () => undefined } }, async () => ({
    status: 'ok' as const,
  }));
  app.get('/readyz', { schema: { response: { 200: HealthSchema } } }, async (request, reply) => {
    try {
      await app.store.ping();
    } catch {
      return sendProblem(reply, 503, 'The application store is not reachable.', retry);
    }
    const writes = await app.store.canTakeApplications();
    if (!writes.ready) {
      request.log.warn({ err: writes.failure }, 'not ready: the store refuses writes');
      return sendProblem(
        reply,
        503,
        'The application store cannot take new applications: it refuses writes (a full disk, an I/O error or a read-only file system).',
        retry,
      );
    }
    return { status: 'ok' as const };
  });
};
