import { isDeepStrictEqual } from 'node:util';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { checkSubmission } from '../../shared/application-check';
import { ApplicationPayloadSchema } from '../../shared/payload';
import { loadPhoneNumbers } from '../../shared/phone';
import { z } from '../../shared/zod';
import type { ServedPage } from '../page-registry';
import { problemResponses, sendProblem } from '../problem';
import type { SavedApplication } from '../store/schema';
import { RETRY_AFTER_SECONDS, UUID_PATTERN } from '../constants';
import { consentRecords } from '../consents';
import { refuseForgery, refuseUnproven } from './wizard-guards';

/** Largest accepted body, in bytes (requirements §13: 413 above 64 KiB). */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** What a stored application answers: its id and when it was received (ISO-8601 UTC). */
const SavedSchema = z.object({
  id: z.string(),
  receivedAt: z.string(),
  /** A minor's application held for a parent's or guardian's consent: false when their mailbox had its requests for the day and no e-mail goes (requirements §20). */
  guardianAsked: z.optional(z.boolean()),
});

/**
 * `PUT /api/syncPage/{pageId}` (requirements §7, requirements §13): rate limit (429), XSRF check (403),
 * unknown page (404: neither the default page nor a published stored page), the bot check (400 at
 * `Altcha`, when the server has one: a solved challenge for the `Idempotency-Key`, docs/decisions/032), a closed
 * stored page (410: status, dates or cap, from the in-memory registry, no read of the store; its
 * detail the page's `messages.closed`; a page with a cap takes a slot in the application's own
 * transaction, 410 when none is left: the cap is exact, across processes too; a closed page's
 * submit with an `Idempotency-Key` of an application stored before answers as the first time did), UTF-8 JSON only (415), 64 KiB (413), the page's rules
 * (`checkApplication`, the wizard's own, in the page's language) and the shared payload
 * schema (400 with field paths), then stored: 201 `{ id, receivedAt }`, 200 with
 * the first id when the `Idempotency-Key` was seen before with the same body (the same answers,
 * however the JSON is written), 422 when it was seen with another. The store keeps the JSON text as decoded
 * (`request.rawJson`, BOM dropped: json-body.ts) without serialising it again.
 */
/**
 * 422 problem+json at `Idempotency-Key`: the key was used before with another application (IETF
 * Idempotency-Key draft §2.7: a key reused with another body is the client's error).
 */
const keyReused = (reply: FastifyReply) =>
  sendProblem(reply, 422, 'This Idempotency-Key was used with another application. Send a new key for a new application.', {
    errors: [{ path: 'Idempotency-Key', message: 'Used before with another body' }],
  });

