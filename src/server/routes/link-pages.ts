import type { FastifyInstance, FastifyReply } from 'fastify';
import type { WizardConfig } from '../../shared/config';
import { escapeHtml } from '../../shared/html';
import { z } from '../../shared/zod';
import { documentResponse, renderMessagePage } from './page';

/**
 * The small pages opened from an e-mail's signed link (email/signed-links.ts): a guardian's answer,
 * a creator's consents. In the campaign's own look (its language, theme, logo and cover, the
 * wizard's style sheet: page.ts `renderMessagePage`) so that a parent sees the brand they were told
 * of, without a script; never cached and sending no referrer (the link is the reader's key), kept
 * out of search engines.
 */

/** A link page's path parameter: the signed link's last segment (`{id}.{mac}`). */
export const TokenParams = z.object({ token: z.string().check(z.maxLength(200)) });

/** A paragraph of text. */
export const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;

/** What the link pages' routes are given: the built `dist/index.html`, and the default page's configuration (the look of a page no longer served). */
export interface LinkPageOptions {
  template: string;
  defaultConfig: WizardConfig;
}

/** Each configuration's security headers (its policy with the theme's style hash): the same for every link page of it. */
const headersOf = new WeakMap<WizardConfig, Readonly<Record<string, string>>>();

/**
 * Sends a link page: `title` as its title and heading, then `body` (HTML the caller escaped), in
 * `config`'s look (the default page's where the link's page is not served), with that page's own
 * Content Security Policy (route option `helmet: false`: {@link LINK_PAGE_ROUTE}'s routes).
 */
export function sendLinkPage(
  reply: FastifyReply,
  status: number,
  options: LinkPageOptions,
  config: WizardConfig | undefined,
  title: string,
  body: string,
): FastifyReply {
  const page = config ?? options.defaultConfig;
  const html = renderMessagePage(options.template, page, {
    title,
    main: `<main class="link-page"><h1>${escapeHtml(title)}</h1>${body}</main>`,
    robots: 'noindex',
  });
  let headers = headersOf.get(page);
  if (!headers) headersOf.set(page, (headers = documentResponse(html, page, { scriptHashes: [] }).headers));
  return reply
    .code(status)
    .headers(headers)
    .type('text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .send(html);
}

/**
 * A link page's route options: one client may open or answer it 30 times a minute; its security
 * headers are its page's ({@link sendLinkPage}), not helmet's default page's. (Its path, whose last
 * segment is the link's secret, the request log names as `/guardian/:token`: plugins/request-log.ts.)
 */
export const LINK_PAGE_ROUTE = { helmet: false, config: { rateLimit: { max: 30, timeWindow: '1 minute' } } } as const;

/** Reads a link page's form (`application/x-www-form-urlencoded`, at most 1 KiB) into its fields, in the plugin `app`. */
export function readLinkPageForms(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
}
