import type { FastifyInstance } from 'fastify';
import { FunnelBeaconSchema } from '../../shared/admin';
import type { WizardConfig } from '../../shared/config';
import { sendProblem } from '../problem';
import type { AdminStore } from '../store/admin-store';

/** Largest funnel beacon accepted, in bytes (the real ones are ~40). */
const FUNNEL_BODY_LIMIT_BYTES = 1024;

/**
 * `POST /api/funnel/{pageId}` (issue 7): the wizard's anonymous funnel counts —
 * a step reached, a submission, a sign-in click — sent with
 * `navigator.sendBeacon`, so without the XSRF header (a forged beacon can only
 * add one to a count). No personal data is accepted: the body is
 * `{ event, step? }` and nothing else; answers `204`, `404` for an unknown
 * page, `400` problem+json otherwise; rate limited per client IP.
 */
export function funnelRoutes(app: FastifyInstance, options: { configs: readonly WizardConfig[]; store: AdminStore; rateLimitPerMinute: number }) {
  const steps = new Map(options.configs.map((config) => [config.pageId, config.steps.length]));
  app.post<{ Params: { pageId: string } }>(
    '/api/funnel/:pageId',
    {
      bodyLimit: FUNNEL_BODY_LIMIT_BYTES,
      helmet: false,
      config: { rateLimit: { max: options.rateLimitPerMinute, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      reply.header('X-Content-Type-Options', 'nosniff');
      const stepCount = steps.get(request.params.pageId);
      if (stepCount === undefined) return sendProblem(reply, 404, `There is no page "${request.params.pageId}".`);
      const parsed = FunnelBeaconSchema.safeParse(request.body);
      if (!parsed.success || (parsed.data.event === 'stepReached' && (parsed.data.step === undefined || parsed.data.step >= stepCount))) {
        return sendProblem(reply, 400, 'Send { event, step } with a step of this page.');
      }
      const step = parsed.data.event === 'stepReached' ? parsed.data.step! : -1;
      options.store.recordFunnelEvent(request.params.pageId, new Date().toISOString().slice(0, 10), parsed.data.event, step);
      return reply.code(204).send();
    },
  );
}
