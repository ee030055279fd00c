import type { FastifyInstance } from 'fastify';
import type { WizardConfig } from '../../shared/config';
import { COVER_IMAGE_SIZES, coverImageSources } from '../../shared/cover-image';
import { escapeHtml } from '../../shared/html';
import { ensureXsrfCookie, wizardScope, type XsrfTokens } from '../xsrf';

/**
 * Renders the wizard page: `<title>` and `<html lang>` from the configuration,
 * and the configuration inlined as JSON data (not script) so the first render
 * needs no second round trip (DESIGN §4). The configuration is inlined parsed,
 * defaults applied, so the browser need not ship the schema to read it.
 * @param template - the built `dist/index.html`.
 */
export function renderPage(template: string, config: WizardConfig): string {
  // JSON inside <script> must not close the element or start a comment.
  const json = JSON.stringify(config).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  // The first step's cover image is the largest paint: fetch it with the HTML.
  const image = config.singleCoverImg ?? config.coverImages[0];
  const cover = image === undefined ? undefined : coverImageSources(image);
  const srcset = cover?.srcset ? ` imagesrcset="${escapeHtml(cover.srcset)}" imagesizes="${COVER_IMAGE_SIZES}"` : '';
  const preload = cover ? `<link rel="preload" as="image" href="${escapeHtml(cover.src)}"${srcset} fetchpriority="high">` : '';
  return template
    .replace(/<html lang="[^"]*">/, `<html lang="${escapeHtml(config.lang)}">`)
    .replace('</title>', `</title>${preload}`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(config.title)}</title>`)
    .replace('<!--wizard-config-->', `<script type="application/json" id="wizard-config">${json}</script>`);
}

/**
 * `GET /`: the wizard page, with a fresh or kept `XSRF-TOKEN` cookie (an inbox user's
 * session-bound token is kept: one cookie serves both).
 */
export function pageRoutes(app: FastifyInstance, page: { html: string }, tokens: XsrfTokens) {
  app.get('/', async (request, reply) => {
    ensureXsrfCookie(request, reply, wizardScope(request, tokens));
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(page.html);
  });
}
