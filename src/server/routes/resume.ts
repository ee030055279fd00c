import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { v7 as uuidv7 } from 'uuid';
import type { WizardConfig } from '../../shared/config';
import { MAX_RESUME_DRAFT_BYTES, RESUME_DRAFT_TTL_MS, offersResumeLink, type ResumeDraft } from '../../shared/resume';
import { isEmail } from '../../shared/rules';
import { z } from '../../shared/zod';
import { resumeLinkEmail } from '../email/content';
import { RESUME_LINK_PLACEHOLDER, type SignedLinks } from '../email/signed-links';
import { problemResponses, sendProblem } from '../problem';
import type { ResumeSeal } from '../resume-seal';
import { refuseForgery, refuseUnproven } from './wizard-guards';
import { sendingStepIndex } from '../../shared/steps';

/** What {@link resumeRoutes} works with. */
export interface ResumeRouteOptions {
  /** Seals the drafts at rest. */
  seal: ResumeSeal;
  /** Signs the links (scope `resume`). */
  links: SignedLinks;
  /** Requests a minute from one address, for each route (the submit's limit). */
  rateLimitPerMinute: number;
}

/** An object of answers, as the wizard keeps them. */
const Answers = z.record(z.string(), z.unknown());

/** What the wizard sends to keep its draft. */
const KeepBody = z.object({
  email: z.string().check(z.maxLength(320)),
  step: z.number().check(z.int(), z.minimum(0)),
  values: Answers,
  screen: z.optional(Answers),
});

/** A link's secret, sent in a body (a path or query would leave it in access logs). */
const TokenBody = z.object({ token: z.string().check(z.maxLength(200)) });

/** The deepest nesting a draft's answers may have: the wizard's deepest is 4 (a platform's row in a list). */
export const MAX_DRAFT_DEPTH = 16;

