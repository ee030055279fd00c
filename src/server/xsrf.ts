import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { XSRF_COOKIE, XSRF_HEADER } from '../shared/xsrf';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Sets the `XSRF-TOKEN` cookie (DESIGN §4: random 32 bytes, `SameSite=Strict`,
 * `Path=/`, readable by script, Secure over HTTPS), keeping a well-formed one
 * the browser already has.
 */
export function ensureXsrfCookie(request: FastifyRequest, reply: FastifyReply): void {
  const current = request.cookies[XSRF_COOKIE];
  const token = current && TOKEN_PATTERN.test(current) ? current : randomBytes(32).toString('base64url');
  reply.setCookie(XSRF_COOKIE, token, { path: '/', sameSite: 'strict', httpOnly: false, secure: request.protocol === 'https' });
}

/** True when the `X-XSRF-TOKEN` header equals the `XSRF-TOKEN` cookie (constant-time compare). */
export function hasValidXsrf(request: FastifyRequest): boolean {
  const header = request.headers[XSRF_HEADER.toLowerCase()];
  const cookie = request.cookies[XSRF_COOKIE];
  if (typeof header !== 'string' || !header || !cookie) return false;
  const left = Buffer.from(cookie);
  const right = Buffer.from(header);
  return left.length === right.length && timingSafeEqual(left, right);
}
