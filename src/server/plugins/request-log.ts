import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SIGNED_LINK_PATHS } from '../email/signed-links';

/**
 * A path under a signed link's prefix, however written (`/guardian/…`, `/Guardian/…`,
 * `//consents/…/`): what follows it may be a live secret, whether or not the path is the route's.
 */
const SECRET_PATHS = new RegExp(
  `^/+(${Object.values(SIGNED_LINK_PATHS)
    .map((path) => path.replace(/\//g, ''))
    .join('|')})(/|$)`,
  'i',
);

/** The path a request's log line names: without its query, and a signed link's path as its pattern (`/guardian/:token`), never its secret. */
function loggedPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  const secret = SECRET_PATHS.exec(path);
  return secret ? `/${secret[1]!.toLowerCase()}/:token` : path;
}

/**
 * One log line per request — method, path without its query (a path that may hold a signed link's
 * secret: its pattern), status, ms — never a body, an e-mail or a link's secret.
 */
export const requestLog = fp(
  async (app: FastifyInstance) => {
    app.addHook('onResponse', async (request, reply) => {
      request.log.info({ method: request.method, url: loggedPath(request.url), statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    });
  },
  { name: 'request-log' },
);
