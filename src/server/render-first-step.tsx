import { convert } from 'html-to-text';
import type { WizardConfig } from '../shared/config';
import { blockDefinition } from '../shared/blocks';
// The one place the server reaches into the wizard: its server-rendering entry.
export { renderFirstStep } from '../wizard/render-first-step';

/** The longest default description, in characters: what search results show before cutting it. */
const DESCRIPTION_LENGTH = 160;

/**
 * The page's `<meta name="description">`: `description` from the configuration; by
 * default the text of the first step's HTML blocks (its headline and intro), whitespace collapsed,
 * cut at the last word that fits in 160 characters with an ellipsis; the title when that step has
 * no text.
 */
export function pageDescription(config: WizardConfig): string {
  if (config.description !== undefined && config.description.trim() !== '') return config.description.trim();
  const html = config.steps[0]!.blocks.flatMap((block) => blockDefinition(block).shownHtml?.(block) ?? []).join(' ');
  const text = convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'h1', options: { uppercase: false } },
      { selector: 'h2', options: { uppercase: false } },
    ],
  })
    .replace(/\{email\}/g, '')
    // One line per heading or paragraph: a heading without closing punctuation ends its sentence
    // here, so it does not run into the paragraph after it ("…creator. Love Thinking Putty?").
    .split(/\n+/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .map((line, index, lines) => (index < lines.length - 1 && !/[.!?…:;]$/.test(line) ? `${line}.` : line))
    .join(' ');
  if (text === '') return config.title;
  if (text.length <= DESCRIPTION_LENGTH) return text;
  const cut = text.slice(0, DESCRIPTION_LENGTH - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : cut.length).replace(/[\s,;:.!?-]+$/, '')}…`;
}
