import type { FastifyInstance, FastifyReply } from 'fastify';
import { escapeHtml } from '../../shared/html';
import { z } from '../../shared/zod';

/**
 * The small pages opened from an e-mail's signed link (email/signed-links.ts): a guardian's answer,
 * a creator's consents. HTML of their own, in the page's language, without scripts or styles (the
 * wizard's and the inbox's are not loaded), never cached and sending no referrer (the link is the
 * reader's key), kept out of search engines.
 */

/** A link page's path parameter: the signed link's last segment (`{id}.{mac}`). */
export const TokenParams = z.object({ token: z.string().check(z.maxLength(200)) });

/** A paragraph of text. */
export const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;

/**
 * Sends a link page: `title` as its title and heading, then `body` (HTML the caller escaped).
 * @param lang - the page's BCP 47 language.
 */
export function sendLinkPage(reply: FastifyReply, status: number, lang: string, title: string, body: string): FastifyReply {
  const html = `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
  return reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').send(html);
}

/**
 * A link page's route options: one client may open or answer it 30 times a minute, and its path,
 * whose last segment is the link's secret, is logged as its pattern (`/guardian/:token`).
 */
export const LINK_PAGE_CONFIG = { rateLimit: { max: 30, timeWindow: '1 minute' }, secretInPath: true };

/** Reads a link page's form (`application/x-www-form-urlencoded`, at most 1 KiB) into its fields, in the plugin `app`. */
export function readLinkPageForms(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
}
