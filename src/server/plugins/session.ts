import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SESSION_COOKIE } from '../constants';
import { sendProblem } from '../problem';
import { isStoreUnavailable } from '../store/errors';
import type { SessionStage } from '../../shared/admin';
import { canEdit } from '../../shared/team';
import type { AdminUser } from '../store/users';
import { hasValidXsrf, inboxScope, sessionIdOf } from '../xsrf';

/** Session lifetimes, in ms. */
export interface SessionLifetime {
  /** A session unused for this long ends (default 8 h). */
  idleMs: number;
  /** A session ends this long after sign-in, used or not (default 24 h). */
  absoluteMs: number;
}

/** A hook of this plugin: answers the request itself (401, 403) or lets it through. */
type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The stages short of `full` a session may be at to use this route (docs/inbox.md, "The team"):
     * `second-factor` for the sign-in's second step, `enrol` for setting one up. None: `full` only.
     */
    stages?: readonly SessionStage[];
    /**
     * A route of a sign-in's unfinished step (the second factor): a session at `full` is refused
     * it (403), so that a signed-in session cannot spend the member's guesses, or a passkey
     * challenge, meant for that step.
     */
    unfinishedOnly?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in inbox user, set by `authenticate`. */
    adminUser?: AdminUser;
    /** The request's session, set by `authenticate`: its token's SHA-256, stage and a passkey sign-in's challenge. */
    adminSession?: { tokenHash: string; stage: SessionStage; challenge: string | null };
  }
  interface FastifyInstance {
    /** The inbox's session lifetimes. */
    sessionLifetime: SessionLifetime;
    /**
     * `onRequest` hook of the inbox API: 401 problem+json without a live session (its cookie then
     * cleared); else sets `request.adminUser`, slides the session's expiry (a store that cannot
     * write it does not fail the request: docs/decisions/008), and for any method but GET and HEAD
     * checks the session-bound anti-forgery token (403).
     */
    authenticate: Guard;
    /**
     * `preValidation` hook of changes: 403 for a `viewer` account, before the body is judged (a
     * viewer learns nothing of what a change would take).
     */
    requireEditor: Guard;
    /** `preValidation` hook of the team's and the integrations' routes: 403 unless the account is an `owner`. */
    requireOwner: Guard;
  }
}

/** The session cookie's attributes: the whole site, never readable by script, same-site only, secure over HTTPS. */
export const sessionCookieOptions = (request: FastifyRequest) =>
  ({ path: '/', httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https' }) as const;

/**
 * The inbox's sessions (requirements §17; decision 004): a random token in an HttpOnly cookie,
 * its SHA-256 in the store; an idle and an absolute lifetime on the injected `clock`; the session's
 * user on `request.adminUser`. Needs the `services` plugin (store, xsrf, clock).
 */
export const session = fp(
  async (app: FastifyInstance, options: { lifetime?: Partial<SessionLifetime> | undefined }) => {
    const lifetime: SessionLifetime = { idleMs: 8 * 3_600_000, absoluteMs: 24 * 3_600_000, ...options.lifetime };
    app.decorateRequest('adminUser', undefined);
    app.decorate('sessionLifetime', lifetime);
    /**
     * Writes a session's renewed expiry. A store that refuses the write (a full disk, an I/O
     * error: docs/decisions/008) does not fail the request: the session stays valid until its
     * stored expiry, and the next request past the minute writes the renewal again.
     */
    const renew = async (request: FastifyRequest, tokenHash: string, renewed: number, now: number) => {
      try {
        await app.store.users.extendSession(tokenHash, new Date(renewed).toISOString(), new Date(now).toISOString());
      } catch (error) {
        if (!isStoreUnavailable(error)) throw error;
        request.log.warn({ err: error }, 'session renewal not written: the session keeps its stored expiry until a later request writes it');
      }
    };
    app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
      const token = request.cookies[SESSION_COOKIE];
      const tokenHash = token ? sessionIdOf(token) : undefined;
      const now = app.clock();
      const found = tokenHash ? await app.store.users.findSession(tokenHash, new Date(now).toISOString()) : undefined;
      if (!found) {
        if (token) reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(request));
        return sendProblem(reply, 401, 'Sign in to use the inbox.');
      }
      request.adminUser = found.user;
      request.adminSession = { tokenHash: tokenHash!, stage: found.stage, challenge: found.challenge };
      // A session short of `full` (a second factor to give, or to set up) opens only its own routes.
      if (found.stage !== 'full' && !request.routeOptions.config.stages?.includes(found.stage)) {
        return sendProblem(
          reply,
          403,
          found.stage === 'second-factor'
            ? 'Finish signing in: enter the code from your authenticator app, or use your passkey.'
            : 'The team requires a second factor: set up an authenticator app or a passkey first.',
        );
      }
      if (found.stage === 'full' && request.routeOptions.config.unfinishedOnly) return sendProblem(reply, 403, 'You are signed in already.');
      // Sliding expiry, written at most once a minute, never past the absolute lifetime (a
      // half-signed-in session keeps its own short expiry).
      const renewed = Math.min(now + lifetime.idleMs, Date.parse(found.createdAt) + lifetime.absoluteMs);
      if (found.stage !== 'second-factor' && renewed - Date.parse(found.expiresAt) > 60_000) await renew(request, tokenHash!, renewed, now);
      if (request.method !== 'GET' && request.method !== 'HEAD' && !hasValidXsrf(request, inboxScope(request, app.xsrf))) {
        return sendProblem(reply, 403, 'The X-XSRF-TOKEN header must match the XSRF-TOKEN cookie. Reload the page and try again.');
      }
      return undefined;
    });
    app.decorate('requireEditor', async (request: FastifyRequest, reply: FastifyReply) => {
      if (!canEdit(request.adminUser?.role)) return sendProblem(reply, 403, 'Your account may read applications but not change them.');
      return undefined;
    });
    app.decorate('requireOwner', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.adminUser?.role !== 'owner') return sendProblem(reply, 403, 'Only the team’s owners may do this.');
      return undefined;
    });
  },
  { name: 'session', dependencies: ['services'] },
);
