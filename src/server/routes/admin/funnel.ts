import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FunnelQuerySchema, FunnelReportSchema, MAX_FUNNEL_DAYS } from '../../../shared/admin';
import { daysIn, funnelReport, previousPeriod, utcDay } from '../../inbox/funnel-report';
import { sendProblem } from '../../problem';

/**
 * `GET /funnel` of the inbox API: a page's funnel per UTC day for `from`–`to`
 * (default: the 30 days up to today on the injected clock), with totals and step-to-step
 * conversion, and with `compare=previous` the totals of the period of the same length just before
 * (read in the same query); 404 for an unknown page, 400 for a range that ends before it starts or
 * is longer than {@link MAX_FUNNEL_DAYS} days.
 */
export const funnelReportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/funnel',
    { schema: { querystring: FunnelQuerySchema, response: { 200: FunnelReportSchema } }, config: { invalid: 'The range is not valid.' } },
    async (request, reply) => {
      const { pageId, compare } = request.query;
      const config = pageId ? app.pageConfig(pageId) : [...app.pages.values()][0];
      if (!config) return sendProblem(reply, 404, `There is no page "${pageId}".`);
      const to = request.query.to ?? utcDay(app.clock());
      const from = request.query.from ?? utcDay(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000);
      if (from > to) return sendProblem(reply, 400, 'The range ends before it starts.', { errors: [{ path: 'from', message: 'After to' }] });
      if (daysIn(from, to) > MAX_FUNNEL_DAYS) {
        return sendProblem(reply, 400, `The range is longer than ${MAX_FUNNEL_DAYS} days.`, {
          errors: [{ path: 'from', message: `More than ${MAX_FUNNEL_DAYS} days before to` }],
        });
      }
      if (compare !== 'previous') return funnelReport(config, from, to, await app.store.funnel.funnelCounts(config.pageId, from, to));
      const previous = previousPeriod(from, to);
      // Both periods in one read: they are next to each other.
      const counts = await app.store.funnel.funnelCounts(config.pageId, previous.from, to);
      const before = funnelReport(config, previous.from, previous.to, counts);
      return {
        ...funnelReport(config, from, to, counts),
        previous: { from: before.from, to: before.to, totals: before.totals, conversion: before.conversion },
      };
    },
  );
};
