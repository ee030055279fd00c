import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { declareProblems } from '../problem';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The API's OpenAPI 3.1 document (see {@link openApi}), built on the first call and kept.
     * @returns the document as a JSON-ready object.
     */
    openApiDocument(): Promise<Record<string, unknown>>;
  }
}

/** The paths the API document describes: the JSON API and the health checks, not the HTML pages, files or uploads. */
const DOCUMENTED = /^\/api\/|^\/(healthz|readyz)$/;

/** What the document says of the API as a whole. */
const INFO = {
  title: 'Creator application wizard API',
  version: '1',
  description:
    'The applicant wizard’s submit and funnel beacons, and the brand inbox’s API (a session cookie from ' +
    '`POST /api/admin/session`; every change also sends the session’s anti-forgery header). Every error is ' +
    '`application/problem+json` (RFC 9457), with field paths in `errors` when a value is not valid.',
};

/**
 * The API's OpenAPI 3.1 document, generated from the routes' own schemas by @fastify/swagger, the
 * shared zod schemas turned into JSON Schema 2020-12 by fastify-type-provider-zod: every path
 * under `/api/` and the health checks, with each route's parameters, body, successes and the error
 * statuses it declares (`problemResponses`, problem.ts) or its kind of route answers (below).
 * Served to signed-in inbox users at `GET /api/admin/openapi.json` (routes/admin/index.ts;
 * docs/inbox.md; decision 023).
 *
 * Registered before the routes, it keeps each documented route's method, path and schema as it is
 * added; the document is built on its first request, by @fastify/swagger in an instance of its own
 * that holds those routes, and kept. Loading @fastify/swagger with every start cost 40–50 ms and
 * 6–10 MiB of every server, for a document a few people read (docs/performance.md).
 */
export const openApi = fp(
  async (app: FastifyInstance) => {
    const documented: Pick<RouteOptions, 'method' | 'url' | 'schema'>[] = [];
    // The statuses any documented route may answer, whatever it does, declared on each:
    // 400 (its schema refused the request, two Host headers, a URL that is not one: problem-details.ts,
    // app.ts), 413 and 415 for a body (too large, not UTF-8 JSON, an unknown Content-Encoding), 429
    // under a rate limit (rate-limits.ts), 500 (a bug, never a stack trace), 503 (the store out of
    // reach or full, the event loop overloaded: under-pressure.ts). The inbox API adds its own
    // (routes/admin/index.ts).
    app.addHook('onRoute', (route) => {
      if (!DOCUMENTED.test(route.url)) return;
      const hasBody = [route.method].flat().some((method) => method === 'POST' || method === 'PUT' || method === 'PATCH');
      declareProblems(route, 400, ...(hasBody ? [413, 415] : []), ...(route.config?.rateLimit ? [429] : []), 500, 503);
      // The options object itself: hooks of plugins registered later (the inbox API's) still add to its schema.
      documented.push(route);
    });

    let document: Promise<Record<string, unknown>> | undefined;
    app.decorate('openApiDocument', () => {
      document ??= (async () => {
        const [{ default: Fastify }, { default: fastifySwagger }] = await Promise.all([import('fastify'), import('@fastify/swagger')]);
        const describer = Fastify({ logger: false });
        describer.setValidatorCompiler(validatorCompiler);
        describer.setSerializerCompiler(serializerCompiler);
        await describer.register(fastifySwagger, { openapi: { openapi: '3.1.0', info: INFO }, transform: jsonSchemaTransform });
        for (const route of documented) {
          // Fastify adds each GET route's HEAD twin itself.
          if (route.method === 'HEAD') continue;
          describer.route({ method: route.method, url: route.url, schema: route.schema, handler: async () => undefined });
        }
        await describer.ready();
        const built = describer.swagger() as unknown as Record<string, unknown>;
        await describer.close();
        return built;
      })();
      return document;
    });
  },
  { name: 'openapi' },
);
