import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BOT_CHECK_HEADER } from '../bot-check';
import { sendProblem } from '../problem';
import { hasValidXsrf, wizardScope } from '../xsrf';

/**
 * What the wizard's own writes (the submit, a link to finish on another device) check before their
 * body is read, each a problem sent or undefined when it holds.
 */

/** 403 without the page's anti-forgery pair (decision 007): the X-XSRF-TOKEN header matching the XSRF-TOKEN cookie the page set. */
export function refuseForgery(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
  if (hasValidXsrf(request, wizardScope(request, app.xsrf))) return undefined;
  return sendProblem(reply, 403, 'The X-XSRF-TOKEN header must match the XSRF-TOKEN cookie the page set. Reload the page and try again.');
}

/**
 * The bot check (docs/decisions/032): 400 at `Altcha` without a solved, unexpired challenge for the
 * request's `Idempotency-Key` and page `pageId`, or sooner than the minimum fill time; nothing when
 * the server runs without the check.
 */
export async function refuseUnproven(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, pageId: string): Promise<FastifyReply | undefined> {
  if (!app.botCheck) return undefined;
  const key = request.headers['idempotency-key'];
  const problem = await app.botCheck.verify(request.headers[BOT_CHECK_HEADER], typeof key === 'string' ? key : undefined, pageId);
  return problem === undefined ? undefined : sendProblem(reply, 400, problem, { errors: [{ path: 'Altcha', message: problem }] });
}
