import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { WizardConfig } from '../../shared/config';
import { imageOrigins } from '../../shared/cover-image';
import { policyOrigin } from '../../shared/urls';

/**
 * Style elements well-kept libraries of the inbox add to the page themselves, allowed by the
 * SHA-256 of their text (never `unsafe-inline`): React Aria's `usePress` adds
 * `@layer { [data-react-aria-pressable] { touch-action: pan-x pan-y pinch-zoom; } }` once (the
 * status tabs; react-aria-components 1.22). Should an update change that text, Chromium reports
 * the blocked style with its new hash and the inbox's browser tests fail on it.
 */
export const LIBRARY_STYLE_HASHES = ["'sha256-38RhXrc7EdReTKsOm23ZPOCUgniTUUcjky8QOOrQx6o='"] as const;

/** Who may frame a page (CSP `frame-ancestors`): nobody, the default of every page. */
export const FRAME_ANCESTORS_NONE: readonly string[] = ["'none'"];

/**
 * The Content Security Policy: scripts only from this origin and the
 * page's own inline first script, allowed by its hash (`scriptHashes`, from
 * `inlineScriptHashes`) — the inlined configuration is JSON data, not
 * script — style sheets only from this origin and the page's theme (`styleHashes`, from
 * `inlineStyleHashes`), connections only to this origin, the configured analytics and
 * error-reporting hosts and the origin of a `requestUrl` on another site (one the operator allows:
 * `SUBMIT_ORIGINS_ALLOWED`); framed by nobody. Never throws, and no configured value can break the
 * policy: a URL that does not parse, or whose host is no host name (`a.example;x`, `*`: the
 * attack on the submit path's edges), adds no source (`policyOrigin`, src/shared/urls.ts).
 * @param options.frameAncestors - who may frame the page instead (CSP sources): the builder's
 *   preview (`["'self'"]`) and nothing else; default {@link FRAME_ANCESTORS_NONE}.
 * @returns helmet's directives, by camel-case name.
 */
export function contentSecurityPolicy(
  config: WizardConfig,
  scriptHashes: readonly string[] = [],
  styleHashes: readonly string[] = [],
  options: { frameAncestors?: readonly string[] } = {},
): Record<string, string[]> {
  // A path (`/uploads/…`) is this origin's; a URL that does not parse, or names no host name,
  // allows nothing (the schema refuses one, but a policy is also built for drafts and versions
  // stored before that rule): helmet throws on a `;` or `,`, and every answer of the page was 500.
  const connections = [config.requestUrl, config.analytics?.host, config.errorReporting?.dsn].flatMap((url) => policyOrigin(url) ?? []);
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...scriptHashes],
    styleSrc: ["'self'", ...styleHashes, ...LIBRARY_STYLE_HASHES],
    imgSrc: ["'self'", 'data:', ...imageOrigins(config)],
    connectSrc: ["'self'", ...new Set(connections)],
    fontSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: [...(options.frameAncestors ?? FRAME_ANCESTORS_NONE)],
  };
}

/** What helmet sends besides the policy, on every route alike. */
const HELMET_OPTIONS = {
  // Cover images and the logo may come from a CDN.
  crossOriginEmbedderPolicy: false,
} as const satisfies HelmetOptions;

/**
 * Every security header helmet would send on a document answer with the policy `directives`
 * (from {@link contentSecurityPolicy}), worked out once by running helmet itself, so that an answer
 * (every route's, {@link securityHeaders}; a page's, each page its own policy) gets them with no
 * work per request. `X-Frame-Options: SAMEORIGIN` only for a
 * page no one may frame (`frame-ancestors 'none'`); a page the builder's preview frames has none.
 * @returns header names in lower case, and their values.
 */
export function documentHeaders(directives: Record<string, readonly string[]>): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: () => undefined,
  };
  // `X-Frame-Options` can say "no frame" or "this origin's" but not the builder's preview alone:
  // a page that may be framed (frame-ancestors other than 'none') says so in its policy only.
  const framed = directives.frameAncestors?.join(' ') !== FRAME_ANCESTORS_NONE.join(' ');
  helmet({ ...HELMET_OPTIONS, contentSecurityPolicy: { useDefaults: false, directives }, ...(framed ? { frameguard: false } : {}) })(
    {} as IncomingMessage,
    response as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error instanceof Error ? error : new Error(String(error));
    },
  );
  return headers;
}

declare module 'fastify' {
  interface RouteShorthandOptions {
    /**
     * `false`: the route sends no security headers of {@link securityHeaders} (a JSON answer, which
     * sets `nosniff` itself; a document with its own policy, {@link documentHeaders}).
     */
    helmet?: false;
  }
  interface FastifyContextConfig {
    /** Set from the route's `helmet: false` ({@link securityHeaders}). */
    securityHeaders?: false;
  }
}

/**
 * Security headers on every answer, worked out by helmet once at start-up
 * ({@link documentHeaders}): the {@link contentSecurityPolicy} of the default page, `nosniff`,
 * frame and referrer policies. A route may opt out with `helmet: false`: JSON answers, which set
 * `nosniff` themselves, and the page route (`GET /`), which sends each page's own policy with the
 * rest of helmet's headers. The headers are set in `onRequest`, so that an error's answer carries
 * them too. @fastify/helmet, which this replaced, ran helmet's middleware builder and parsed the
 * policy again on every request: a fifth of the CPU time of a small answer (docs/performance.md).
 */
export const securityHeaders = fp(
  async (app: FastifyInstance, options: { config: WizardConfig; scriptHashes: readonly string[]; styleHashes?: readonly string[] }) => {
    const headers = documentHeaders(contentSecurityPolicy(options.config, options.scriptHashes, options.styleHashes));
    app.addHook('onRoute', (route) => {
      if (route.helmet === false) route.config = { ...route.config, securityHeaders: false };
    });
    const entries = Object.entries(headers);
    app.addHook('onRequest', (request, reply, done) => {
      // On the raw response, as helmet sets them: a header a route sets itself afterwards, on the
      // reply or on the raw response (the uploads' own `default-src 'none'`), takes their place.
      if (request.routeOptions.config.securityHeaders !== false) for (const [name, value] of entries) reply.raw.setHeader(name, value);
      done();
    });
  },
  { name: 'security-headers' },
);
