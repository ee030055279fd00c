import type { FastifyInstance } from 'fastify';
import type { WizardConfig } from '../../shared/config';
import { parseApplicationPayload } from '../../shared/payload';
import { RETRY_AFTER_SECONDS } from '../constants';
import { sendProblem } from '../problem';
import type { ApplicationStore, SavedApplication } from '../store/application-store';
import { hasValidXsrf } from '../xsrf';

/** Largest accepted body, in bytes (DESIGN §4: 413 above 64 KiB). */
export const BODY_LIMIT_BYTES = 64 * 1024;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

declare module 'fastify' {
  interface FastifyRequest {
    /** The submit route's JSON body as received, stored as it is once it validates. */
    rawJson?: string;
  }
}

/**
 * `PUT /api/syncPage/{pageId}` (SPEC §7, DESIGN §4): XSRF check (403),
 * unknown page (404), JSON only (415), 64 KiB (413), the shared payload schema
 * (400 with field paths), then stored: 201 `{ id, receivedAt }`, or 200 with
 * the first id when the `Idempotency-Key` was seen before. A plugin of its own:
 * its JSON parser (Fastify's, `__proto__` and `constructor` refused) keeps the
 * text, so the store keeps the payload as received without serialising it again.
 */
export async function submitRoutes(
  app: FastifyInstance,
  options: { configs: readonly WizardConfig[]; store: ApplicationStore; rateLimitPerMinute: number },
) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.rawJson = body as string;
    parseJson(request, body as string, done);
  });
  const pageIds = new Set(options.configs.map((config) => config.pageId));
  app.put<{ Params: { pageId: string } }>(
    '/api/syncPage/:pageId',
    {
      bodyLimit: BODY_LIMIT_BYTES,
      // JSON answers of a few dozen bytes: nothing to compress.
      compress: false,
      // Helmet's document headers (CSP and the like) mean nothing on a JSON answer and were the
      // largest single cost of this route (docs/performance.md); nosniff is set below.
      helmet: false,
      config: { rateLimit: { max: options.rateLimitPerMinute, timeWindow: '1 minute' } },
      onRequest: async (request, reply) => {
        reply.header('X-Content-Type-Options', 'nosniff');
        if (!hasValidXsrf(request)) {
          return sendProblem(reply, 403, 'The X-XSRF-TOKEN header must match the XSRF-TOKEN cookie. Reload the page and try again.');
        }
        if (!pageIds.has(request.params.pageId)) {
          return sendProblem(reply, 404, `There is no page "${request.params.pageId}".`);
        }
      },
    },
    async (request, reply) => {
      const parsed = parseApplicationPayload(request.body);
      if (parsed.errors) {
        return sendProblem(reply, 400, 'The application has invalid fields.', { errors: parsed.errors });
      }
      const key = request.headers['idempotency-key'];
      if (key !== undefined && (typeof key !== 'string' || !UUID_PATTERN.test(key))) {
        return sendProblem(reply, 400, 'Idempotency-Key must be a UUID.', {
          errors: [{ path: 'Idempotency-Key', message: 'Expected a UUID' }],
        });
      }
      let saved: SavedApplication;
      try {
        saved = await options.store.save({
          pageId: request.params.pageId,
          idempotencyKey: key,
          emailAddress: parsed.payload.personalInfo.emailAddress,
          payload: request.body,
          payloadJson: request.rawJson,
          userAgent: request.headers['user-agent'],
        });
      } catch (error) {
        // The store is down or refusing writes: nothing was stored, the client may retry the same key.
        request.log.error({ err: error }, 'store unavailable');
        return sendProblem(reply, 503, 'Applications cannot be stored right now. Please try again shortly.', {
          headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
        });
      }
      return reply.code(saved.created ? 201 : 200).send({ id: saved.id, receivedAt: saved.receivedAt });
    },
  );
}
