import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import negotiate from '@fastify/accept-negotiator';
import {
  ApplicationFilterSchema,
  ApplicationListQuerySchema,
  ApplicationPatchSchema,
  BulkStatusSchema,
  FunnelQuerySchema,
  SignInSchema,
  type AdminSessionInfo,
  type ApplicationDetail,
  type ApplicationFilter,
  type ApplicationList,
  type ApplicationListItem,
  type FunnelReport,
} from '../../shared/admin';
import type { WizardConfig } from '../../shared/config';
import type { FieldError } from '../../shared/payload';
import { payloadPlatforms, platformKeys, profileUrl } from '../../shared/platforms';
import { z } from '../../shared/zod';
import { answerColumns, labelledAnswers, type AnswerColumn } from '../inbox/answers';
import { EXPORT_BATCH_ROWS, applicationsCsv } from '../inbox/csv';
import { ExportClientStalled, ExportThreads, THREAD_EXPORT_BATCH_ROWS, type ExportEncoding, type ExportLimits } from '../inbox/export-threads';
import { verifyPassword } from '../inbox/password';
import { sendProblem } from '../problem';
import type { AdminStore, AdminUser, InboxRow } from '../store/admin-store';
import { clientNetwork } from '../client-address';
import { SESSION_COOKIE, UUID_PATTERN } from '../constants';
import { ensureXsrfCookie, hasValidXsrf, inboxScope, sessionIdOf, setXsrfCookie, type XsrfTokens } from '../xsrf';

export { SESSION_COOKIE };

/** Session lifetimes, in ms. */
export interface SessionLifetime {
  /** A session unused for this long ends (default 8 h). */
  idleMs: number;
  /** A session ends this long after sign-in, used or not (default 24 h). */
  absoluteMs: number;
}

/** Failed sign-ins allowed within `windowMs` before `429` (issue 7: per account and per IP). */
export interface SignInLimits {
  /** Per e-mail (default 5). */
  perAccount: number;
  /** Per client IP (default 30). */
  perAddress: number;
  /** Default 15 minutes. */
  windowMs: number;
}

/** What {@link adminRoutes} needs. */
export interface AdminRouteOptions {
  configs: readonly WizardConfig[];
  store: AdminStore;
  /** Signs and checks the anti-forgery tokens (bound to the session for the inbox). */
  xsrf: XsrfTokens;
  /** The built inbox page (`dist/admin/index.html`); undefined when it was not built. */
  adminHtml: string | undefined;
  session?: Partial<SessionLifetime>;
  signInLimits?: Partial<SignInLimits>;
  /** CSV exports at a time and waiting (defaults: 2 and 8; docs/decisions/014). */
  exportLimits?: Partial<ExportLimits>;
}

/** The `Retry-After` of a 503 when every export turn is taken, in seconds: an export of 100 000 rows takes about one. */
const EXPORTS_BUSY_RETRY_SECONDS = 10;

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in inbox user, set for `/api/admin/*` routes. */
    adminUser?: AdminUser;
  }
}

function validationErrors(error: z.core.$ZodError): FieldError[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(body)', message: issue.message }));
}

function encodeCursor(row: { receivedAt: string; id: string }): string {
  return Buffer.from(`${row.receivedAt}|${row.id}`).toString('base64url');
}

/**
 * A cursor made by {@link encodeCursor}, or undefined: the time must be the ISO-8601 form the store
 * keeps and the id a UUID, so nothing else reaches a query (issue 11: a NUL inside one failed on
 * PostgreSQL only).
 */
function decodeCursor(cursor: string): { receivedAt: string; id: string } | undefined {
  const [receivedAt, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!receivedAt || !id || rest.length > 0 || !UUID_PATTERN.test(id)) return undefined;
  const ms = Date.parse(receivedAt);
  if (Number.isNaN(ms) || new Date(ms).toISOString() !== receivedAt) return undefined;
  return { receivedAt, id };
}

