import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { loadPhoneNumbers } from '../../shared/phone';
import type { WizardConfig } from '../../shared/config';
import { COVER_IMAGE_SIZES, coverImageSources } from '../../shared/cover-image';
import { CONFIG_PLACEHOLDER, configScript, escapeHtml } from '../../shared/html';
import { sanitizeConfig } from '../../shared/sanitize-html';
import { themeCss } from '../../shared/theme';
import type { ServedPage } from '../page-registry';
import { contentSecurityPolicy, documentHeaders } from '../plugins/security-headers';
import { pageDescription, renderFirstStep } from '../render-first-step';
import { ensureXsrfCookie, wizardScope } from '../xsrf';

/** The page's `robots.txt`: the wizard may be indexed; the inbox, the API and the drafts' preview are not pages. */
export const ROBOTS_TXT = 'User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /api/\nDisallow: /preview/\n';

/**
 * Renders the wizard page once, when the server starts: `<title>`, `<meta name="description">`
 * and `<html lang>` from the configuration; the first step rendered by the server (decision 009:
 * it paints, cover image included, before any JavaScript runs, and the wizard hydrates it); and
 * the configuration inlined as JSON data (not script) so the first render needs no second round
 * trip (requirements §13). The configuration is inlined parsed, defaults applied, so the browser need not
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
  // The brand's theme after the style sheet, so its tokens win; allowed by its hash.
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
 * script is inlined by the build (`boot.ts`, decision 009: no request for the first paint to wait
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
 * decision 019), by their SHA-256: no other inline style.
 * @param html - the page as {@link renderPage} made it.
 * @returns `'sha256-…'` sources, one per `<style>` element.
 */
export function inlineStyleHashes(html: string): string[] {
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(([, css]) => `'sha256-${createHash('sha256').update(css!).digest('base64')}'`);
}

/**
 * A closed campaign page (status closed, before it opens, after it closes, at its cap):
 * the page's language, title, description, theme, cover image and logo, and `messages.closed` in
 * place of the wizard, in the wizard's own layout and style sheet. No script at all: there is
 * nothing to answer, and the wizard would only start to say the same.
 * @param template - the built `dist/index.html`.
 * @param config - the page's configuration as parsed.
 * @returns the HTML of `GET /` for the page while it is closed.
 */
export function renderClosedPage(template: string, config: WizardConfig): string {
  return renderMessagePage(template, config, {
    title: config.title,
    main: `<main class="closed-page"><h1>${escapeHtml(config.title)}</h1><p>${escapeHtml(config.messages.closed)}</p></main>`,
  });
}

/**
 * A page of the campaign's own look without the wizard: the page's language, theme, cover image and
 * logo in the wizard's layout and style sheet, and `main` where the wizard would be; no script. The
 * closed page ({@link renderClosedPage}) and the pages of the e-mails' signed links (link-pages.ts).
 * @param template - the built `dist/index.html`.
 * @param config - the page's configuration as parsed.
 * @param page.title - the document's title.
 * @param page.main - the `<main>` element, HTML the caller escaped.
 * @param page.robots - a `robots` meta tag's content (`noindex`), if any.
 */
export function renderMessagePage(template: string, config: WizardConfig, page: { title: string; main: string; robots?: string }): string {
  const description = `<meta name="description" content="${escapeHtml(pageDescription(sanitizeConfig(config)))}">`;
  const theme = themeCss(config.styleConfig.theme);
  const image = config.singleCoverImg ?? config.coverImages[0];
  const cover = image === undefined ? undefined : coverImageSources(image);
  const coverHtml = cover
    ? `<div class="cover" aria-hidden="true"><img src="${escapeHtml(cover.src)}"${cover.srcset ? ` srcset="${escapeHtml(cover.srcset)}" sizes="${COVER_IMAGE_SIZES}"` : ''} alt="" fetchpriority="high" decoding="async"></div>`
    : '';
  const logo = config.showLogo && config.logo ? `<img class="logo" src="${escapeHtml(config.logo)}" alt="${escapeHtml(config.title)}">` : '';
  const body =
    `<div class="wizard">${coverHtml}<div class="content"><div class="content-inner">` +
    `<header class="logo-bar${config.centerLogo ? ' centered' : ''}">${logo}</header>` +
    page.main +
    `</div></div></div>`;
  const head = `<title>${escapeHtml(page.title)}</title>${description}${page.robots ? `<meta name="robots" content="${escapeHtml(page.robots)}">` : ''}`;
  return template
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>\s*/g, '')
    .replace(/<link [^>]*rel="modulepreload"[^>]*>\s*/g, '')
    .replace(/<noscript>[^<]*<\/noscript>\s*/, '')
    .replace(CONFIG_PLACEHOLDER, '')
    .replace(/<html lang="[^"]*">/, () => `<html lang="${escapeHtml(config.lang)}">`)
    .replace(/<title>[^<]*<\/title>/, () => head)
    .replace('</head>', () => (theme ? `<style>${theme}</style></head>` : '</head>'))
    .replace('<div id="root"></div>', () => `<div id="root">${body}</div>`);
}

