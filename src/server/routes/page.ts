import { createHash } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { loadPhoneNumbers } from '../../shared/phone';
import type { WizardConfig } from '../../shared/config';
import { CONFIG_PLACEHOLDER, configScript, escapeHtml } from '../../shared/html';
import { sanitizeConfig } from '../../shared/sanitize-html';
import { themeCss } from '../../shared/theme';
import { pageDescription, renderFirstStep } from '../render-first-step';
import { ensureXsrfCookie, wizardScope } from '../xsrf';

/** The page's `robots.txt`: the wizard may be indexed; the inbox and the API are not pages. */
export const ROBOTS_TXT = 'User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /api/\n';

/**
 * Renders the wizard page once, when the server starts: `<title>`, `<meta name="description">`
 * and `<html lang>` from the configuration; the first step rendered by the server (issue 12:
 * it paints, cover image included, before any JavaScript runs, and the wizard hydrates it); and
 * the configuration inlined as JSON data (not script) so the first render needs no second round
 * trip (DESIGN §4). The configuration is inlined parsed, defaults applied, so the browser need not
 * ship the schema to read it, and with its HTML sanitised (`sanitizeConfig`), so the browser
 * renders it as given and its markup is the server's.
 * @param template - the built `dist/index.html`.
 * @param config - the page's configuration as parsed.
 * @returns the HTML of `GET /`.
 */
export function renderPage(template: string, config: WizardConfig): string {
  const pageConfig = sanitizeConfig(config);
  // React puts the preloads of what the markup needs first (the cover image, with its srcset and
  // fetchpriority="high"): they belong in <head>, where the browser sees them before the body.
  const rendered = renderFirstStep(pageConfig);
  const hoisted = /^(?:<link [^>]*\/>)*/.exec(rendered)![0];
  const body = rendered.slice(hoisted.length);
  const description = `<meta name="description" content="${escapeHtml(pageDescription(pageConfig))}">`;
  // The brand's theme (issue 15) after the style sheet, so its tokens win; allowed by its hash.
  const theme = themeCss(config.styleConfig.theme);
  // Replaced by functions: a `$` in the configuration is text, never a replacement pattern.
  return template
    .replace(/<html lang="[^"]*">/, () => `<html lang="${escapeHtml(config.lang)}">`)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(config.title)}</title>${description}${hoisted}`)
    .replace('</head>', () => (theme ? `<style>${theme}</style></head>` : '</head>'))
    .replace(/<noscript>[^<]*<\/noscript>/, () => `<noscript>${escapeHtml(config.messages.noScript)}</noscript>`)
    .replace(CONFIG_PLACEHOLDER, () => configScript(pageConfig))
    .replace('<div id="root"></div>', () => `<div id="root">${body}</div>`);
}

/**
 * The Content Security Policy sources that allow the page's inline scripts: the page's first
 * script is inlined by the build (`boot.ts`, issue 12: no request for the first paint to wait
 * for), and the policy allows exactly that code, by its SHA-256, and no other inline script.
 * Inline JSON data (`type="application/json"`) is not script and needs none.
 * @param template - the built `dist/index.html`.
 * @returns `'sha256-…'` sources, one per inline script, in the page's order.
 */
export function inlineScriptHashes(template: string): string[] {
  return [...template.matchAll(/<script(?![^>]*\ssrc=)(?![^>]*application\/json)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, code]) => `'sha256-${createHash('sha256').update(code!).digest('base64')}'`,
  );
}

/**
 * The Content Security Policy sources that allow the page's inline style sheets (the theme,
 * issue 15), by their SHA-256: no other inline style.
 * @param html - the page as {@link renderPage} made it.
 * @returns `'sha256-…'` sources, one per `<style>` element.
 */
export function inlineStyleHashes(html: string): string[] {
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(([, css]) => `'sha256-${createHash('sha256').update(css!).digest('base64')}'`);
}

/**
 * `GET /`: the wizard page, with a fresh or kept `XSRF-TOKEN` cookie (an inbox user's
 * session-bound token is kept: one cookie serves both). `GET /robots.txt`: {@link ROBOTS_TXT}.
 */
export const pageRoutes: FastifyPluginAsync<{ html: string }> = async (app, page) => {
  app.get('/', async (request, reply) => {
    // An applicant has arrived: the phone rule's library (issue 13) loads now, off the start-up
    // path, long before their application does (the submit route waits for it in any case).
    void loadPhoneNumbers().catch(() => undefined);
    ensureXsrfCookie(request, reply, wizardScope(request, app.xsrf));
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(page.html);
  });
  app.get('/robots.txt', async (_request, reply) => {
    return reply.header('Cache-Control', 'public, max-age=3600').type('text/plain; charset=utf-8').send(ROBOTS_TXT);
  });
};
