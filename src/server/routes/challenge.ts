import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '../../shared/zod';
import { PAGE_ID_PATTERN } from '../../shared/pages';
import { UUID_PATTERN } from '../constants';
import { problemResponses, sendProblem } from '../problem';

/** An ALTCHA challenge (version 2) as the wizard's solver takes it. */
const ChallengeSchema = z.object({
  parameters: z.looseObject({ algorithm: z.string(), nonce: z.string(), salt: z.string(), cost: z.number(), keyLength: z.number(), keyPrefix: z.string() }),
  signature: z.optional(z.string()),
});

/**
 * `GET /api/challenge?key={Idempotency-Key}&page={page id}` (requirements §13; docs/decisions/032): a
 * proof-of-work challenge for the application that will be sent under that key (a UUID) to that page
 * (a page id, whether or not it is served: the submit says which pages exist; 400 otherwise), never
 * cached; rate limited as the submit is, ten times over (every page view asks for one; people behind one
 * address, an office or a carrier, share it).
 * Absent (404) when the server's bot check is off (`BOT_CHECK=off`).
 */
export const challengeRoutes: FastifyPluginAsyncZod<{ rateLimitPerMinute: number }> = async (app, options) => {
  app.get(
    '/api/challenge',
    {
      schema: {
        querystring: z.object({ key: z.optional(z.string()), page: z.optional(z.string()) }),
        response: { 200: ChallengeSchema, ...problemResponses(400) },
      },
      config: { rateLimit: { max: 10 * options.rateLimitPerMinute, timeWindow: '1 minute' } },
      helmet: false,
      compress: false,
    },
    async (request, reply) => {
      const key = request.query.key?.toLowerCase();
      if (key === undefined || !UUID_PATTERN.test(key)) {
        return sendProblem(reply, 400, 'A challenge is asked for the Idempotency-Key its application will be sent with (a UUID).', {
          errors: [{ path: 'key', message: 'Expected a UUID' }],
        });
      }
      const { page } = request.query;
      if (page === undefined || !PAGE_ID_PATTERN.test(page)) {
        return sendProblem(reply, 400, 'A challenge is asked for the page its application will be sent to (its id).', {
          errors: [{ path: 'page', message: 'Expected a page id' }],
        });
      }
      reply.header('Cache-Control', 'no-store').header('X-Content-Type-Options', 'nosniff');
      const { parameters, signature } = app.botCheck!.challenge(key, page);
      return { parameters: { ...parameters }, ...(signature === undefined ? {} : { signature }) };
    },
  );
};
