/**
 * What a message says (docs/email.md), kept in the e-mail log as it was made: its language,
 * subject (also its heading), paragraphs, a titled list (the confirmation's answers) and footer
 * lines; made into HTML (templates.tsx, React Email) when it is sent or shown, and into plain text
 * here. Keeping the description rather than the HTML keeps a message's row small, and a message
 * never sent (no `SMTP_URL`) costs no rendering.
 */

/** A run of text: words, or a link. */
export type Run = string | { text: string; href: string };

/** A message's description. */
export interface EmailContent {
  lang: string;
  subject: string;
  paragraphs: Run[][];
  /** A titled list of label and value (the confirmation's answers). */
  list?: { heading: string; items: { label: string; value: string }[] };
  footer: Run[][];
}

/** Runs as plain text: a link as its words and its address in angle brackets. */
function runsText(runs: readonly Run[]): string {
  return runs.map((run) => (typeof run === 'string' ? run : `${run.text} <${run.href}>`)).join('');
}

/** The plain text of a message: paragraphs between blank lines, the list as `label: value`, the footer after `--`. */
export function contentText(content: EmailContent): string {
  const blocks = [content.subject, ...content.paragraphs.map(runsText)];
  if (content.list && content.list.items.length > 0)
    blocks.push([content.list.heading, ...content.list.items.map((item) => `${item.label}: ${item.value}`)].join('\n'));
  blocks.push('--', ...content.footer.map(runsText));
  return `${blocks.join('\n\n')}\n`;
}
