import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SIGNED_LINK_PATHS } from '../email/signed-links';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's path holds a secret (a signed link's token: the guardian's page, a consent's
     * withdrawal): its log line names the route's pattern (`/guardian/:token`), never the path.
     */
    secretInPath?: boolean;
  }
}

/** A path under a signed link's prefix, however written (`/Guardian/…`, `//consents/…/`): what follows it may be a live secret. */
const SECRET_PATHS = new RegExp(
  `^/+(${Object.values(SIGNED_LINK_PATHS)
    .map((path) => path.replace(/\//g, ''))
    .join('|')})(/|$)`,
  'i',
);

/** The path a request's log line names: without its query, and without any secret a signed link's path carries. */
function loggedPath(request: FastifyRequest): string {
  if (request.routeOptions.config?.secretInPath) return request.routeOptions.url ?? '';
  const path = request.url.split('?')[0] ?? '';
  const secret = SECRET_PATHS.exec(path);
  // Not the route (a trailing slash, another case, another method): the link's secret may be there all the same.
  return secret ? `/${secret[1]!.toLowerCase()}/:token` : path;
}

/**
 * One log line per request — method, path without its query (a path that may hold a signed link's
 * secret: its pattern), status, ms — never a body, an e-mail or a link's secret.
 */
export const requestLog = fp(
  async (app: FastifyInstance) => {
    app.addHook('onResponse', async (request, reply) => {
      request.log.info({ method: request.method, url: loggedPath(request), statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    });
  },
  { name: 'request-log' },
);
