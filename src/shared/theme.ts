import type { WizardConfig } from './config';

/** A page's theme tokens (`styleConfig.theme`, issue 15). */
export type Theme = NonNullable<WizardConfig['styleConfig']['theme']>;

/** The CSS custom property each token sets (the wizard's styles.css mixes every other colour from them). */
const PROPERTIES = { primary: '--brand', surface: '--surface', text: '--text' } as const;

/**
 * A theme as the CSS the page carries in its `<style>` (allowed by its hash in the Content
 * Security Policy): `:root{--brand:#0b6e4f;--radius:4px}`. Values are the schema's: hex colours and
 * a radius in CSS pixels, so nothing else can reach the style sheet.
 * @returns '' for no theme or an empty one.
 */
export function themeCss(theme: Theme | undefined): string {
  if (!theme) return '';
  const declarations = (Object.keys(PROPERTIES) as (keyof typeof PROPERTIES)[]).flatMap((token) =>
    theme[token] === undefined ? [] : [`${PROPERTIES[token]}:${theme[token]}`],
  );
  if (theme.radius !== undefined) declarations.push(`--radius:${theme.radius}px`);
  return declarations.length === 0 ? '' : `:root{${declarations.join(';')}}`;
}
