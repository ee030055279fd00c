import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WizardConfig } from '../../shared/config';
import { CONFIG_PLACEHOLDER, jsonScript } from '../../shared/html';
import { previewCheck } from '../../shared/page-checks';
import { PageParams } from '../../shared/pages';
import { PREVIEW_ELEMENT_ID, type PreviewMarker } from '../../shared/preview';
import { LruMap } from '../inbox/page-versions';
import { sendProblem } from '../problem';
import { documentResponse, offCampaignHosts, renderPage, type PageResponse } from './page';

/** The preview build's manifest (vite.preview.config.ts), beside its files in `dist/preview/`. */
const MANIFEST = join('preview', '.vite', 'manifest.json');

/**
 * How many pages' rendered previews are kept (the last rendering of each, by its draft's
 * revision): checking, sanitising and rendering a large draft takes up to some 300 ms of the
 * event loop (docs/decisions/021, "The fourth outside attack"), so it is done once per saved
 * revision, not once per load. Each is the page's HTML, some hundred KB at most.
 */
const PREVIEW_CACHE_SIZE = 32;

/**
 * The `<script>` element that loads the preview's entry, from the preview build's manifest; ''
 * when there is no preview build (the page then shows the server's rendering of the draft only).
 * @param distDir - the built wizard's folder (`dist/`).
 */
export function previewScript(distDir: string): string {
  const manifest = join(distDir, MANIFEST);
  if (!existsSync(manifest)) return '';
  const entry = Object.values(JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, { file: string; isEntry?: boolean }>).find((chunk) => chunk.isEntry);
  return entry ? `<script type="module" crossorigin src="/preview/${entry.file}"></script>` : '';
}

/**
 * The preview page of a draft (docs/decisions/021 "Preview"): the public page's HTML for
 * the draft as far as it parses (`renderPage`: title, language, theme, first step, the
 * configuration inlined), or, when the schema refuses it or it cannot be rendered, the page's
 * template with no configuration (an empty shell that waits for the builder's
 * `wizard-preview:config`); with the {@link PreviewMarker} inlined and the preview's script in
 * place of the public page's first script.
 * @param template - the built `dist/index.html`.
 * @param script - {@link previewScript}.
 * @param marker - the page's id and the draft's problems.
 * @param config - the draft as parsed (defaults applied), if it parses.
 * @returns the HTML, and the configuration it was rendered from (undefined for the shell). A
 *   draft that throws while rendering is the shell, with one more problem at `(root)` saying so.
 */
export function previewPage(
  template: string,
  script: string,
  marker: PreviewMarker,
  config: WizardConfig | undefined,
): { html: string; config: WizardConfig | undefined } {
  let html: string | undefined;
  if (config) {
    try {
      html = renderPage(template, config);
    } catch (error) {
      // A draft the semantic checks refuse may break a block on the server: the shell, and the
      // team is told why (its name only: never a stack trace).
      config = undefined;
      const name = error instanceof Error ? error.name : 'Error';
      marker = {
        ...marker,
        problems: [...marker.problems, { path: '(root)', message: `the server could not render this draft (${name}); the frame shows the builder's copy` }],
      };
    }
  }
  html ??= template.replace(CONFIG_PLACEHOLDER, '');
  // The public page's first script (boot.ts) starts the public wizard: the preview's own replaces it.
  html = html.replace(/<script type="module">[\s\S]*?<\/script>\s*/g, '').replace('</body>', () => `${jsonScript(PREVIEW_ELEMENT_ID, marker)}${script}</body>`);
  return { html, config };
}

/**
 * `GET /preview/{id}` (docs/decisions/021 "Preview"): page `{id}`'s stored draft as
 * the real wizard, for a signed-in inbox user (viewer or editor: the inbox's session, 401
 * problem+json without one, as the inbox API answers), framed by the builder on this origin
 * (`frame-ancestors 'self'`, no `X-Frame-Options`), never cached (`no-store`) or indexed
 * (`noindex`). The default page's id previews the default page (read only: it is its file).
 * An unknown page is a 404. A draft with problems is still shown (200), as far as it parses. On a
 * campaign page's host name, a redirect to `/` (`offCampaignHosts`).
 * Each page's draft is rendered once per revision ({@link PREVIEW_CACHE_SIZE}).
 */
export const previewRoutes: FastifyPluginAsyncZod<{ template: string; distDir: string }> = async (app, options) => {
  const script = previewScript(options.distDir);
  const [defaultPage] = [...app.pages.values()] as [WizardConfig];
  // A refusal (401, 404, 400) is no page to frame: the security headers of any other answer,
  // the default page's policy and no framing; a draft's own replace them on its 200.
  const refusalHeaders = documentResponse('', defaultPage).headers;
  /** The last rendering of each page's draft, by page id, with the draft's revision. */
  const rendered = new LruMap<string, { revision: number; response: PageResponse }>(PREVIEW_CACHE_SIZE);
  const offCampaign = offCampaignHosts(app);
  /** Renders (checks, sanitises, renders) a draft, or the default page (revision -1), once per revision. */
  const render = (id: string, revision: number, draft: () => unknown) => {
    const kept = rendered.get(id);
    if (kept?.revision === revision) return kept;
    const checked = previewCheck(draft(), id, { submitOrigins: app.submitOrigins });
    const { html, config } = previewPage(options.template, script, { pageId: id, problems: checked.problems }, checked.config);
    // Framed by the builder only; otherwise the draft's own policy, as its page would be served:
    // an image the public page would block is blocked here too (a new image host shows once the
    // frame is loaded again from the saved draft).
    const entry = { revision, response: documentResponse(html, config ?? defaultPage, { frameAncestors: ["'self'"] }) };
    rendered.set(id, entry);
    return entry;
  };
  app.get(
    '/preview/:id',
    {
      schema: { params: PageParams },
      onRequest: async (request, reply) => {
        // Not on a campaign page's host name: a redirect to the page at `/`.
        await offCampaign(request, reply);
        if (reply.sent) return reply;
        reply.headers(refusalHeaders);
        return app.authenticate(request, reply);
      },
      // The frame's headers, its own policy with them, are set per draft below (`documentResponse`).
      helmet: false,
    },
    async (request, reply) => {
      const { id } = request.params;
      let page: { revision: number; draft: () => unknown };
      if (app.pages.has(id)) page = { revision: -1, draft: () => app.pages.get(id) };
      else {
        const stored = await app.store.pages.get(id);
        if (!stored) return sendProblem(reply, 404, `There is no stored page "${id}".`);
        page = { revision: stored.revision, draft: () => JSON.parse(stored.draft) as unknown };
      }
      const { response } = render(id, page.revision, page.draft);
      // The draft's headers in place of the refusal's (which forbid framing).
      for (const name of Object.keys(refusalHeaders)) reply.removeHeader(name);
      return reply
        .headers(response.headers)
        .header('Cache-Control', 'no-store')
        .header('X-Robots-Tag', 'noindex')
        .type('text/html; charset=utf-8')
        .send(response.html);
    },
  );
};
