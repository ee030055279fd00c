import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** One log line per request — method, path without its query, status, ms — never a body or an e-mail. */
export const requestLog = fp(
  async (app: FastifyInstance) => {
    app.addHook('onResponse', async (request, reply) => {
      request.log.info({ method: request.method, url: request.url.split('?')[0], statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    });
  },
  { name: 'request-log' },
);
