import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's path holds a secret (a signed link's token: the guardian's page, a consent's
     * withdrawal): its log line names the route's pattern (`/guardian/:token`), never the path.
     */
    secretInPath?: boolean;
  }
}

/**
 * One log line per request — method, path without its query (a route whose path holds a secret:
 * its pattern), status, ms — never a body, an e-mail or a link's secret.
 */
export const requestLog = fp(
  async (app: FastifyInstance) => {
    app.addHook('onResponse', async (request, reply) => {
      const url = request.routeOptions.config?.secretInPath ? request.routeOptions.url : request.url.split('?')[0];
      request.log.info({ method: request.method, url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    });
  },
  { name: 'request-log' },
);
