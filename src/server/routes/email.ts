import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { escapeHtml } from '../../shared/html';
import { z } from '../../shared/zod';
import { DIGEST_SCOPE } from '../email/unsubscribe';
import { knownPages } from './admin/emails';

const UnsubscribeQuery = z.object({ u: z.string().check(z.maxLength(100)), p: z.string().check(z.maxLength(100)), t: z.string().check(z.maxLength(100)) });

/** A small page of its own (the inbox's styles are not loaded): a heading, a paragraph, perhaps a form. */
function page(title: string, text: string, form?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${form ?? ''}</main></body></html>`;
}

/**
 * The team's one-click unsubscription (RFC 8058; docs/email.md, "Notifications"), outside the
 * inbox: no session, the link's HMAC is the proof. `GET` shows a button (a link scanner that opens
 * the link unsubscribes no one); `POST`, what a mail client sends for `List-Unsubscribe-Post`,
 * turns the notifications of the link's page off (a digest's link: the digest of every page).
 */
export const unsubscribeRoutes: FastifyPluginAsyncZod = async (app) => {
  // RFC 8058's POST body is `List-Unsubscribe=One-Click`, form-encoded (multipart/form-data
  // recommended, x-www-form-urlencoded as browsers post the button's form); nothing in it is read.
  for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data'])
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => done(null, body));
  const limits = { rateLimit: { max: 30, timeWindow: '1 minute' } };
  const refused = page('This link does not work', 'The link is incomplete or was changed. Change your notifications in the inbox instead.');

  app.get('/api/email/unsubscribe', { schema: { querystring: UnsubscribeQuery, hide: true }, config: limits }, async (request, reply) => {
    const { u, p, t } = request.query;
    reply.type('text/html; charset=utf-8');
    if (!app.unsubscribeLinks.verify(u, p, t)) return reply.code(400).send(refused);
    const what = p === DIGEST_SCOPE ? 'the daily digest' : `the notifications of ${(await knownPages(app)).find((known) => known.pageId === p)?.title ?? p}`;
    const action = `/api/email/unsubscribe?${new URLSearchParams({ u, p, t }).toString()}`;
    return page(
      'Unsubscribe',
      `Stop receiving ${what}?`,
      `<form method="post" action="${escapeHtml(action)}"><button type="submit">Unsubscribe</button></form>`,
    );
  });

  app.post('/api/email/unsubscribe', { schema: { querystring: UnsubscribeQuery, hide: true }, config: limits }, async (request, reply) => {
    const { u, p, t } = request.query;
    reply.type('text/html; charset=utf-8');
    if (!app.unsubscribeLinks.verify(u, p, t)) return reply.code(400).send(refused);
    const pages = (await knownPages(app)).map((known) => known.pageId);
    if (p === DIGEST_SCOPE) {
      const modes = await app.store.emails.settings(u, pages);
      await app.store.emails.setSetting(
        u,
        pages.filter((pageId) => modes.get(pageId) === 'digest'),
        'off',
      );
    } else await app.store.emails.setSetting(u, [p], 'off');
    return page('You are unsubscribed', 'You will receive no more of these e-mails. You can turn them on again in the inbox, under E-mail.');
  });
};
