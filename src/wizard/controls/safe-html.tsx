import DOMPurify from 'dompurify';
import { createContext, createElement, useContext, useMemo } from 'react';

// Every link that configuration HTML brings opens in a new tab, so following a
// privacy-policy link never takes the applicant away from a half-filled form.
// Without a DOM (server rendering) DOMPurify has no hooks: the server brings its own sanitiser.
if (DOMPurify.isSupported) {
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
}

/**
 * Sanitises configuration HTML with DOMPurify (scripts, event-handler
 * attributes and `javascript:` URLs removed).
 * @param html - untrusted HTML from configuration.
 * @returns HTML safe to insert.
 * @throws Error where there is no DOM (server rendering provides its sanitiser through {@link HtmlSanitizerContext}).
 */
export function sanitizeHtml(html: string): string {
  if (!DOMPurify.isSupported) throw new Error('DOMPurify needs a DOM: render with an HtmlSanitizerContext on the server.');
  return DOMPurify.sanitize(html);
}

/**
 * The sanitiser {@link SafeHtml} uses: DOMPurify in the browser. Server rendering, where there
 * is no DOM, provides its own, which produces the markup DOMPurify would (issue 12).
 */
export const HtmlSanitizerContext = createContext<(html: string) => string>(sanitizeHtml);

/** Props of {@link SafeHtml}. */
export interface SafeHtmlProps {
  /** Untrusted HTML from configuration; sanitised before render. */
  html: string;
  /** Wrapper element, `div` by default (`span` inside labels). */
  as?: 'div' | 'span';
  className?: string;
  id?: string;
}

/** Renders configuration HTML after sanitising it. */
export function SafeHtml({ html, as = 'div', className, id }: SafeHtmlProps) {
  const sanitize = useContext(HtmlSanitizerContext);
  const clean = useMemo(() => sanitize(html), [sanitize, html]);
  return createElement(as, { className, id, dangerouslySetInnerHTML: { __html: clean } });
}