/** A page as `GET /` sends it, worked out once: its HTML, and its security headers with its own policy. */
export interface PageResponse {
  html: string;
  /** Helmet's headers with the page's Content-Security-Policy (lower-case names). */
  headers: Readonly<Record<string, string>>;
}

/** The last template's inline script hashes: every page of a process has the same template. */
let scriptHashesOf: { template: string; hashes: string[] } | undefined;

/**
 * The HTML and security headers of a page for any parsed configuration: the wizard
 * ({@link renderPage}) or, with `closed`, the closed page ({@link renderClosedPage}), and its own
 * Content Security Policy (`contentSecurityPolicy` of that configuration, with the template's
 * inline script hashes and the HTML's inline style hashes) beside helmet's other headers. What
 * `GET /` caches per published version; the builder's preview (`frameAncestors: ["'self'"]`)
 * answers the same for a draft.
 * @param template - the built `dist/index.html`.
 * @param config - the configuration as parsed (`parseWizardConfig`, defaults applied).
 * @param options.frameAncestors - CSP `frame-ancestors` sources; default `'none'`.
 * @param options.closed - the closed page instead of the wizard.
 */
export function pageResponse(template: string, config: WizardConfig, options: { frameAncestors?: readonly string[]; closed?: boolean } = {}): PageResponse {
  const html = options.closed ? renderClosedPage(template, config) : renderPage(template, config);
  if (scriptHashesOf?.template !== template) scriptHashesOf = { template, hashes: inlineScriptHashes(template) };
  return documentResponse(html, config, { frameAncestors: options.frameAncestors, scriptHashes: options.closed ? [] : scriptHashesOf.hashes });
}

/** Past this length (characters) a page's HTML is compressed with Brotli quality 5, not 11 ({@link encodedBody}). */
const LARGE_PAGE_CHARACTERS = 64 * 1024;

/** Each document's compressed bodies, made when first asked for and kept as long as it is. */
const compressedBodies = new WeakMap<PageResponse, Partial<Record<'br' | 'gzip', Buffer>>>();

/**
 * The body of `response` as a client's `Accept-Encoding` asks for it (RFC 9110 §12.5.3, br
 * preferred, `*` read as gzip): Brotli at quality 11 (5 past 64 K characters) or gzip at level 9,
 * made once per document and kept with it,
 * else the HTML itself. A page's HTML is the same for every request of its version (the XSRF
 * cookie rides in a header), so compressing it per request, as the compression plugin would, is
 * work done again for nothing (docs/decisions/035).
 * @returns the body, and its `Content-Encoding` when compressed.
 */
export function encodedBody(response: PageResponse, acceptEncoding: string | undefined): { body: string | Buffer; encoding?: 'br' | 'gzip' } {
  // `*` read as gzip, as the compression and static plugins read it: the negotiator would give `*`
  // the first coding even where the header refuses it (`br;q=0, *`).
  const encoding = acceptEncoding ? (negotiate(acceptEncoding.toLowerCase().replaceAll('*', 'gzip'), ['br', 'gzip']) as 'br' | 'gzip' | null) : null;
  if (!encoding) return { body: response.html };
  let bodies = compressedBodies.get(response);
  if (!bodies) compressedBodies.set(response, (bodies = {}));
  // Quality 11 takes ~25 ms for a 15 KB page, once; a page an editor made far larger (the draft's
  // limit allows ~700 KB of HTML: 420 ms at 11) gets quality 5, so that no first request holds
  // the event loop for long.
  const quality = response.html.length <= LARGE_PAGE_CHARACTERS ? zlib.BROTLI_MAX_QUALITY : 5;
  bodies[encoding] ??=
    encoding === 'br'
      ? brotliCompressSync(response.html, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } })
      : gzipSync(response.html, { level: zlib.Z_BEST_COMPRESSION });
  return { body: bodies[encoding], encoding };
}

/**
 * A document already rendered from `config` with its security headers: `config`'s Content
 * Security Policy (`contentSecurityPolicy`) with the document's inline script and style hashes,
 * beside helmet's other headers ({@link documentHeaders}). {@link pageResponse} for `GET /`, and
 * the builder's preview (`GET /preview/{id}`, whose document carries the preview's own script).
 * @param html - the document sent.
 * @param options.frameAncestors - CSP `frame-ancestors` sources; default `'none'`.
 * @param options.scriptHashes - the inline scripts allowed; default those of `html` ({@link inlineScriptHashes}).
 */