function toListItem(row: InboxRow): ApplicationListItem {
  const info = (row.payload as { personalInfo?: { emailAddress?: unknown } } | null)?.personalInfo;
  return {
    id: row.id,
    pageId: row.pageId,
    receivedAt: row.receivedAt,
    status: row.status,
    firstName: row.firstName,
    lastName: row.lastName,
    emailAddress: typeof info?.emailAddress === 'string' ? info.emailAddress : row.email,
    ...(row.countryCode ? { countryCode: row.countryCode } : {}),
    platforms: Object.fromEntries(
      payloadPlatforms(row.payload).map(({ platform, handle, followers }) => {
        const { identity, audience } = platformKeys(platform);
        return [platform, followers === undefined ? { [identity]: handle } : { [identity]: handle, [audience]: followers }];
      }),
    ),
    ...(row.duplicateOf ? { duplicateOf: row.duplicateOf } : {}),
    ...(row.unreadable ? { unreadable: true } : {}),
  };
}

/** UTC day `YYYY-MM-DD` of a time in ms. */
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The brand's inbox (issue 7, DESIGN §8): the `/admin` pages, the session
 * (sign-in with per-account and per-address limits, sign-out), and the
 * `/api/admin/*` API — every route but sign-in answers 401 problem+json
 * without a valid session, every mutation needs the XSRF header (403), and
 * changes need the `editor` role (403).
 */
