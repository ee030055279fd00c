import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FunnelQuerySchema, FunnelReportSchema } from '../../../shared/admin';
import { funnelReport, utcDay } from '../../inbox/funnel-report';
import { sendProblem } from '../../problem';

/**
 * `GET /funnel` of the inbox API (issue 7): a page's funnel per UTC day for `from`–`to` (default:
 * the 30 days up to today on the injected clock), with totals and step-to-step conversion; 404 for
 * an unknown page, 400 for a range that ends before it starts.
 */
export const funnelReportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/funnel',
    { schema: { querystring: FunnelQuerySchema, response: { 200: FunnelReportSchema } }, config: { invalid: 'The range is not valid.' } },
    async (request, reply) => {
      const { pageId } = request.query;
      const config = pageId ? app.pages.get(pageId) : [...app.pages.values()][0];
      if (!config) return sendProblem(reply, 404, `There is no page "${pageId}".`);
      const to = request.query.to ?? utcDay(app.clock());
      const from = request.query.from ?? utcDay(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000);
      if (from > to) return sendProblem(reply, 400, 'The range ends before it starts.', { errors: [{ path: 'from', message: 'After to' }] });
      return funnelReport(config, from, to, await app.store.funnel.funnelCounts(config.pageId, from, to));
    },
  );
};
