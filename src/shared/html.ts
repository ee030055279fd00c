/**
 * Small HTML text helpers shared by the server (page template) and the wizard
 * (configuration HTML with placeholders).
 */

/** Escapes `& < > " '` as numeric character references, for text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Fills the `{email}` placeholder of configuration HTML (SPEC §2 Creator Hub)
 * with the e-mail entered, escaped; empty while there is none.
 */
export function fillEmail(html: string, email: unknown): string {
  return html.replaceAll('{email}', escapeHtml(typeof email === 'string' ? email.trim() : ''));
}