export function documentResponse(
  html: string,
  config: WizardConfig,
  options: { frameAncestors?: readonly string[] | undefined; scriptHashes?: readonly string[] } = {},
): PageResponse {
  const directives = contentSecurityPolicy(config, options.scriptHashes ?? inlineScriptHashes(html), inlineStyleHashes(html), {
    frameAncestors: options.frameAncestors,
  });
  return { html, headers: documentHeaders(directives) };
}

/**
 * The host name a request is for, as page host names are stored: Fastify's
 * `request.hostname` (the `Host` header, or `X-Forwarded-Host` from a proxy `TRUST_PROXY`
 * trusts; port dropped), in lower case, without the trailing dot of a fully qualified name.
 */
export function requestHost(request: FastifyRequest): string {
  const name = request.hostname.toLowerCase();
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/**
 * An `onRequest` hook for what a campaign page's host name does not serve (the attack on the submit
 * path's edges; docs/pages.md, "Publishing tab": every other path there redirects to the root): the
 * inbox (`/admin`, `/api/admin/…`) and the drafts' preview (`/preview/{id}`). On the host name of a
 * published page (`byHost`, as `GET /` reads it) the request gets the not-found answer of any
 * other path: a redirect to `/` for a page, 404 problem+json under `/api/`. Elsewhere it goes on.
 * One map lookup, on these routes only.
 */
export function offCampaignHosts(app: FastifyInstance) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (app.pageRegistry.byHost(requestHost(request))) return reply.callNotFound();
    return undefined;
  };
}

/**
 * `GET /`: a stored page (docs/decisions/021) or the default page, with a fresh or kept
 * `XSRF-TOKEN` cookie (an inbox user's session-bound token is kept: one cookie serves both).
 * Which page: the one whose host names include the request's host ({@link requestHost}); else
 * the one `?page={id}` names; else (no such parameter, an unknown or never-published id, the
 * default page's own id) the default page. A stored page is sent as its published version,
 * open or closed (`isClosed` at the app's clock), each form rendered once per version
 * ({@link pageResponse}) and kept while that version is served: a request renders and hashes
 * nothing. Each answer carries its page's own Content Security Policy, so the route opts out of
 * the helmet plugin (which sends the default page's); behind a proxy `TRUST_PROXY` trusts
 * (`forwardedHost`), `Vary: X-Forwarded-Host`. `GET /robots.txt`: {@link ROBOTS_TXT}.
 */
export const pageRoutes: FastifyPluginAsync<{ template: string; defaultPage: PageResponse; forwardedHost?: boolean }> = async (app, options) => {
  const registry = app.pageRegistry;
  const { template, defaultPage } = options;
  /** Per stored page: the version rendered, and its open and closed forms (each made when first asked for). */
  const rendered = new Map<string, { version: number; open?: PageResponse; closed?: PageResponse }>();
  const responseOf = (page: ServedPage, closed: boolean): PageResponse => {
    let entry = rendered.get(page.id);
    if (entry?.version !== page.version) rendered.set(page.id, (entry = { version: page.version }));
    return closed ? (entry.closed ??= pageResponse(template, page.config, { closed: true })) : (entry.open ??= pageResponse(template, page.config));
  };
  const servedPage = (request: FastifyRequest): ServedPage | undefined => {
    // A brand's own host name shows its page only, whatever `?page=` names.
    const byHost = registry.byHost(requestHost(request));
    if (byHost) return byHost;
    const id = (request.query as { page?: unknown }).page;
    return typeof id === 'string' ? registry.get(id) : undefined;
  };

  app.get('/', { helmet: false, compress: false }, async (request, reply) => {
    // An applicant has arrived: the phone rule's library loads now, off the start-up
    // path, long before their application does (the submit route waits for it in any case).
    void loadPhoneNumbers().catch(() => undefined);
    const page = servedPage(request);
    const response = page ? responseOf(page, registry.isClosed(page, app.clock())) : defaultPage;
    ensureXsrfCookie(request, reply, wizardScope(request, app.xsrf));
    // Compressed once per version (encodedBody), not per request by the compression plugin. Behind
    // a trusted proxy the page depends on X-Forwarded-Host too: a cache keeps one per host.
    const { body, encoding } = encodedBody(response, request.headers['accept-encoding']);
    if (encoding) reply.header('Content-Encoding', encoding);
    reply.header('Vary', options.forwardedHost ? 'Accept-Encoding, X-Forwarded-Host' : 'Accept-Encoding');
    return reply.headers(response.headers).header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(body);
  });
  app.get('/robots.txt', async (_request, reply) => {
    return reply.header('Cache-Control', 'public, max-age=3600').type('text/plain; charset=utf-8').send(ROBOTS_TXT);
  });
};
