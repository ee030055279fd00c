import { createElement } from 'react';

/** Props of {@link SafeHtml}. */
export interface SafeHtmlProps {
  /**
   * Configuration HTML as the server sanitised it (`sanitizeConfig` in src/shared/sanitize-html.ts,
   * run once when the server builds the page), or such HTML with `{email}` filled in
   * escaped (`fillEmail`). Never HTML from anywhere else.
   */
  html: string;
  /** Wrapper element, `div` by default (`span` inside labels). */
  as?: 'div' | 'span';
  className?: string;
  id?: string;
}

/**
 * Renders configuration HTML. It is sanitised once, on the server, which renders the first step
 * with the same clean text: the browser's markup is the server's, and the browser needs no
 * sanitiser of its own.
 */
export function SafeHtml({ html, as = 'div', className, id }: SafeHtmlProps) {
  return createElement(as, { className, id, dangerouslySetInnerHTML: { __html: html } });
}
