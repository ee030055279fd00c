import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifyUnderPressure from '@fastify/under-pressure';
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import type { WizardConfig } from '../shared/config';
import { coverImageSources } from '../shared/cover-image';
import { RETRY_AFTER_SECONDS } from './constants';
import { BodyError, registerJsonBodyParser } from './json-body';
import type { TrustProxy } from './env';
import { sendProblem, writeParserProblem, writeRawProblem } from './problem';
import { sharedRateLimitStore } from './rate-limit-store';
import type { ExportLimits } from './inbox/export-threads';
import { adminRoutes, type SessionLifetime, type SignInLimits } from './routes/admin';
import { funnelRoutes } from './routes/funnel';
import { inlineScriptHashes, pageRoutes, renderPage } from './routes/page';
import { submitRoutes } from './routes/submit';
import type { ApplicationStore } from './store/application-store';
import { isStoreDataError, isStoreUnavailable } from './store/errors';
import { XsrfTokens } from './xsrf';

/** What {@link buildApp} needs. */
export interface AppOptions {
  /** The parsed page configuration (defaults applied); inlined into the page as it is. */
  config: WizardConfig;
  store: ApplicationStore;
  /** The built wizard (`dist/`), with index.html. */
  distDir: string;
  logger?: FastifyServerOptions['logger'];
  /**
   * Whose `X-Forwarded-*` headers to believe (`TRUST_PROXY`, see {@link TrustProxy}): `false`
   * (default) none; a hop count; or the proxies' addresses and CIDRs.
   */
  trustProxy?: TrustProxy;
  /** Submissions per client IP per minute (DESIGN §3 `RATE_LIMIT_PER_MINUTE`); default 30. */
  rateLimitPerMinute?: number;
  /** Event-loop delay above which requests get 503, in ms; default 1000. */
  maxEventLoopDelayMs?: number;
  /** How often the event loop is sampled, in ms; default under-pressure's. */
  pressureSampleIntervalMs?: number;
  /**
   * The key anti-forgery tokens are signed with (`SECRET`, issue 11); default: one the store
   * generates on first start and keeps in the database.
   */
  secret?: string;
  /** Inbox session lifetimes (defaults: 8 h idle, 24 h absolute). */
  adminSession?: Partial<SessionLifetime>;
  /** Failed inbox sign-ins allowed per account and per IP (defaults: 5 and 30 per 15 minutes). */
  signInLimits?: Partial<SignInLimits>;
  /** CSV exports running at a time, each in a thread, and waiting for their turn (defaults: 2 and 8; docs/decisions/014). */
  exportLimits?: Partial<ExportLimits>;
}


/**
 * `TRUST_PROXY` as Fastify's `trustProxy` option. A list goes as it is (Fastify's
 * proxy-addr: the client is the right-most address of the chain that is not a
 * trusted proxy; a socket from any other address has its `X-Forwarded-For`
 * ignored). A hop count becomes a function trusting the first `hops` addresses
 * counted from the socket: Fastify 5.12 turns a plain number into "trust nothing"
 * (it cannot tell a proxy from a client that reached the server directly), which
 * would count every client behind the balancer as the balancer — decision 006
 * says when a hop count is safe to use.
 */
function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

type SchemaCompilers = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/**
 * Fastify's own JSON-schema compilers (Ajv for validation, fast-json-stringify for responses),
 * loaded the first time a route declares a schema instead of when the instance is created. No
 * route here declares one (bodies, queries and parameters are checked with the shared zod
 * schemas), and loading them was a fifth of the server's start-up (issue 12: ~200 ms of CPU under
 * load, ~8 MiB). Fastify counts factories given here as custom compilers: a headers schema would
 * then be compiled as written, so give its property names in lower case.
 */