export const submitRoutes: FastifyPluginAsyncZod<{ rateLimitPerMinute: number }> = async (app, options) => {
  const pages = app.pages;
  const registry = app.pageRegistry;
  /** The stored page each request was found to be for, before its body was read (none for the default page). */
  const storedPages = new WeakMap<FastifyRequest, ServedPage>();
  /**
   * The requests for a page found closed that carry an Idempotency-Key: their body is read, and
   * they are answered 410 unless they replay an application stored before (decision 021, the fifth outside attack, F4).
   */
  const closedReplays = new WeakSet<FastifyRequest>();
  app.put(
    '/api/syncPage/:pageId',
    {
      // The body is checked by the page's own rules in the handler (they depend on the page named
      // in the path: docs/decisions/018); the answer's shape is declared.
      schema: { params: z.object({ pageId: z.string() }), response: { 200: SavedSchema, 201: SavedSchema, ...problemResponses(403, 404, 410, 422) } },
      bodyLimit: BODY_LIMIT_BYTES,
      // JSON answers of a few dozen bytes: nothing to compress.
      compress: false,
      // Helmet's document headers (CSP and the like) mean nothing on a JSON answer and were the
      // largest single cost of this route (docs/performance.md); nosniff is set below.
      helmet: false,
      config: {
        rateLimit: { max: options.rateLimitPerMinute, timeWindow: '1 minute' },
        // The body the document shows: the payload's shape (the route checks it with the page's own
        // rules, in the handler); the key that makes a retry safe.
        openapi: { body: ApplicationPayloadSchema, headers: z.object({ 'idempotency-key': z.optional(z.string()) }) },
      },
      // After the rate limit (an onRequest hook) and before the body is read.
      preParsing: async (request, reply) => {
        reply.header('X-Content-Type-Options', 'nosniff');
        const forged = refuseForgery(app, request, reply);
        if (forged) return forged;
        // The path's parameters, not yet through their schema at this hook.
        const { pageId } = request.params as { pageId: string };
        if (pages.has(pageId)) return refuseUnproven(app, request, reply, pageId);
        // A stored page, from memory: its published version, unless it is closed (said
        // in the page's own words, as its page says it).
        const stored = registry.get(pageId);
        if (!stored) return sendProblem(reply, 404, `There is no page "${pageId}".`);
        if (registry.isClosed(stored, app.clock())) {
          // A retry of an application stored before the page closed answers as the first time did:
          // looked for in the handler (a read, for a closed page's keyed submits only).
          if (request.headers['idempotency-key'] === undefined) return sendProblem(reply, 410, stored.config.messages.closed);
          closedReplays.add(request);
        }
        storedPages.set(request, stored);
        return refuseUnproven(app, request, reply, pageId);
      },
    },
    async (request, reply) => {
      // Cleaned as the wizard cleans it, then the page's own rules (the texts its wizard
      // shows, in its language) and the payload's shape.
      // The phone library: settled after the first time (a page view starts loading it); should it
      // fail to load, the 4–15-digit fallback judges the number rather than the request failing.
      await loadPhoneNumbers().catch(() => undefined);
      // The default page, or the version of a stored page found open before the body was read
      // (preParsing): the application is checked against that version and stored with it, even
      // should the page change while the body arrives, so one request never meets two versions.
      const stored = storedPages.get(request);
      const config = stored?.config ?? pages.get(request.params.pageId);
      if (!config) return sendProblem(reply, 404, `There is no page "${request.params.pageId}".`);
      const checked = checkSubmission(config, request.body, app.clock());
      if (closedReplays.has(request)) {
        // The page is closed: only a replay of a stored application is answered, as the first
        // time (the same answers, however written); anything else, new or not, is told it closed.
        const header = request.headers['idempotency-key'];
        const key = typeof header === 'string' ? header.toLowerCase() : '';
        const first =
          checked.errors || !UUID_PATTERN.test(key)
            ? undefined
            : await app.store.applications.findByIdempotencyKey(request.params.pageId, key).catch(() => undefined);
        if (!first) return sendProblem(reply, 410, stored!.config.messages.closed);
        if (!isDeepStrictEqual(first.payload, checked.payload)) return keyReused(reply);
        return reply.code(200).send({ id: first.id, receivedAt: first.receivedAt });
      }
      if (checked.errors) return sendProblem(reply, 400, 'The application has invalid fields.', { errors: checked.errors });
      const body = checked.payload;
      const header = request.headers['idempotency-key'];
      // A UUID's canonical form is lower case (RFC 9562 §4): an upper-case copy is the same key.
      const key = typeof header === 'string' ? header.toLowerCase() : header;
      if (key !== undefined && (typeof key !== 'string' || !UUID_PATTERN.test(key))) {
        return sendProblem(reply, 400, 'Idempotency-Key must be a UUID.', {
          errors: [{ path: 'Idempotency-Key', message: 'Expected a UUID' }],
        });
      }
      // A minor on a page that asks a parent or guardian (requirements §20): held apart, unseen by the
      // team, until they consent; the guardian is e-mailed in the same transaction.
      if (body.guardian && config.ageScreen?.minors === 'guardian') {
        try {
          const held = await app.store.guardians.hold({
            pageId: request.params.pageId,
            pageVersion: stored?.version,
            idempotencyKey: key,
            emailAddress: body.personalInfo.emailAddress,
            guardianEmail: body.guardian.emailAddress,
            payload: body,
            payloadJson: body === request.body ? request.rawJson : undefined,
            userAgent: request.headers['user-agent'],
            consents: consentRecords(config, body, stored?.version),
          });
          if (held.conflict) return keyReused(reply);
          if (held.created) app.mailSender?.poke();
          return reply.code(held.created ? 201 : 200).send({ id: held.id, receivedAt: held.receivedAt, guardianAsked: held.asked });
        } catch (error) {
          request.log.error({ err: error }, 'store unavailable');
          return sendProblem(reply, 503, 'Applications cannot be stored right now. Please try again shortly.', {
            headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
          });
        }
      }
      let saved: SavedApplication;
      try {
        // On a page that holds minors' applications, a key a held one took is that application's:
        // answered as it, never stored a second time (one key, one solution, one application).
        const held = key && config.ageScreen?.minors === 'guardian' ? await app.store.guardians.findByKey(request.params.pageId, key) : undefined;
        if (held) {
          if (!isDeepStrictEqual(held.payload, body)) return keyReused(reply);
          return reply.code(200).send({ id: held.id, receivedAt: held.receivedAt });
        }
        saved = await app.store.applications.save({
          pageId: request.params.pageId,
          pageVersion: stored?.version,
          // A page with a cap: stored only with a slot taken in its transaction (exact).
          capped: stored !== undefined && stored.maxApplications !== null,
          idempotencyKey: key,
          emailAddress: body.personalInfo.emailAddress,
          payload: body,
          // The JSON text as it came when nothing needed cleaning (no second serialisation).
          payloadJson: body === request.body ? request.rawJson : undefined,
          userAgent: request.headers['user-agent'],
          // What the applicant was shown and said, per consent (requirements §21): none on a page without consents.
          consents: consentRecords(config, body, stored?.version),
        });
      } catch (error) {
        // The store is down or refused this row: nothing of it was stored, the client may retry
        // the same key (the other applications of its batch were stored without it).
        request.log.error({ err: error }, 'store unavailable');
        return sendProblem(reply, 503, 'Applications cannot be stored right now. Please try again shortly.', {
          headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
        });
      }
      // The store compares the bodies' text; the same answers written otherwise (keys in another
      // order, spaces) are the same application: the first row's id, not a 422.
      if (saved.conflict && isDeepStrictEqual((await app.store.applications.findById(saved.id).catch(() => undefined))?.payload, body)) {
        return reply.code(200).send({ id: saved.id, receivedAt: saved.receivedAt });
      }
      if (saved.conflict) return keyReused(reply);
      if (saved.full && stored) {
        // No slot left (other submits, maybe of another process, took the last): closed from now.
        registry.full(stored.id);
        return sendProblem(reply, 410, stored.config.messages.closed);
      }
      if (saved.created && stored) registry.counted(stored.id, saved.taken);
      // Its `application.submitted` event is in the outbox: the webhook sender looks now.
      if (saved.created) app.webhookSender?.poke();
      return reply.code(saved.created ? 201 : 200).send({ id: saved.id, receivedAt: saved.receivedAt });
    },
  );
};