/** Whether `value` nests objects or arrays deeper than `max` levels (walked without recursion: a deep body must not exhaust the stack). */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: next, depth } = stack.pop()!;
    if (typeof next !== 'object' || next === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(next)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

/** What the link reads back. */
const DraftSchema = z.object({ pageId: z.string(), step: z.number(), values: Answers, screen: z.optional(Answers), expiresAt: z.string() });

/**
 * Resume on another device (docs/requirements.md §22; docs/decisions/034):
 * - `POST /api/drafts/{pageId}` keeps the applicant's draft, sealed (AES-256-GCM under a key derived
 *   from the server's secret: resume-seal.ts), for 7 days, and e-mails them a link to it, in one
 *   transaction; 202 `{ expiresAt }`. The anti-forgery pair as the submit (403); the bot check as
 *   the submit's, for the link's Idempotency-Key and page (400 at `Altcha`: each link costs a proof
 *   of work, docs/decisions/032, and one solution pays for one link: a second under its key is 400
 *   at `Altcha` too); a page this server does not serve (404), one that offers
 *   no link (`resumeLink: false` or `drafts: "off"`: 404), a closed one (410, its
 *   `messages.closed`); 400 with field paths for an address that is not one, a step past the one
 *   that sends, answers nested past {@link MAX_DRAFT_DEPTH}; 429 at `email` when its mailbox was
 *   sent 3 links in 24 hours; 413 past 64 KiB.
 * - `POST /api/draft-links/open` `{ token }` (the link's `{id}.{mac}`, in the body: never in a URL a log
 *   keeps) answers the draft (`{ pageId, step, values, screen?, expiresAt }`) while it lasts, never
 *   cached; a link changed or made up 404, one past its 7 days or erased 410.
 * - `POST /api/draft-links/erase` `{ token }` erases the draft and its message's content (204; the page
 *   that opened it, once its application is stored): 404 for a link changed or made up.
 */
export const resumeRoutes: FastifyPluginAsyncZod<ResumeRouteOptions> = async (app, options) => {
  const limit = { rateLimit: { max: options.rateLimitPerMinute, timeWindow: '1 minute' } };

  /** The page `pageId` as this server serves it now, and whether it is closed. */
  const served = (pageId: string): { config?: WizardConfig; closed?: boolean } => {
    const file = app.pages.get(pageId);
    if (file) return { config: file };
    const stored = app.pageRegistry.get(pageId);
    return stored ? { config: stored.config, closed: app.pageRegistry.isClosed(stored, app.clock()) } : {};
  };

  app.post(
    '/api/drafts/:pageId',
    {
      schema: {
        params: z.object({ pageId: z.string() }),
        body: KeepBody,
        response: { 202: z.object({ expiresAt: z.string() }), ...problemResponses(400, 403, 404, 410, 429) },
      },
      bodyLimit: MAX_RESUME_DRAFT_BYTES,
      helmet: false,
      compress: false,
      config: limit,
      preParsing: async (request, reply) => {
        reply.header('X-Content-Type-Options', 'nosniff');
        // A link is an e-mail to any address: it costs what a submit costs a script.
        return refuseForgery(app, request, reply) ?? refuseUnproven(app, request, reply, (request.params as { pageId: string }).pageId);
      },
    },
    async (request, reply) => {
      const { pageId } = request.params;
      const { config, closed } = served(pageId);
      if (!config || !offersResumeLink(config)) return sendProblem(reply, 404, `There is no page "${pageId}" that offers a link to continue later.`);
      if (closed) return sendProblem(reply, 410, config.messages.closed);
      const { email, step, values, screen } = request.body;
      const address = email.trim();
      if (!isEmail(address)) return sendProblem(reply, 400, config.messages.email, { errors: [{ path: 'email', message: config.messages.email }] });
      // A step up to the one that sends: a link never opens a page past its send.
      if (step > sendingStepIndex(config)) {
        return sendProblem(reply, 400, `A draft returns to a step up to the one that sends, ${sendingStepIndex(config)}.`, {
          errors: [{ path: 'step', message: 'Expected a step up to the one that sends' }],
        });
      }
      for (const [path, value] of [
        ['values', values],
        ['screen', screen],
      ] as const) {
        if (nestsDeeperThan(value, MAX_DRAFT_DEPTH)) {
          return sendProblem(reply, 400, `The answers nest deeper than ${MAX_DRAFT_DEPTH} levels.`, { errors: [{ path, message: 'Nested too deep' }] });
        }
      }
      const now = app.clock();
      const id = uuidv7();
      const expiresAt = new Date(now + RESUME_DRAFT_TTL_MS).toISOString();
      // Kept as sent: the page that opens it judges its answers again, as a draft in the browser's storage.
      const draft: ResumeDraft = { step, values, ...(screen ? { screen: screen as ResumeDraft['screen'] } : {}) };
      const content = resumeLinkEmail({ config, expiresAt, link: RESUME_LINK_PLACEHOLDER, publicUrl: app.publicUrl });
      const outcome = await app.store.resumeDrafts.keep(
        {
          id,
          pageId,
          email: address.toLowerCase(),
          sealed: options.seal.seal(id, pageId, JSON.stringify(draft)),
          createdAt: new Date(now).toISOString(),
          expiresAt,
        },
        { to: address, content, headers: {} },
        // The key whose solution paid for this link: it pays for no other (docs/decisions/034).
        app.botCheck ? String(request.headers['idempotency-key']).toLowerCase() : undefined,
      );
      if (outcome === 'spent') {
        return sendProblem(reply, 400, 'This solved challenge already paid for a link: ask for another (GET /api/challenge) under a new Idempotency-Key.', {
          errors: [{ path: 'Altcha', message: 'Already spent on a link' }],
        });
      }
      if (outcome === 'too-many') {
        return sendProblem(reply, 429, config.messages.resumeLaterTooMany, { errors: [{ path: 'email', message: config.messages.resumeLaterTooMany }] });
      }
      // Its message is in the outbox now: the sender looks.
      app.mailSender?.poke();
      return reply.code(202).send({ expiresAt });
    },
  );

  app.post(
    '/api/draft-links/open',
    {
      schema: { body: TokenBody, response: { 200: DraftSchema, ...problemResponses(404, 410) } },
      helmet: false,
      config: limit,
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').header('X-Content-Type-Options', 'nosniff');
      const id = options.links.verify(request.body.token);
      if (id === undefined) return sendProblem(reply, 404, 'There is no such link.');
      const kept = await app.store.resumeDrafts.get(id);
      const text = kept && options.seal.open(kept.id, kept.pageId, kept.sealed);
      if (!kept || text === undefined) return sendProblem(reply, 410, 'This link no longer works: its 7 days are over, or its draft was erased.');
      const { step, values, screen } = JSON.parse(text) as { step: number; values: Record<string, unknown>; screen?: Record<string, unknown> };
      return { pageId: kept.pageId, step, values, ...(screen ? { screen } : {}), expiresAt: kept.expiresAt };
    },
  );

  app.post(
    '/api/draft-links/erase',
    { schema: { body: TokenBody, response: { 204: z.null(), ...problemResponses(404) } }, helmet: false, config: limit },
    async (request, reply) => {
      reply.header('X-Content-Type-Options', 'nosniff');
      const id = options.links.verify(request.body.token);
      if (id === undefined) return sendProblem(reply, 404, 'There is no such link.');
      await app.store.resumeDrafts.erase(id);
      return reply.code(204).send(null);
    },
  );
};
