import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { WizardConfig } from '../../shared/config';
import { coverImageSources } from '../../shared/cover-image';

/**
 * Style elements well-kept libraries of the inbox add to the page themselves, allowed by the
 * SHA-256 of their text (never `unsafe-inline`): React Aria's `usePress` adds
 * `@layer { [data-react-aria-pressable] { touch-action: pan-x pan-y pinch-zoom; } }` once (issue
 * 16's tabs; react-aria-components 1.22). Should an update change that text, Chromium reports
 * the blocked style with its new hash and the inbox's browser tests fail on it.
 */
export const LIBRARY_STYLE_HASHES = ["'sha256-38RhXrc7EdReTKsOm23ZPOCUgniTUUcjky8QOOrQx6o='"] as const;

/**
 * The Content Security Policy (issue 5): scripts only from this origin and the
 * page's own inline first script, allowed by its hash (`scriptHashes`, from
 * `inlineScriptHashes`; issue 12) — the inlined configuration is JSON data, not
 * script — style sheets only from this origin and the page's theme (`styleHashes`, from
 * `inlineStyleHashes`; issue 15), connections only to this origin and the configured analytics
 * and error-reporting hosts.
 */
export function contentSecurityPolicy(config: WizardConfig, scriptHashes: readonly string[] = [], styleHashes: readonly string[] = []): Record<string, string[]> {
  const origin = (url: string | undefined) => {
    if (!url || !/^https?:\/\//.test(url)) return [];
    return [new URL(url).origin];
  };
  const covers = [config.singleCoverImg, ...config.coverImages].flatMap((image) => {
    if (image === undefined) return [];
    const { src, srcset } = coverImageSources(image);
    return [src, ...(srcset ?? '').split(',').map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')];
  });
  const images = [config.logo, ...covers].flatMap(origin);
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...scriptHashes],
    styleSrc: ["'self'", ...styleHashes, ...LIBRARY_STYLE_HASHES],
    imgSrc: ["'self'", 'data:', ...new Set(images)],
    connectSrc: ["'self'", ...origin(config.analytics?.host), ...origin(config.errorReporting?.dsn)],
    fontSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  };
}

/**
 * Security headers on every answer (helmet): the {@link contentSecurityPolicy} of the page,
 * `nosniff`, frame and referrer policies. A route may opt out with `helmet: false` (JSON answers,
 * which set `nosniff` themselves).
 */
export const securityHeaders = fp(
  async (app: FastifyInstance, options: { config: WizardConfig; scriptHashes: readonly string[]; styleHashes?: readonly string[] }) => {
    await app.register(fastifyHelmet, {
      contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(options.config, options.scriptHashes, options.styleHashes) },
      // Cover images and the logo may come from a CDN.
      crossOriginEmbedderPolicy: false,
    });
  },
  { name: 'security-headers' },
);
