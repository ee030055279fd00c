import DOMPurify from 'dompurify';
import { createElement, useMemo } from 'react';

// Every link that configuration HTML brings opens in a new tab, so following a
// privacy-policy link never takes the applicant away from a half-filled form.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/**
 * Sanitises configuration HTML with DOMPurify (scripts, event-handler
 * attributes and `javascript:` URLs removed).
 * @param html - untrusted HTML from configuration.
 * @returns HTML safe to insert.
 */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html);
}

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
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  return createElement(as, { className, id, dangerouslySetInnerHTML: { __html: clean } });
}