export function adminRoutes(app: FastifyInstance, options: AdminRouteOptions) {
  const store = options.store;
  const lifetime: SessionLifetime = { idleMs: 8 * 3_600_000, absoluteMs: 24 * 3_600_000, ...options.session };
  const limits: SignInLimits = { perAccount: 5, perAddress: 30, windowMs: 15 * 60_000, ...options.signInLimits };
  const configs = new Map(options.configs.map((config) => [config.pageId, config]));
  const exportThreads = new ExportThreads(options.exportLimits);
  app.addHook('onClose', async () => exportThreads.close());
  // Question labels come from configuration HTML (html-to-text): worked out once, on the inbox's
  // first use rather than at start (issue 12), not per request.
  let pageColumns: Map<string, AnswerColumn[]> | undefined;
  const everyPageColumns: AnswerColumn[] = [];
  /** The answer columns of a page, or of every page (in the order met) for another or no page. */
  const columnsOf = (pageId?: string): AnswerColumn[] => {
    if (!pageColumns) {
      pageColumns = new Map([...configs].map(([id, config]) => [id, answerColumns(config)]));
      for (const columns of pageColumns.values()) {
        for (const column of columns) if (!everyPageColumns.some((c) => c.key === column.key)) everyPageColumns.push(column);
      }
    }
    return (pageId && pageColumns.get(pageId)) || everyPageColumns;
  };

  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!options.adminHtml) return sendProblem(reply, 404, 'The inbox was not built (npm run build).');
    ensureXsrfCookie(request, reply, inboxScope(request, options.xsrf));
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(options.adminHtml);
  };
  app.get('/admin', sendPage);
  app.get('/admin/*', async (request, reply) => {
    // A missing hashed asset is a 404, not the page.
    if (request.url.startsWith('/admin/assets/')) return sendProblem(reply, 404, 'No such file.');
    return sendPage(request, reply);
  });

  const cookieOptions = (request: FastifyRequest) =>
    ({ path: '/', httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https' }) as const;

  const signIn = async (request: FastifyRequest, reply: FastifyReply) => {
    const parsed = SignInSchema.safeParse(request.body);
    if (!parsed.success) return sendProblem(reply, 400, 'Send { email, password }.', { errors: validationErrors(parsed.error) });
    const email = parsed.data.email.trim().toLowerCase();
    // An IPv6 client is counted by its /64: it could otherwise walk through its own addresses.
    const keys = [`account:${email}`, `address:${clientNetwork(request.ip)}`];
    const now = Date.now();
    // Counted before the password is checked (issue 11): however many arrive at once, in however
    // many processes, no more than the limit reach the check in a window.
    const { attemptId, counts } = await store.countSignInAttempt(keys, new Date(now).toISOString(), new Date(now - limits.windowMs).toISOString());
    const blocking = [
      { attempts: counts.get(keys[0]!), max: limits.perAccount },
      { attempts: counts.get(keys[1]!), max: limits.perAddress },
    ].filter(({ attempts, max }) => attempts && attempts.count > max);
    if (blocking.length > 0) {
      // A refused attempt checked nothing: it does not keep the lock going.
      await store.forgetSignInAttempt(attemptId);
      const until = Math.max(...blocking.map(({ attempts }) => Date.parse(attempts!.oldest) + limits.windowMs));
      const seconds = Math.max(1, Math.ceil((until - now) / 1000));
      return sendProblem(reply, 429, `Too many failed sign-ins. Try again in ${seconds} seconds.`, { headers: { 'Retry-After': String(seconds) } });
    }
    const found = await store.findUserForSignIn(email);
    // Checked against a decoy when there is no such user: the same answer, in the same time.
    const valid = await verifyPassword(parsed.data.password, found?.passwordHash);
    if (!found || !valid) {
      // The attempt stays counted: it is a failure now.
      request.log.info({ event: 'sign-in failed' }, 'sign-in failed');
      return sendProblem(reply, 401, 'The e-mail or the password is not right.');
    }
    // Only this attempt is taken back: failures counted beside it keep counting until they leave
    // the window, so a right password in a volley of guesses does not reopen the account to more.
    await store.forgetSignInAttempt(attemptId);
    const token = randomBytes(32).toString('base64url');
    const created = Date.now();
    await store.createSession(sessionIdOf(token), found.user.id, new Date(created).toISOString(), new Date(created + Math.min(lifetime.idleMs, lifetime.absoluteMs)).toISOString());
    // A new session, a new token bound to it: one planted before sign-in is worth nothing after.
    setXsrfCookie(request, reply, options.xsrf.issue(sessionIdOf(token)));
    reply.setCookie(SESSION_COOKIE, token, cookieOptions(request));
    return reply.code(204).send();
  };

  app.register(
    async (api) => {
      api.addHook('onRequest', async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        if (request.method === 'POST' && request.routeOptions.url === '/api/admin/session') return;
        const token = request.cookies[SESSION_COOKIE];
        const tokenHash = token ? sessionIdOf(token) : undefined;
        const now = Date.now();
        const session = tokenHash ? await store.findSession(tokenHash, new Date(now).toISOString()) : undefined;
        if (!session) {
          if (token) reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
          return sendProblem(reply, 401, 'Sign in to use the inbox.');
        }
        request.adminUser = session.user;
        // Sliding expiry, written at most once a minute, never past the absolute lifetime.
        const renewed = Math.min(now + lifetime.idleMs, Date.parse(session.createdAt) + lifetime.absoluteMs);
        if (renewed - Date.parse(session.expiresAt) > 60_000) await store.extendSession(tokenHash!, new Date(renewed).toISOString());
        if (request.method !== 'GET' && request.method !== 'HEAD' && !hasValidXsrf(request, inboxScope(request, options.xsrf))) {
          return sendProblem(reply, 403, 'The X-XSRF-TOKEN header must match the XSRF-TOKEN cookie. Reload the page and try again.');
        }
      });
      const editorOnly = async (request: FastifyRequest, reply: FastifyReply) => {
        if (request.adminUser?.role !== 'editor') return sendProblem(reply, 403, 'Your account may read applications but not change them.');
      };

      api.post('/session', { config: { rateLimit: { max: limits.perAddress * 4, timeWindow: '1 minute' } } }, signIn);
      api.get('/session', async (request): Promise<AdminSessionInfo> => ({ email: request.adminUser!.email, role: request.adminUser!.role }));
      api.delete('/session', async (request, reply) => {
        await store.deleteSession(sessionIdOf(request.cookies[SESSION_COOKIE]!));
        reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
        setXsrfCookie(request, reply, options.xsrf.issue());
        return reply.code(204).send();
      });

      api.get('/pages', async () => [...configs.values()].map((config) => ({ pageId: config.pageId, title: config.title })));

      api.get('/applications', async (request, reply) => {
        const parsed = ApplicationListQuerySchema.safeParse(request.query);
        if (!parsed.success) return sendProblem(reply, 400, 'The filters are not valid.', { errors: validationErrors(parsed.error) });
        const { cursor, limit, ...filter } = parsed.data;
        const after = cursor ? decodeCursor(cursor) : undefined;
        if (cursor && !after) return sendProblem(reply, 400, 'The cursor is not valid.', { errors: [{ path: 'cursor', message: 'Not a cursor of this list' }] });
        const rows = await store.listApplications(filter, { limit: limit + 1, ...(after ? { after } : {}), withDuplicates: true });
        const page = rows.slice(0, limit);
        const last = page.at(-1);
        const body: ApplicationList = { items: page.map(toListItem), ...(rows.length > limit && last ? { nextCursor: encodeCursor(last) } : {}) };
        return body;
      });

      // Not compressed by @fastify/compress (on libuv's thread pool at normal priority): the
      // export's thread compresses it (issue 12).
      api.get('/applications.csv', { compress: false }, async (request, reply) => {
        const parsed = ApplicationFilterSchema.safeParse(request.query);
        if (!parsed.success) return sendProblem(reply, 400, 'The filters are not valid.', { errors: validationErrors(parsed.error) });
        const filter: ApplicationFilter = parsed.data;
        const source = store.exportSource?.();
        // Gzip, compressed by the export's thread, when the client accepts it (every browser does),
        // else none (RFC 9110 §12.5.3): `identity` listed first, so `*` and `gzip;q=0, *` get none.
        // An in-memory store's export (tests) is never compressed.
        const encoding: ExportEncoding = source && negotiate(request.headers['accept-encoding'] ?? '', ['identity', 'gzip']) === 'gzip' ? 'gzip' : 'identity';
        /** The export's own headers: a CSV file, compressed or not. */
        const fileHeaders = () => {
          if (encoding === 'gzip') reply.header('Content-Encoding', 'gzip');
          return reply
            .header('Vary', 'Accept-Encoding')
            .type('text/csv; charset=utf-8')
            .header('Content-Disposition', `attachment; filename="applications-${utcDay(Date.now())}.csv"`);
        };
        // HEAD (answered by this GET route): the headers the export would have (RFC 9110 §9.3.2),
        // without running one, which would take a turn and a thread for bytes nobody reads.
        if (request.method === 'HEAD') return fileHeaders().send();
        // A few exports at a time, whoever asks (docs/decisions/014): each is a thread.
        const turn = await exportThreads.turn(reply.raw);
        if (turn === 'busy' || turn === 'gone') {
          return sendProblem(reply, 503, 'Too many exports are running. Try again in a few seconds.', {
            headers: { 'Retry-After': String(EXPORTS_BUSY_RETRY_SECONDS) },
          });
        }
        const columns = columnsOf(filter.pageId);
        let csv: Readable;
        try {
          // Read and formatted in a thread of its own at the lowest priority, relayed here chunk by
          // chunk (issue 12): health checks and submissions never wait for it. An in-memory
          // database, which no other thread can open, streams in batches that yield to the event
          // loop between them instead.
          csv = source
            ? exportThreads.csv(turn, source, { filter, columns, batchRows: THREAD_EXPORT_BATCH_ROWS, encoding })
            : applicationsCsv(store.exportApplications(filter, EXPORT_BATCH_ROWS), columns).once('close', turn.release);
        } catch (error) {
          turn.release();
          throw error;
        }
        csv.on('error', (error) => {
          // A client that stopped reading is cut short on purpose; a store's failure is a fault.
          if (error instanceof ExportClientStalled) request.log.warn({ err: error }, 'export cut short: its client stopped reading');
          else request.log.error({ err: error }, 'export failed');
          // Failed before its first byte: the error page that follows is neither gzip nor a file.
          if (!reply.raw.headersSent) {
            reply.removeHeader('Content-Encoding');
            reply.removeHeader('Content-Disposition');
          }
        });
        return fileHeaders().send(csv);
      });

      api.get<{ Params: { id: string } }>('/applications/:id', async (request, reply) => {
        const row = await store.getApplication(request.params.id);
        if (!row) return sendProblem(reply, 404, 'There is no such application (it may have been erased).');
        const detail: ApplicationDetail = {
          ...toListItem(row),
          note: row.note,
          profiles: payloadPlatforms(row.payload).map((platform) => ({ ...platform, profileUrl: profileUrl(platform.platform, platform.handle) })),
          // An unreadable row's payload is only what its columns hold: not shown as if it were stored.
          payload: row.unreadable ? null : row.payload,
          answers: labelledAnswers(columnsOf(row.pageId), row.payload),
          earlierSubmissions: row.earlierSubmissions,
          audit: row.audit,
        };
        return detail;
      });

      api.patch<{ Params: { id: string } }>('/applications/:id', { preHandler: editorOnly }, async (request, reply) => {
        const parsed = ApplicationPatchSchema.safeParse(request.body);
        if (!parsed.success) return sendProblem(reply, 400, 'The change is not valid.', { errors: validationErrors(parsed.error) });
        const row = await store.updateApplication(request.params.id, parsed.data, request.adminUser!.email);
        if (!row) return sendProblem(reply, 404, 'There is no such application (it may have been erased).');
        return { ...toListItem(row), note: row.note };
      });

      api.patch('/applications', { preHandler: editorOnly }, async (request, reply) => {
        const parsed = BulkStatusSchema.safeParse(request.body);
        if (!parsed.success) return sendProblem(reply, 400, 'The change is not valid.', { errors: validationErrors(parsed.error) });
        const updated = await store.setStatuses([...new Set(parsed.data.ids)], parsed.data.status, request.adminUser!.email);
        return { updated };
      });

      api.delete<{ Params: { id: string } }>('/applications/:id', { preHandler: editorOnly }, async (request, reply) => {
        const erased = await store.eraseApplication(request.params.id, request.adminUser!.email);
        if (!erased) return sendProblem(reply, 404, 'There is no such application (it may have been erased).');
        return reply.code(204).send();
      });

      api.get('/funnel', async (request, reply) => {
        const parsed = FunnelQuerySchema.safeParse(request.query);
        if (!parsed.success) return sendProblem(reply, 400, 'The range is not valid.', { errors: validationErrors(parsed.error) });
        const config = parsed.data.pageId ? configs.get(parsed.data.pageId) : [...configs.values()][0];
        if (!config) return sendProblem(reply, 404, `There is no page "${parsed.data.pageId}".`);
        const to = parsed.data.to ?? utcDay(Date.now());
        const from = parsed.data.from ?? utcDay(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000);
        if (from > to) return sendProblem(reply, 400, 'The range ends before it starts.', { errors: [{ path: 'from', message: 'After to' }] });
        return funnelReport(config, from, to, await store.funnelCounts(config.pageId, from, to));
      });
    },
    { prefix: '/api/admin' },
  );
}

