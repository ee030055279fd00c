import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminSessionInfoSchema, SESSION_STAGES, SignInSchema, type SessionStage } from '../../../shared/admin';
import { SECOND_FACTOR_WINDOW_MS, SecondFactorNeededSchema } from '../../../shared/team';
import { z } from '../../../shared/zod';
import { clientNetwork } from '../../client-address';
import { RETRY_AFTER_SECONDS, SESSION_COOKIE } from '../../constants';
import { verifyPassword } from '../../inbox/password';
import { problemResponses, sendProblem } from '../../problem';
import { sessionCookieOptions } from '../../plugins/session';
import { isStoreUnavailable } from '../../store/errors';
import { sessionIdOf, setXsrfCookie } from '../../xsrf';

/** Failed sign-ins allowed within `windowMs` before `429` (per account and per IP). */
export interface SignInLimits {
  /** Per e-mail (default 5). */
  perAccount: number;
  /** Per client IP (default 30). */
  perAddress: number;
  /** Default 15 minutes. */
  windowMs: number;
}

/**
 * The 503's detail when the password was right but the store refuses to store the new session (a
 * full disk; docs/decisions/008): what happened, that open sessions are not affected, what to do.
 */
export const SESSION_NOT_STORED =
  'Your e-mail and password are right, but the server cannot store a new session right now. Sessions already signed in keep working. Try again in a few minutes.';

/** The sign-in limits, those not given at their defaults: 5 failures per account and 30 per client network in 15 minutes. */
export const signInLimitsOf = (given: Partial<SignInLimits> = {}): SignInLimits => ({ perAccount: 5, perAddress: 30, windowMs: 15 * 60_000, ...given });

/** Every stage a session may be at: the routes any session may use (who am I, sign out). */
export const ANY_STAGE = SESSION_STAGES;

/**
 * The key a member's wrong passwords are counted under, wherever the password is given: at the
 * sign-in, and again before a sensitive change (one limit for both: a session taken over must not
 * add guesses to the sign-in's).
 * @param email - the account's address, lower-cased.
 */
export const passwordGuessKey = (email: string) => `account:${email}`;

/**
 * Starts a session for `userId` at `stage` and sets its cookie and anti-forgery token on `reply`,
 * ending the request's own session first when it has one (a half-signed-in one being completed:
 * a new token at each step, so one seen before a step is worth nothing after it). A session short
 * of `full` waiting for a second factor lasts {@link SECOND_FACTOR_WINDOW_MS}.
 * @returns false when the store refused to store it (answered 503 {@link SESSION_NOT_STORED}).
 */