function lazySchemaCompilers(): SchemaCompilers {
  // Resolved from Fastify's own directory: they are its dependencies, not this project's.
  const requireFromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
  type Factory = (...args: unknown[]) => unknown;
  const lazy = (name: string): Factory => {
    let factory: Factory | undefined;
    // Each module exports a function that makes the factory Fastify would have made itself.
    return (...args) => (factory ??= (requireFromFastify(name) as () => Factory)())(...args);
  };
  return { buildValidator: lazy('@fastify/ajv-compiler'), buildSerializer: lazy('@fastify/fast-json-stringify-compiler') } as SchemaCompilers;
}

/**
 * The Content Security Policy (issue 5): scripts only from this origin and the
 * page's own inline first script, allowed by its hash (`scriptHashes`, from
 * `inlineScriptHashes`; issue 12) — the inlined configuration is JSON data, not
 * script — connections only to this origin and the configured analytics and
 * error-reporting hosts.
 */
export function contentSecurityPolicy(config: WizardConfig, scriptHashes: readonly string[] = []): Record<string, string[]> {
  const origin = (url: string | undefined) => {
    if (!url || !/^https?:\/\//.test(url)) return [];
    return [new URL(url).origin];
  };
  const covers = [config.singleCoverImg, ...config.coverImages].flatMap((image) => {
    if (image === undefined) return [];
    const { src, srcset } = coverImageSources(image);
    return [src, ...(srcset ?? '').split(',').map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')];
  });
  const images = [config.logo, ...covers].flatMap(origin);
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...scriptHashes],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:', ...new Set(images)],
    connectSrc: ["'self'", ...origin(config.analytics?.host), ...origin(config.errorReporting?.dsn)],
    fontSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  };
}

/**
 * The whole HTTP application as one Fastify instance (DESIGN §4); `server.ts`
 * only starts it, tests call `inject()` on it. Never answers bad input with a
 * 500, never sends a stack trace.
 */
