import { BotCheck, type BotCheckOptions } from './bot-check';
import { challengeRoutes } from './routes/challenge';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { WizardConfig } from '../shared/config';
import { systemClock, type Clock } from './clock';
import type { TrustProxy } from './env';
import type { ExportLimits } from './inbox/export-threads';
import { compression } from './plugins/compression';
import { gracefulClose } from './plugins/graceful-close';
import { openApi } from './plugins/openapi';
import { errorsAsProblems } from './plugins/problem-details';
import { rateLimits } from './plugins/rate-limits';
import { requestLog } from './plugins/request-log';
import { securityHeaders } from './plugins/security-headers';
import { services } from './plugins/services';
import { session, type SessionLifetime } from './plugins/session';
import { staticFiles } from './plugins/static-files';
import { underPressure } from './plugins/under-pressure';
import { sendProblem, writeParserProblem, writeRawProblem } from './problem';
import { adminApi } from './routes/admin';
import { addressPolicy } from './webhooks/address-policy';
import { WebhookSender, type WebhookSenderOptions } from './webhooks/sender';
import { RetentionSweeper, pageRetention } from './retention';
import { MailSender, type MailSenderOptions } from './email/sender';
import { smtpTransport } from './email/transport';
import { UnsubscribeLinks } from './email/unsubscribe';
import { SIGNED_LINK_PATHS, SignedLinks, TEAM_LINK_PATHS } from './email/signed-links';
import { guardianRoutes } from './routes/guardian';
import { consentRoutes } from './routes/consents';
import { resumeRoutes } from './routes/resume';
import { ResumeSeal } from './resume-seal';
import { unsubscribeRoutes } from './routes/email';
import { adminPageRoutes } from './routes/admin/page';
import type { SignInLimits } from './routes/admin/session';
import { funnelRoutes } from './routes/funnel';
import { healthRoutes } from './routes/health';
import { inlineScriptHashes, inlineStyleHashes, pageResponse, pageRoutes } from './routes/page';
import { previewRoutes } from './routes/preview';
import { submitRoutes } from './routes/submit';
import type { Store } from './store/store';
import { uploads, type UploadOptions } from './uploads';

export { contentSecurityPolicy } from './plugins/security-headers';

/**
 * The default bound on a request's arrival, in ms: two minutes. The largest body is an image
 * upload of 10 MiB (`MAX_PAGE_IMAGE_BYTES`), which arrives in 120 s at 0.7 Mbit/s, a slow
 * mobile uplink; everything else is a few KB. A client trickling a body (decision 021's fourth
 * outside attack) holds its connection this long at most, not forever.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

/** What {@link buildApp} needs. */
export interface AppOptions {
  /** The parsed page configuration (defaults applied); inlined into the page as it is. */
  config: WizardConfig;
  /** The opened store (`openStore`): its repositories become the `store` decorator. */
  store: Store;
  /** The built wizard (`dist/`), with index.html. */
  distDir: string;
  /** Fastify's logger option (pino); default none. */
  logger?: FastifyServerOptions['logger'];
  /**
   * Whose `X-Forwarded-*` headers to believe (`TRUST_PROXY`, see {@link TrustProxy}): `false`
   * (default) none; a hop count; or the proxies' addresses and CIDRs.
   */
  trustProxy?: TrustProxy;
  /** Submissions per client IP per minute (requirements §12 `RATE_LIMIT_PER_MINUTE`); default 30. */
  rateLimitPerMinute?: number;
  /**
   * How long a request may take to arrive, headers and body, in ms (`REQUEST_TIMEOUT_SECONDS`);
   * default {@link DEFAULT_REQUEST_TIMEOUT_MS}. Past it the request is answered 408 and its
   * connection closed (Node's `requestTimeout`, checked every quarter of it, at most every 30 s).
   */
  requestTimeoutMs?: number;
  /** Event-loop delay above which requests get 503, in ms; default 1000. */
  maxEventLoopDelayMs?: number;
  /** How often the event loop is sampled, in ms; default under-pressure's. */
  pressureSampleIntervalMs?: number;
  /**
   * The key anti-forgery tokens are signed with (`SECRET`); default: one the store
   * generates on first start and keeps in the database.
   */
  secret?: string;
  /** Inbox session lifetimes (defaults: 8 h idle, 24 h absolute). */
  adminSession?: Partial<SessionLifetime>;
  /** Failed inbox sign-ins allowed per account and per IP (defaults: 5 and 30 per 15 minutes). */
  signInLimits?: Partial<SignInLimits>;
  /** CSV exports running at a time, each in a thread, and waiting for their turn (defaults: 2 and 8; docs/decisions/014). */
  exportLimits?: Partial<ExportLimits>;
  /** The time now in ms (default `Date.now`): sessions, sign-in windows, report days. */
  clock?: Clock;
  /** Uploaded images: their directory (`uploadsDirOf`) and how many are processed at once. */
  uploads?: UploadOptions;
  /**
   * The origins a page's `requestUrl` may send applications to besides this server
   * (`SUBMIT_ORIGINS_ALLOWED`, `parseSubmitOrigins`); default none.
   */
  submitOrigins?: readonly string[];
  /**
   * Webhooks (docs/decisions/025): the networks deliveries may reach besides public addresses
   * (`WEBHOOK_ALLOW_NETWORKS`), the inbox's address for links (`PUBLIC_URL`), and whether this
   * process delivers (the server does; default false, so a test's app sends nothing unless it asks).
   */
  webhooks?: WebhookOptions;
  /** E-mail (docs/decisions/026): the SMTP server (`SMTP_URL`; none: every message is kept in the log, not sent), the sender's address (`MAIL_FROM`). Sent by the process that delivers webhooks. */
  email?: EmailOptions;
  /**
   * Retention (docs/privacy.md): whether this process erases the applications past their page's
   * retention (the server does, hourly; default false, so a test's app erases nothing unless it
   * asks), and how often it looks, in ms.
   */
  retention?: { sweep: boolean; pollMs?: number };
  /**
   * The submit's bot check (docs/decisions/032: a proof-of-work challenge and a minimum fill time);
   * default none, so a test's app takes applications without one unless it asks. The server has
   * it unless `BOT_CHECK=off`.
   */
  botCheck?: BotCheckOptions;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The configuration this process has for a page: a stored page's served version, or a default page's file; undefined for another. */
    pageConfig: (pageId: string) => WizardConfig | undefined;
    /** The webhook sender of this process, when it delivers ({@link WebhookOptions.deliver}). */
    webhookSender: WebhookSender | undefined;
    /** The e-mail sender of this process, when it delivers ({@link WebhookOptions.deliver}). */
    mailSender: MailSender | undefined;
    /** The server's address, for links in messages (`PUBLIC_URL`). */
    publicUrl: string;
    /** The team's one-click unsubscription links. */
    unsubscribeLinks: UnsubscribeLinks;
    /** The links minors' parents or guardians answer through (requirements §20). */
    guardianLinks: SignedLinks;
    /** The links creators withdraw their consents through (requirements §21). */
    consentLinks: SignedLinks;
    /** The submit's bot check, when the server has one ({@link AppOptions.botCheck}). */
    botCheck: BotCheck | undefined;
  }
}