export function sessionStarter(app: FastifyInstance) {
  return async (request: FastifyRequest, reply: FastifyReply, userId: string, stage: SessionStage): Promise<boolean> => {
    const token = randomBytes(32).toString('base64url');
    const created = app.clock();
    const lifetime = stage === 'second-factor' ? SECOND_FACTOR_WINDOW_MS : Math.min(app.sessionLifetime.idleMs, app.sessionLifetime.absoluteMs);
    try {
      if (request.adminSession) await app.store.users.deleteSession(request.adminSession.tokenHash);
      await app.store.users.createSession(
        sessionIdOf(token),
        userId,
        new Date(created).toISOString(),
        new Date(created + lifetime).toISOString(),
        { userAgent: request.headers['user-agent'], address: request.ip },
        stage,
      );
    } catch (error) {
      // A session is a row every later request reads (and every server process, on PostgreSQL):
      // one that cannot be stored cannot be used, so none is handed out (docs/decisions/008).
      if (!isStoreUnavailable(error)) throw error;
      request.log.warn({ err: error }, 'sign-in refused: the store cannot store a new session');
      sendProblem(reply, 503, SESSION_NOT_STORED, { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
      return false;
    }
    // A new session, a new token bound to it: one planted before sign-in is worth nothing after.
    setXsrfCookie(request, reply, app.xsrf.issue(sessionIdOf(token)));
    reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(request));
    return true;
  };
}

/**
 * The inbox session (requirements §17): `POST /session` signs in (`{ email, password }`; 204 and the
 * session cookie, or 200 `{ secondFactor }` and a session that waits five minutes for it, 401 for a wrong pair, 429 with `Retry-After` past the failed sign-ins allowed per
 * account and per client network, 503 {@link SESSION_NOT_STORED} with `Retry-After` when the
 * store refuses to store the session; attempts the store refuses to write are counted in memory), `GET /session` says who is signed in, `DELETE /session` signs
 * out (204). Registered inside the inbox API, which authenticates all but the sign-in.
 */
export const sessionRoutes: FastifyPluginAsyncZod<{ signInLimits: SignInLimits }> = async (app, options) => {
  const limits = options.signInLimits;
  const startSession = sessionStarter(app);

  app.post(
    '/session',
    {
      schema: { body: SignInSchema, response: { 200: SecondFactorNeededSchema, 204: z.void(), ...problemResponses(401, 429) } },
      config: { public: true, invalid: 'Send { email, password }.', rateLimit: { max: limits.perAddress * 4, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const email = request.body.email.trim().toLowerCase();
      // An IPv6 client is counted by its /64: it could otherwise walk through its own addresses.
      const keys = [passwordGuessKey(email), `address:${clientNetwork(request.ip)}`];
      const now = app.clock();
      // Counted before the password is checked: however many arrive at once, in however
      // many processes, no more than the limit reach the check in a window.
      const { attemptId, counts, held } = await app.store.users.countSignInAttempt(
        keys,
        new Date(now).toISOString(),
        new Date(now - limits.windowMs).toISOString(),
      );
      // A store that refuses writes (a full disk) does not stop sign-ins: the attempt is counted in
      // memory and written later (docs/decisions/008).
      if (held) request.log.warn({ event: 'sign-in attempt held' }, 'sign-in attempt counted in memory: the store refuses writes; written when it takes them');
      const blocking = [
        { attempts: counts.get(keys[0]!), max: limits.perAccount },
        { attempts: counts.get(keys[1]!), max: limits.perAddress },
      ].filter(({ attempts, max }) => attempts && attempts.count > max);
      if (blocking.length > 0) {
        // A refused attempt checked nothing: it does not keep the lock going.
        await app.store.users.forgetSignInAttempt(attemptId);
        const until = Math.max(...blocking.map(({ attempts }) => Date.parse(attempts!.oldest) + limits.windowMs));
        const seconds = Math.max(1, Math.ceil((until - now) / 1000));
        return sendProblem(reply, 429, `Too many failed sign-ins. Try again in ${seconds} seconds.`, { headers: { 'Retry-After': String(seconds) } });
      }
      const found = await app.store.users.findUserForSignIn(email);
      // Checked against a decoy when there is no such user: the same answer, in the same time.
      const valid = await verifyPassword(request.body.password, found?.passwordHash);
      if (!found || !valid) {
        // The attempt stays counted: it is a failure now.
        request.log.info({ event: 'sign-in failed' }, 'sign-in failed');
        return sendProblem(reply, 401, 'The e-mail or the password is not right.');
      }
      // Only this attempt is taken back: failures counted beside it keep counting until they leave
      // the window, so a right password in a volley of guesses does not reopen the account to more.
      await app.store.users.forgetSignInAttempt(attemptId);
      // A member with a second factor gives it next, within five minutes; one without, where the
      // team requires one, is signed in only to set one up (docs/inbox.md, "The team").
      const factors = await app.store.team.secondFactors(found.user.id);
      const hasFactor = factors.totp || factors.passkeys.length > 0;
      const stage = hasFactor ? 'second-factor' : (await app.store.team.settings()).requireSecondFactor ? 'enrol' : 'full';
      if (!(await startSession(request, reply, found.user.id, stage))) return reply;
      if (hasFactor) return reply.code(200).send({ secondFactor: { totp: factors.totp, passkey: factors.passkeys.length > 0 } });
      return reply.code(204).send();
    },
  );

  app.get('/session', { schema: { response: { 200: AdminSessionInfoSchema } }, config: { stages: ANY_STAGE } }, async (request) => ({
    email: request.adminUser!.email,
    role: request.adminUser!.role,
    stage: request.adminSession!.stage,
  }));

  app.delete('/session', { schema: { response: { 204: z.void() } }, config: { stages: ANY_STAGE } }, async (request, reply) => {
    await app.store.users.deleteSession(sessionIdOf(request.cookies[SESSION_COOKIE]!));
    reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(request));
    setXsrfCookie(request, reply, app.xsrf.issue());
    return reply.code(204).send();
  });
};
