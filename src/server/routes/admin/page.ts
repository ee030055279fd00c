import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from '../../problem';
import { ensureXsrfCookie, inboxScope } from '../../xsrf';
import { offCampaignHosts } from '../page';

/**
 * `GET /admin` and `GET /admin/*`: the inbox's single page (its own router takes over), with the
 * `XSRF-TOKEN` cookie it needs; a missing hashed asset under `/admin/assets/` is a 404. On a
 * campaign page's host name, a redirect to `/` (`offCampaignHosts`).
 */
export const adminPageRoutes: FastifyPluginAsync<{ html: string | undefined }> = async (app, options) => {
  // On a campaign page's host name the inbox is not there: a redirect to the page at `/`.
  app.addHook('onRequest', offCampaignHosts(app));
  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!options.html) return sendProblem(reply, 404, 'The inbox was not built (npm run build).');
    ensureXsrfCookie(request, reply, inboxScope(request, app.xsrf));
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(options.html);
  };
  app.get('/admin', sendPage);
  app.get('/admin/*', async (request, reply) => {
    // A missing hashed asset is a 404, not the page.
    if (request.url.startsWith('/admin/assets/')) return sendProblem(reply, 404, 'No such file.');
    return sendPage(request, reply);
  });
};
