import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../../shared/html';

/**
 * The small pages opened from an e-mail's signed link (email/signed-links.ts): a guardian's answer,
 * a creator's consents. HTML of their own, in the page's language, without scripts or styles (the
 * wizard's and the inbox's are not loaded), never cached and sending no referrer (the link is the
 * reader's key), kept out of search engines.
 */

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