/** The e-mail's part of {@link AppOptions}. */
export interface EmailOptions {
  /** `smtp://` or `smtps://`, with credentials; undefined: nothing is sent, every message is `logged`. */
  smtpUrl?: string;
  /** The From address: default `Creator applications <no-reply@localhost>`. */
  from?: string;
  /** The sender's options for tests: its clock, jitter, poll, concurrency, the digest's hour. */
  sender?: Partial<Pick<MailSenderOptions, 'clock' | 'random' | 'pollMs' | 'concurrency' | 'digestHour'>>;
}

/** The From address when `MAIL_FROM` is not set. */
export const DEFAULT_MAIL_FROM = 'Creator applications <no-reply@localhost>';

/** The webhooks' part of {@link AppOptions}. */
export interface WebhookOptions {
  allowNetworks?: Parameters<typeof addressPolicy>[0];
  publicUrl?: string;
  deliver?: boolean;
  /** The sender's options for tests: its clock, jitter, poll, DNS lookup, time limit. */
  sender?: Partial<Pick<WebhookSenderOptions, 'clock' | 'random' | 'pollMs' | 'lookup' | 'timeoutMs' | 'concurrency'>>;
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
 * loaded the first time a route needs one instead of when the instance is created. Route schemas
 * here are the shared zod schemas, compiled by fastify-type-provider-zod's compilers (the
 * `errorsAsProblems` plugin sets them), so these stay unloaded: loading them was a fifth of the
 * server's start-up (~200 ms of CPU under load, ~8 MiB). Fastify counts factories given here as custom compilers: a headers schema would
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
 * The whole HTTP application as one Fastify instance (requirements §13), assembled from plugins
 * (`plugins/`: request log, graceful close, problem details and schema compilers, the shared services as
 * decorators, compression, security headers, load shedding, rate limits, static files, inbox
 * sessions) and route plugins (`routes/`: the page, the submit, the funnel beacons, the inbox page
 * and API, health); `server.ts` only starts it, tests call `inject()` on it. Never answers bad
 * input with a 500, never sends a stack trace.
 */