/** Arranges funnel counts per day and step, with step-to-step conversion. */
export function funnelReport(
  config: WizardConfig,
  from: string,
  to: string,
  counts: { day: string; event: string; step: number; count: number }[],
): FunnelReport {
  const steps = config.steps.map((step) => step.name);
  const days: FunnelReport['days'] = [];
  for (let ms = Date.parse(`${from}T00:00:00Z`); ms <= Date.parse(`${to}T00:00:00Z`) && days.length < 366; ms += 86_400_000) {
    days.push({ day: utcDay(ms), reached: steps.map(() => 0), submitted: 0, signInClicked: 0 });
  }
  const byDay = new Map(days.map((day) => [day.day, day]));
  for (const count of counts) {
    const day = byDay.get(count.day);
    if (!day) continue;
    if (count.event === 'stepReached' && count.step < steps.length) day.reached[count.step]! += count.count;
    if (count.event === 'submitted') day.submitted += count.count;
    if (count.event === 'signInClicked') day.signInClicked += count.count;
  }
  const totals = {
    reached: steps.map((_, index) => days.reduce((sum, day) => sum + day.reached[index]!, 0)),
    submitted: days.reduce((sum, day) => sum + day.submitted, 0),
    signInClicked: days.reduce((sum, day) => sum + day.signInClicked, 0),
  };
  const rate = (part: number, whole: number) => (whole === 0 ? null : part / whole);
  const conversion = steps.slice(1).map((name, index) => ({ from: steps[index]!, to: name, rate: rate(totals.reached[index + 1]!, totals.reached[index]!) }));
  return { pageId: config.pageId, steps, days, totals, conversion };
}
