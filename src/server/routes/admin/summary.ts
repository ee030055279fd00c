import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApplicationFilterSchema, ApplicationSummarySchema } from '../../../shared/admin';
import type { WizardConfig } from '../../../shared/config';
import type { PageVersionLabels } from '../../inbox/page-versions';
import { applicationSummary, summaryPlan, summaryRequest, type SummaryPlan } from '../../inbox/summary';
import { sendProblem } from '../../problem';

/**
 * `GET /summary` of the inbox API: for the list's filters (`ApplicationFilterSchema`:
 * 400 problem+json when they are not valid) on one page — the `pageId` filter, or the server's
 * first page; a stored page counts the questions and platforms of every version it published;
 * 404 for a page it does not serve or never published — how many applications match,
 * how many gave each platform, and per question of the page the count of each option (every
 * option, zero included, in the configuration's order) or, for free text, how many answered.
 * Viewers may read it.
 */
export const summaryRoutes: FastifyPluginAsyncZod<{ labels: PageVersionLabels }> = async (app, options) => {
  // Each page's questions, worked out once (their labels go through html-to-text).
  const plans = new Map<WizardConfig, SummaryPlan>();
  const planOf = (config: WizardConfig) => {
    let plan = plans.get(config);
    if (!plan) plans.set(config, (plan = summaryPlan(config)));
    return plan;
  };

  app.get(
    '/summary',
    { schema: { querystring: ApplicationFilterSchema, response: { 200: ApplicationSummarySchema } }, config: { invalid: 'The filters are not valid.' } },
    async (request, reply) => {
      const { pageId } = request.query;
      // A default page: this server's, or another's on the database (docs/decisions/034).
      const config = pageId ? app.filePages.all.get(pageId) : [...app.pages.values()][0];
      // A stored page: its versions' questions as one (kept by the labels' cache).
      const plan = config ? planOf(config) : pageId ? await options.labels.summaryPlan(pageId) : undefined;
      if (!plan) return sendProblem(reply, 404, `There is no page "${pageId}".`);
      const id = config?.pageId ?? pageId!;
      const counts = await app.store.summary.summarize({ ...request.query, pageId: id }, summaryRequest(plan));
      return applicationSummary(id, plan, counts);
    },
  );
};
