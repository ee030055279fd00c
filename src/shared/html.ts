/**
 * Small HTML text helpers shared by the server (page template) and the wizard
 * (configuration HTML with placeholders).
 */

/** Escapes `& < > " '` as numeric character references, for text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Fills the `{email}` placeholder of configuration HTML (requirements §2 Creator Hub)
 * with the e-mail entered, escaped; empty while there is none.
 */
export function fillEmail(html: string, email: unknown): string {
  return html.replaceAll('{email}', escapeHtml(typeof email === 'string' ? email.trim() : ''));
}

/** Id of the `<script type="application/json">` element that carries the page's configuration. */
export const CONFIG_ELEMENT_ID = 'wizard-config';
/** The comment of the page template (`src/wizard/index.html`) that {@link configScript} replaces. */
export const CONFIG_PLACEHOLDER = '<!--wizard-config-->';

/**
 * The page's configuration inlined as JSON data, not script (the Content Security Policy allows no
 * inline script), so the wizard's first render needs no second round trip. Written by the server
 * into every page (`npm run dev` too, through Vite's dev server); read by `src/wizard/boot.ts`.
 * @param config - the configuration as the browser must receive it: parsed, defaults applied, its
 * HTML sanitised (`sanitizeConfig`).
 * @returns a `<script type="application/json" id="wizard-config">` element whose JSON can neither
 * close the element nor open a comment (`<` is written `\u003c`; U+2028 and U+2029 escaped too).
 */
export function configScript(config: unknown): string {
  return jsonScript(CONFIG_ELEMENT_ID, config);
}

/**
 * A value inlined as JSON data (`<script type="application/json" id="…">`), escaped as
 * {@link configScript} escapes the configuration; read with `JSON.parse` of the element's text.
 * @param id - the element's id (letters, digits, `-`).
 * @param value - any JSON value.
 */
export function jsonScript(id: string, value: unknown): string {
  const json = JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${id}">${json}</script>`;
}