export async function buildApp(options: AppOptions) {
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const app = Fastify({
    logger: options.logger ?? false,
    // Fastify's default (0) lets a body trickle in forever. Node 20 applies the bound only when
    // given to its server's constructor (Fastify sets it on the server afterwards, which Node's
    // checks ignore), and checks it every `connectionsCheckingInterval`, kept well under it.
    requestTimeout,
    http: { requestTimeout, connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(requestTimeout / 4))) },
    schemaController: { compilersFactory: lazySchemaCompilers() },
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    // One line per request (onResponse below), never a body or an e-mail.
    logController: new LogController({ disableRequestLogging: true }),
    // The router's own refusals are problem details too (requirements §13), not Fastify's JSON.
    frameworkErrors: (_error, _request, reply) => void sendProblem(reply, 400, 'The address is not a valid URL.'),
    // Requests Node's HTTP parser refuses (headers too large, not HTTP) as well.
    clientErrorHandler: writeParserProblem,
    routerOptions: {
      onMaxParamLength: (_path, _request, response) => writeRawProblem(response, 414, 'The address is too long.'),
    },
  }).withTypeProvider<ZodTypeProvider>();
  // A request answered before its body was read (a refusal in a hook: 401, 403, 404, 503) closes
  // its connection after the answer, as Fastify does for a body it refuses: else Node would read
  // (and throw away) the rest of the body to keep the connection, up to 10 MiB from anyone. Only a
  // request that has a body (RFC 9112 §6.3: Content-Length or Transfer-Encoding): one without is
  // not `complete` either while it is answered within the tick its headers arrived in (the page, a
  // file, once every hook before them is synchronous), and its connection is the browser's next.
  app.addHook('onSend', async (request, reply) => {
    const { 'content-length': length, 'transfer-encoding': encoding } = request.headers;
    const hasBody = encoding !== undefined || (length !== undefined && length !== '0');
    if (hasBody && request.raw.complete === false && !reply.hasHeader('connection')) reply.header('Connection', 'close');
  });
  // A request with two Host headers is refused (RFC 9112 §3.2: 400): Node keeps the first, a
  // proxy in front may have routed by the other (decision 021, the fifth outside attack, F8). A walk over the raw
  // header names, no allocation, and a callback hook (no promise per request on the submit path).
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw.rawHeaders;
    let hosts = 0;
    for (let index = 0; index < raw.length; index += 2) if (raw[index]!.length === 4 && raw[index]!.toLowerCase() === 'host') hosts += 1;
    if (hosts > 1) void sendProblem(reply.header('Connection', 'close'), 400, 'The request has more than one Host header.');
    else done();
  });
  await app.register(requestLog);
  await app.register(gracefulClose);
  await app.register(errorsAsProblems);
  // Before every route: it collects them as they are added.
  await app.register(openApi);
  await app.register(services, {
    store: options.store,
    configs: [options.config],
    secret: options.secret,
    clock: options.clock ?? systemClock,
    submitOrigins: options.submitOrigins,
  });
  await app.register(compression);
  const template = readFileSync(join(options.distDir, 'index.html'), 'utf8');
  // The default page, rendered once; its policy is also the one other routes' documents get.
  const defaultPage = pageResponse(template, options.config);
  await app.register(securityHeaders, { config: options.config, scriptHashes: inlineScriptHashes(template), styleHashes: inlineStyleHashes(defaultPage.html) });
  await app.register(underPressure, { maxEventLoopDelayMs: options.maxEventLoopDelayMs, sampleIntervalMs: options.pressureSampleIntervalMs });
  await app.register(rateLimits);
  await app.register(staticFiles, { distDir: options.distDir });
  await app.register(session, { lifetime: options.adminSession });
  await app.register(uploads, options.uploads ?? {});

  await app.register(pageRoutes, { template, defaultPage, forwardedHost: fastifyTrustProxy(options.trustProxy ?? false) !== false });
  app.decorate(
    'botCheck',
    options.botCheck ? new BotCheck(await options.store.secrets.get('challenge'), options.clock ?? systemClock, options.botCheck) : undefined,
  );
  if (app.botCheck) await app.register(challengeRoutes, { rateLimitPerMinute: options.rateLimitPerMinute ?? 30 });
  await app.register(submitRoutes, { rateLimitPerMinute: options.rateLimitPerMinute ?? 30 });
  // Four beacons per applicant at most: four times the submit limit.
  await app.register(funnelRoutes, { rateLimitPerMinute: 4 * (options.rateLimitPerMinute ?? 30) });
  const adminHtmlPath = join(options.distDir, 'admin', 'index.html');
  await app.register(adminPageRoutes, { html: existsSync(adminHtmlPath) ? readFileSync(adminHtmlPath, 'utf8') : undefined });
  const policy = addressPolicy(options.webhooks?.allowNetworks ?? []);
  const publicUrl = options.webhooks?.publicUrl ?? 'http://localhost:3000';
  // Another server's file page too (its e-mail, a guardian's or a consent's page): recorded in the store.
  const pageConfig = (pageId: string) => app.pageRegistry.get(pageId)?.config ?? app.filePages.all.get(pageId);
  app.decorate('pageConfig', pageConfig);
  app.decorate('publicUrl', publicUrl);
  app.decorate('unsubscribeLinks', new UnsubscribeLinks(await options.store.secrets.get('unsubscribe'), publicUrl));
  app.decorate(
    'guardianLinks',
    new SignedLinks(await options.store.secrets.get('guardian'), publicUrl, { scope: 'guardian', path: SIGNED_LINK_PATHS.guardian }),
  );
  app.decorate('consentLinks', new SignedLinks(await options.store.secrets.get('consent'), publicUrl, { scope: 'consent', path: SIGNED_LINK_PATHS.consents }));
  // The team's links (docs/inbox.md, "The team"): each kind under a key of its own.
  const teamLinks = {
    invitation: new SignedLinks(await options.store.secrets.get('invitation'), publicUrl, { scope: 'invitation', path: TEAM_LINK_PATHS.invitation }),
    passwordReset: new SignedLinks(await options.store.secrets.get('password-reset'), publicUrl, {
      scope: 'password-reset',
      path: TEAM_LINK_PATHS.passwordReset,
    }),
  };
  // An applicant's link to continue on another device (requirements §22): drafts sealed under the
  // server's secret (`SECRET`, or one of its own kept in the database), links signed apart.
  const resumeLinks = new SignedLinks(await options.store.secrets.get('resume-link'), publicUrl, { scope: 'resume', path: '/' });
  await app.register(resumeRoutes, {
    seal: new ResumeSeal(options.secret ?? (await options.store.secrets.get('resume-seal'))),
    links: resumeLinks,
    rateLimitPerMinute: options.rateLimitPerMinute ?? 30,
  });
  const transport = options.email?.smtpUrl ? await smtpTransport(options.email.smtpUrl) : undefined;
  const mailSender = options.webhooks?.deliver
    ? new MailSender({
        repository: options.store.emails,
        transport,
        from: options.email?.from ?? DEFAULT_MAIL_FROM,
        publicUrl,
        pageConfig,
        unsubscribe: app.unsubscribeLinks,
        guardianLinks: app.guardianLinks,
        consentLinks: app.consentLinks,
        teamLinks,
        resumeLinks,
        log: app.log,
        clock: options.clock,
        ...options.email?.sender,
      })
    : undefined;
  const sender = options.webhooks?.deliver
    ? new WebhookSender({
        repository: options.store.webhooks,
        policy,
        publicUrl,
        log: app.log,
        clock: options.clock,
        alsoDispatch: (trx, events) => options.store.emails.plan(trx, events, (pageId) => pageConfig(pageId)?.emails, mailSender?.maker()),
        onDispatched: () => mailSender?.poke(),
        ...options.webhooks.sender,
      })
    : undefined;
  if (sender) {
    app.addHook('onReady', async () => sender.start());
    // Before the store closes: the attempts under way end (each within its time limit) and are recorded.
    app.addHook('preClose', async () => sender.stop());
  }
  if (mailSender) {
    app.addHook('onReady', async () => mailSender.start());
    app.addHook('preClose', async () => mailSender.stop());
  }
  if (transport) app.addHook('onClose', async () => transport.close());
  if (options.retention?.sweep) {
    const sweeper = new RetentionSweeper({
      store: options.store,
      retentionOf: (pageId) => pageRetention(pageConfig, options.store.pages, pageId),
      log: app.log,
      clock: options.clock,
      pollMs: options.retention.pollMs,
    });
    app.addHook('onReady', async () => sweeper.start());
    app.addHook('preClose', async () => sweeper.stop());
  }
  app.decorate('mailSender', mailSender);
  app.decorate('webhookSender', sender);
  await app.register(adminApi, {
    prefix: '/api/admin',
    signInLimits: options.signInLimits,
    exportLimits: options.exportLimits,
    webhooks: { policy, poke: () => sender?.poke(), changed: (id) => sender?.forget(id) },
    team: {
      links: teamLinks,
      sendsEmail: transport !== undefined,
      poke: () => mailSender?.poke(),
      relyingParty: { name: 'Applications inbox', origin: new URL(publicUrl).origin, id: new URL(publicUrl).hostname },
    },
  });
  await app.register(unsubscribeRoutes);
  await app.register(guardianRoutes, { template, defaultConfig: options.config });
  await app.register(consentRoutes, { template, defaultConfig: options.config });
  await app.register(previewRoutes, { template, distDir: options.distDir });
  await app.register(healthRoutes);
  return app;
}
