import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FunnelBeaconSchema } from '../../shared/admin';
import { z } from '../../shared/zod';
import { problemResponses, sendProblem } from '../problem';

/** Largest funnel beacon accepted, in bytes (the real ones are ~40). */
const FUNNEL_BODY_LIMIT_BYTES = 1024;

/**
 * `POST /api/funnel/{pageId}`: the wizard's anonymous funnel counts —
 * a step reached, a submission, a sign-in click — sent with
 * `navigator.sendBeacon`, so without the XSRF header (a forged beacon can only
 * add one to a count). No personal data is accepted: the body is
 * `{ event, step? }` and nothing else; answers `204`, `404` for an unknown
 * page (neither the default page nor a stored page served now), `400` problem+json
 * otherwise; rate limited per client IP.
 */
export const funnelRoutes: FastifyPluginAsyncZod<{ rateLimitPerMinute: number }> = async (app, options) => {
  /** The configuration page `id` is served with: the default page's, or a stored page's published version. */
  const configOf = (id: string) => app.pages.get(id) ?? app.pageRegistry.get(id)?.config;
  app.post(
    '/api/funnel/:pageId',
    {
      schema: { params: z.object({ pageId: z.string() }), body: FunnelBeaconSchema, response: { 204: z.void(), ...problemResponses(404) } },
      config: { invalid: 'Send { event, step } with a step of this page.', rateLimit: { max: options.rateLimitPerMinute, timeWindow: '1 minute' } },
      bodyLimit: FUNNEL_BODY_LIMIT_BYTES,
      helmet: false,
      // After the rate limit (an onRequest hook) and before the body is read: an unknown page is a
      // 404 whatever the body.
      preParsing: async (request, reply) => {
        reply.header('X-Content-Type-Options', 'nosniff');
        const { pageId } = request.params as { pageId: string };
        if (!configOf(pageId)) return sendProblem(reply, 404, `There is no page "${pageId}".`);
        return undefined;
      },
    },
    async (request, reply) => {
      const config = configOf(request.params.pageId);
      if (!config) return sendProblem(reply, 404, `There is no page "${request.params.pageId}".`);
      const stepCount = config.steps.length;
      const beacon = request.body;
      if (beacon.event === 'stepReached' && (beacon.step === undefined || beacon.step >= stepCount)) {
        return sendProblem(reply, 400, 'Send { event, step } with a step of this page.', { errors: [{ path: 'step', message: 'Not a step of this page' }] });
      }
      const step = beacon.event === 'stepReached' ? beacon.step! : -1;
      app.store.funnel.recordFunnelEvent(request.params.pageId, new Date(app.clock()).toISOString().slice(0, 10), beacon.event, step);
      return reply.code(204).send();
    },
  );
};
