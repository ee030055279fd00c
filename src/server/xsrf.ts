import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { XSRF_COOKIE, XSRF_HEADER } from '../shared/xsrf';
import { SESSION_COOKIE } from './constants';

/** `<random>.<mac>`: 32 random bytes and an HMAC-SHA256, each base64url (43 characters). */
const TOKEN_PATTERN = /^([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/;

/**
 * Anti-forgery tokens as the OWASP CSRF cheat sheet's "signed double-submit cookie" (decision 007,
 * requirements §13): a token is a random value and its HMAC-SHA256 under the server's secret, so only
 * the server can make one; a token for the inbox is also bound to the session (the HMAC covers
 * the session's id), so a token taken from another session, or planted before sign-in, fails.
 * The token travels twice, in the `XSRF-TOKEN` cookie and the `X-XSRF-TOKEN` header.
 */
export class XsrfTokens {
  constructor(private readonly secret: string) {}

  /**
   * A new token.
   * @param binding - the session id it is bound to; '' for the anonymous wizard.
   */
  issue(binding = ''): string {
    const value = randomBytes(32).toString('base64url');
    return `${value}.${this.mac(value, binding)}`;
  }

  /** True when `token` was issued by this server for `binding` (constant-time compare). */
  verify(token: string, binding = ''): boolean {
    const match = TOKEN_PATTERN.exec(token);
    if (!match) return false;
    return safeEqual(match[2]!, this.mac(match[1]!, binding));
  }

  /** OWASP's message: the binding's length, the binding and the random value, so no two messages collide. */
  private mac(value: string, binding: string): string {
    return createHmac('sha256', this.secret).update(`${binding.length}!${binding}!${value}`).digest('base64url');
  }
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * A session's id: the SHA-256 (hex) of its cookie's token — what the store keys sessions by, and
 * what an inbox token is bound to. '' without a token.
 */
export function sessionIdOf(sessionToken: string | undefined): string {
  return sessionToken ? createHash('sha256').update(sessionToken).digest('hex') : '';
}

/**
 * What a request's token may be bound to: nothing (the wizard), or the session cookie it carries
 * (an inbox user who also opens the wizard keeps one cookie for both).
 */
export interface XsrfScope {
  tokens: XsrfTokens;
  /** The binding the token must have; for the wizard, '' or {@link alsoAccepted}. */
  binding: string;
  /** Another binding accepted too (the wizard accepts an inbox user's session-bound token). */
  alsoAccepted?: string;
}

/** The wizard's scope: an anonymous token, or the session-bound one of an inbox user in the same browser. */
export function wizardScope(request: FastifyRequest, tokens: XsrfTokens): XsrfScope {
  return { tokens, binding: '', alsoAccepted: sessionIdOf(request.cookies[SESSION_COOKIE]) };
}

/** The inbox's scope: a token bound to the session cookie the request carries. */
export function inboxScope(request: FastifyRequest, tokens: XsrfTokens): XsrfScope {
  return { tokens, binding: sessionIdOf(request.cookies[SESSION_COOKIE]) };
}

const acceptedBy = (token: string, scope: XsrfScope) =>
  scope.tokens.verify(token, scope.binding) ||
  (scope.alsoAccepted !== undefined && scope.alsoAccepted !== '' && scope.tokens.verify(token, scope.alsoAccepted));

/**
 * Sets the `XSRF-TOKEN` cookie (requirements §13: `SameSite=Strict`, `Path=/`, readable by script,
 * Secure over HTTPS), keeping the one the browser has when it is valid in this scope.
 */
export function ensureXsrfCookie(request: FastifyRequest, reply: FastifyReply, scope: XsrfScope): void {
  const current = request.cookies[XSRF_COOKIE];
  if (current && acceptedBy(current, scope)) return;
  setXsrfCookie(request, reply, scope.tokens.issue(scope.binding));
}

/** Sets the `XSRF-TOKEN` cookie to `token` (after sign-in and sign-out the binding changes). */
export function setXsrfCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(XSRF_COOKIE, token, { path: '/', sameSite: 'strict', httpOnly: false, secure: request.protocol === 'https' });
}

/**
 * True when the `X-XSRF-TOKEN` header equals the `XSRF-TOKEN` cookie and the token is one this
 * server issued for the scope's binding. A made-up, foreign or other session's token is false.
 */
export function hasValidXsrf(request: FastifyRequest, scope: XsrfScope): boolean {
  const header = request.headers[XSRF_HEADER.toLowerCase()];
  const cookie = request.cookies[XSRF_COOKIE];
  if (typeof header !== 'string' || !header || !cookie) return false;
  return safeEqual(cookie, header) && acceptedBy(cookie, scope);
}
