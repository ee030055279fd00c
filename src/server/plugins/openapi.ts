import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodMiniType } from 'zod/mini';
import { XSRF_HEADER } from '../../shared/xsrf';
import { SESSION_COOKIE } from '../constants';
import { declareProblems } from '../problem';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The API's OpenAPI 3.1 document as JSON text (see {@link openApi}), built on the first call and
     * kept (a failed build is tried again on the next call).
     */
    openApiDocument(): Promise<string>;
  }
  interface FastifyContextConfig {
    /**
     * What a route's OpenAPI operation says beyond its schema, for what the route checks by itself
     * rather than through a schema (the submit's body, judged by its page's rules; an image's
     * bytes; the CSV it streams). Read by the document only: the route's validation and
     * serialisation are untouched.
     */
    openapi?: {
      /** The body as the operation documents it. */
      body?: ZodMiniType;
      /** The body's media types, when not JSON (`image/png`, …). */
      consumes?: string[];
      /** Request headers the route reads (lower-case names). */
      headers?: ZodMiniType;
      /** Answers the route sends itself, by status: `{ description, content: { 'text/csv': { schema } } }`. */
      responses?: Record<number, { description: string; content: Record<string, { schema: ZodMiniType }> }>;
    };
  }
}

/** The paths the API document describes: the JSON API and the health checks, not the HTML pages, files or uploads. */
const DOCUMENTED = /^\/api\/|^\/(healthz|readyz)$/;

/** What the document says of the API as a whole. */
const INFO = {
  title: 'Creator application wizard API',
  version: '1',
  description:
    'The applicant wizard’s submit and funnel beacons, and the brand inbox’s API. The inbox’s routes need the ' +
    'session cookie `POST /api/admin/session` sets; every change there also sends the `X-XSRF-TOKEN` header, ' +
    'repeating the `XSRF-TOKEN` cookie the sign-in sets (the wizard’s submit does the same with the pair its page ' +
    'gives). Every error is `application/problem+json` (RFC 9457), with field paths in `errors` when a value is ' +
    'not valid. Besides the statuses each operation lists, any request may be answered 408 (it took too long to ' +
    'arrive) or 431 (headers over 16 KiB) before it reaches a route.',
};

/** The security schemes the operations name: the inbox's session cookie and the anti-forgery header. */
const SECURITY_SCHEMES = {
  session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'Set by `POST /api/admin/session`.' },
  xsrf: {
    type: 'apiKey',
    in: 'header',
    name: XSRF_HEADER,
    description: 'Repeats the `XSRF-TOKEN` cookie (double submit): every change in the inbox, and the wizard’s submit.',
  },
} as const;

/** Whether a route reads a body: Fastify parses one for every method but GET and HEAD. */
export const takesBody = (route: Pick<RouteOptions, 'method'>) => [route.method].flat().some((method) => method !== 'GET' && method !== 'HEAD');

/** A documented route as it was added: its options (hooks registered later still add to its schema). */
type DocumentedRoute = Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config'>;

/** The schema the document shows for a route: its own, with what its `config.openapi` adds and the security it needs. */
function documentedSchema(route: DocumentedRoute): Record<string, unknown> {
  const { schema = {}, config, url } = route;
  const extra = config?.openapi;
  const changes = takesBody(route);
  const inbox = url.startsWith('/api/admin/') && !config?.public;
  const security = inbox ? [changes ? { session: [], xsrf: [] } : { session: [] }] : url.startsWith('/api/syncPage/') ? [{ xsrf: [] }] : undefined;
  return {
    ...schema,
    ...(extra?.body && { body: extra.body }),
    ...(extra?.consumes && { consumes: extra.consumes }),
    ...(extra?.headers && { headers: extra.headers }),
    ...(extra?.responses && { response: { ...(schema.response as object | undefined), ...extra.responses } }),
    ...(security && { security }),
  };
}

/**
 * The API's OpenAPI 3.1 document, generated from the routes' own schemas by @fastify/swagger, the
 * shared zod schemas turned into JSON Schema 2020-12 by fastify-type-provider-zod: every path
 * under `/api/` and the health checks, with each route's parameters, body, successes, the error
 * statuses it declares (`problemResponses`, problem.ts) or its kind of route answers (below), and
 * what its `config.openapi` adds. Served to signed-in inbox users at `GET /api/admin/openapi.json`
 * (routes/admin/index.ts; docs/inbox.md; decision 023).
 *
 * Registered before the routes, it keeps each documented route as it is added; the document is
 * built on its first request, by @fastify/swagger in an instance of its own that holds those routes,
 * and kept as text. Loading @fastify/swagger with every start cost 40–50 ms and 6–10 MiB of every
 * server, for a document a few people read (docs/performance.md).
 */
export const openApi = fp(
  async (app: FastifyInstance) => {
    const documented: DocumentedRoute[] = [];
    // The statuses any documented route may answer, whatever it does, declared on each:
    // 400 (its schema refused the request, two Host headers, a URL that is not one: problem-details.ts,
    // app.ts), 413 and 415 for a body (too large, not UTF-8 JSON, an unknown Content-Encoding: any
    // method but GET and HEAD), 414 for a path parameter over Fastify's 100 characters, 429 under a
    // rate limit (rate-limits.ts), 500 (a bug, never a stack trace), 503 (the store out of reach or
    // full, the event loop overloaded: under-pressure.ts). The inbox API adds its own (routes/admin/index.ts).
    app.addHook('onRoute', (route) => {
      if (!DOCUMENTED.test(route.url)) return;
      declareProblems(
        route,
        400,
        ...(takesBody(route) ? [413, 415] : []),
        ...(route.url.includes('/:') ? [414] : []),
        ...(route.config?.rateLimit ? [429] : []),
        500,
        503,
      );
      documented.push(route);
    });

    let document: Promise<string> | undefined;
    const build = async (): Promise<string> => {
      const [{ default: Fastify }, { default: fastifySwagger }] = await Promise.all([import('fastify'), import('@fastify/swagger')]);
      const describer = Fastify({ logger: false });
      describer.setValidatorCompiler(validatorCompiler);
      describer.setSerializerCompiler(serializerCompiler);
      await describer.register(fastifySwagger, {
        openapi: { openapi: '3.1.0', info: INFO, components: { securitySchemes: SECURITY_SCHEMES } },
        transform: jsonSchemaTransform,
      });
      for (const route of documented) {
        // Fastify adds each GET route's HEAD twin itself.
        if (route.method === 'HEAD') continue;
        describer.route({ method: route.method, url: route.url, schema: documentedSchema(route), handler: async () => undefined });
      }
      await describer.ready();
      const text = JSON.stringify(describer.swagger());
      await describer.close();
      return text;
    };
    app.decorate('openApiDocument', () => {
      document ??= build().catch((error: unknown) => {
        document = undefined;
        throw error;
      });
      return document;
    });
  },
  { name: 'openapi' },
);
