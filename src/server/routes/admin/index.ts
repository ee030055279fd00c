import type { FastifyPluginAsync } from 'fastify';
import { z } from '../../../shared/zod';
import type { ExportLimits } from '../../inbox/export-threads';
import { PageVersionLabels, VERSION_CACHE_SIZE } from '../../inbox/page-versions';
import { takesBody } from '../../plugins/openapi';
import { declareProblems } from '../../problem';
import { offCampaignHosts } from '../page';
import { applicationRoutes } from './applications';
import { conversationRoutes } from './conversation';
import { exportRoutes } from './export';
import { funnelReportRoutes } from './funnel';
import { pageImageRoutes } from './page-images';
import { pageAdminRoutes } from './pages';
import { sessionRoutes, signInLimitsOf, type SignInLimits } from './session';
import { teamRoutes, type TeamRoutesOptions } from './team';
import { accountRoutes, type RelyingParty } from './account';
import { savedViewRoutes } from './views';
import { summaryRoutes } from './summary';
import { webhookRoutes, type WebhookRoutesOptions } from './webhooks';
import { emailRoutes } from './emails';
import { personRoutes } from './people';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route of the inbox API open without a session (the sign-in). */
    public?: boolean;
  }
}

/** What {@link adminApi} is registered with. */
export interface AdminApiOptions {
  /** Failed sign-ins allowed per account and per client network (defaults: 5 and 30 per 15 minutes). */
  signInLimits?: Partial<SignInLimits> | undefined;
  /** CSV exports at a time and waiting (defaults: 2 and 8; docs/decisions/014). */
  exportLimits?: Partial<ExportLimits> | undefined;
  /** Where webhooks may point, and the sender to wake after a test or a replay (routes/admin/webhooks.ts). */
  webhooks: WebhookRoutesOptions;
  /** The team's links, whether e-mail goes out, the e-mail sender to wake (routes/admin/team.ts), and the passkeys' relying party. */
  team: TeamRoutesOptions & { relyingParty: RelyingParty };
}

/**
 * The brand's inbox API (requirements §17), registered under `/api/admin`: every answer
 * `Cache-Control: no-store`; every route but the sign-in answers 401 problem+json without a valid
 * session, every change needs the session's anti-forgery header (403) and changes to applications
 * the `editor` or `owner` role (403), the team and integrations the `owner` role — the `session`
 * plugin's `authenticate`, `requireEditor` and `requireOwner`. One plugin per resource: session,
 * the member's own account (second factors, sessions), the team, applications, conversation
 * (notes and tags), export, funnel, summary, saved views, campaign pages and their images, webhooks. Not served on a campaign
 * page's host name (404 problem+json: `offCampaignHosts`). Its OpenAPI document
 * (plugins/openapi.ts) at `GET /api/admin/openapi.json`, to signed-in users.
 */
export const adminApi: FastifyPluginAsync<AdminApiOptions> = async (app, options) => {
  // Not on a campaign page's host name: there the API is not (404), the sign-in neither.
  const offCampaignHost = offCampaignHosts(app);
  app.addHook('onRequest', async (request, reply) => {
    await offCampaignHost(request, reply);
    if (reply.sent) return reply;
    reply.header('Cache-Control', 'no-store');
    if (request.routeOptions.config.public) return undefined;
    return app.authenticate(request, reply);
  });
  // What every route here may answer besides its own: 404 on a campaign page's host name, 401
  // without a session (the sign-in aside), 403 without the anti-forgery header on a change, or for
  // a viewer's change to applications (requireEditor).
  app.addHook('onRoute', (route) => {
    declareProblems(route, 404, ...(route.config?.public ? [] : [401, ...(takesBody(route) || route.preValidation ? [403] : [])]));
  });
  // Built once, sent as its text (some 160 KB, not compressed: compressing it again for every request
  // cost 5–10 ms of the event loop).
  app.get('/openapi.json', { compress: false, schema: { response: { 200: z.unknown() } } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(await app.openApiDocument()),
  );
  // How answers, filters and CSV columns are labelled: the default pages by their files (every
  // server's on the database, read again at most every 5 s), a stored page by its versions, each
  // version parsed once.
  app.addHook('preHandler', async () => app.filePages.refresh());
  const labels = new PageVersionLabels(app.filePages.all, app.store.pages, VERSION_CACHE_SIZE, () => app.filePages.revision);
  const signInLimits = signInLimitsOf(options.signInLimits);
  await app.register(sessionRoutes, { signInLimits });
  await app.register(accountRoutes, { signInLimits, relyingParty: options.team.relyingParty });
  await app.register(teamRoutes, options.team);
  await app.register(applicationRoutes, { labels });
  await app.register(conversationRoutes);
  await app.register(exportRoutes, { labels, exportLimits: options.exportLimits });
  await app.register(funnelReportRoutes);
  await app.register(savedViewRoutes);
  await app.register(summaryRoutes, { labels });
  await app.register(pageAdminRoutes, { labels });
  await app.register(pageImageRoutes);
  await app.register(webhookRoutes, options.webhooks);
  await app.register(emailRoutes);
  await app.register(personRoutes, { labels });
};