export async function buildApp(options: AppOptions) {
  const app = Fastify({
    logger: options.logger ?? false,
    schemaController: { compilersFactory: lazySchemaCompilers() },
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    // One line per request (onResponse below), never a body or an e-mail.
    logController: new LogController({ disableRequestLogging: true }),
    // The router's own refusals are problem details too (DESIGN §4), not Fastify's JSON.
    frameworkErrors: (_error, _request, reply) => void sendProblem(reply, 400, 'The address is not a valid URL.'),
    // Requests Node's HTTP parser refuses (headers too large, not HTTP) as well.
    clientErrorHandler: writeParserProblem,
    routerOptions: {
      onMaxParamLength: (_path, _request, response) => writeRawProblem(response, 414, 'The address is too long.'),
    },
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      { method: request.method, url: request.url.split('?')[0], statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
  });
  // JSON only: a text/plain body is a 415, not a string handed to the schema.
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParser(app);

  app.setErrorHandler((error: { statusCode?: number; message?: string }, request, reply) => {
    if (error instanceof BodyError) return sendProblem(reply, error.statusCode, error.message, error.errors ? { errors: error.errors } : {});
    if (isStoreUnavailable(error)) {
      // The database is down or full (issue 11): the client may come back; nothing here is a bug.
      request.log.warn({ err: error }, 'store unavailable');
      return sendProblem(reply, 503, 'The service cannot reach its store right now. Please try again shortly.', {
        headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      });
    }
    if (isStoreDataError(error)) {
      // A value the schemas let through that the database cannot take (PostgreSQL SQLSTATE class
      // 22: a NUL in a route parameter, say) is the request's fault, never a 500.
      return sendProblem(reply, 400, 'The request holds a value that cannot be stored or searched for.');
    }
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) {
      request.log.error({ err: error }, 'unhandled error');
      return sendProblem(reply, 500, 'Something went wrong on our side. Please try again later.');
    }
    const detail =
      status === 413
        ? 'The body is larger than 64 KiB.'
        : status === 415
          ? 'Send the application as application/json.'
          : status === 400
            ? 'The body is not valid JSON.'
            : (error.message ?? 'The request cannot be handled.');
    return sendProblem(reply, status, detail);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    // SPEC §2: any other path shows the wizard at the root.
    if ((request.method === 'GET' || request.method === 'HEAD') && !path.startsWith('/api/')) return reply.redirect('/', 302);
    return sendProblem(reply, 404, `Nothing is at ${request.method} ${path}.`);
  });

  // Brotli or gzip for the page and assets (a phone on a slow network gets a third of the bytes);
  // quality 5 keeps the CPU cost per response small.
  await app.register(fastifyCompress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
  });
  await app.register(fastifyCookie);
  const template = readFileSync(join(options.distDir, 'index.html'), 'utf8');
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(options.config, inlineScriptHashes(template)) },
    // Cover images and the logo may come from a CDN.
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyUnderPressure, {
    maxEventLoopDelay: options.maxEventLoopDelayMs ?? 1000,
    ...(options.pressureSampleIntervalMs ? { sampleInterval: options.pressureSampleIntervalMs } : {}),
    retryAfter: RETRY_AFTER_SECONDS,
    pressureHandler: (_request, reply) => {
      void sendProblem(reply, 503, 'The server is overloaded. Please try again shortly.', {
        headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      });
    },
  });
  await app.register(fastifyRateLimit, {
    global: false,
    // PostgreSQL: the counts are shared by every server process on the database (decision 006);
    // SQLite has one process, which counts in memory.
    ...(options.store.rateLimits && {
      store: sharedRateLimitStore(options.store.rateLimits, app.log),
      // The database unreachable: the request goes through uncounted (and is logged) instead of a
      // 500. The limits keep floods off the store, and without the database there is no store to
      // protect: a submission is answered 503 by its route, a beacon is counted in memory. Refusing
      // instead would turn a database outage into 429s for every applicant, for nothing.
      skipOnError: true,
    }),
    errorResponseBuilder: (request, context) => ({
      statusCode: 429,
      // The same limiter guards submissions, sign-ins and the funnel's beacons: each says its own.
      message: `Too many ${request.method === 'PUT' ? 'applications' : 'requests'} from this address. Try again in ${context.after}.`,
    }),
  });
  // Vite hashes every file name under the wizard's and the inbox's assets/.
  const hashedDirs = [join(options.distDir, 'assets'), join(options.distDir, 'admin', 'assets')].map((dir) => `${dir}/`);
  await app.register(fastifyStatic, {
    root: options.distDir,
    index: false,
    wildcard: false,
    allowedPath: (pathName) => pathName !== '/index.html' && pathName !== '/admin/index.html',
    cacheControl: false,
    setHeaders: (response, filePath) => {
      // Hashed files are cached for a year (DESIGN §4).
      response.setHeader(
        'Cache-Control',
        hashedDirs.some((dir) => filePath.startsWith(dir)) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      );
    },
  });

  const xsrf = new XsrfTokens(options.secret ?? (await options.store.secret('xsrf')));
  const page = { html: renderPage(template, options.config) };
  pageRoutes(app, page, xsrf);
  await app.register(submitRoutes, { configs: [options.config], store: options.store, rateLimitPerMinute: options.rateLimitPerMinute ?? 30, xsrf });
  // Four beacons per applicant at most: four times the submit limit.
  funnelRoutes(app, { configs: [options.config], store: options.store.admin, rateLimitPerMinute: 4 * (options.rateLimitPerMinute ?? 30) });
  const adminHtmlPath = join(options.distDir, 'admin', 'index.html');
  adminRoutes(app, {
    configs: [options.config],
    store: options.store.admin,
    xsrf,
    adminHtml: existsSync(adminHtmlPath) ? readFileSync(adminHtmlPath, 'utf8') : undefined,
    ...(options.adminSession ? { session: options.adminSession } : {}),
    ...(options.signInLimits ? { signInLimits: options.signInLimits } : {}),
    ...(options.exportLimits ? { exportLimits: options.exportLimits } : {}),
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await options.store.ping();
      return { status: 'ok' };
    } catch {
      return sendProblem(reply, 503, 'The application store is not reachable.', { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
    }
  });

  return app;
}
