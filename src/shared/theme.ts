import type { WizardConfig } from './config';

/** A page's theme tokens (`styleConfig.theme`). */
export type Theme = NonNullable<WizardConfig['styleConfig']['theme']>;

/** The CSS custom property each token sets (the wizard's styles.css mixes every other colour from them). */
const PROPERTIES = { primary: '--brand', surface: '--surface', text: '--text' } as const;

/**
 * A theme's CSS custom properties, in the order of its tokens: `[['--brand', '#0b6e4f'],
 * ['--radius', '4px']]`. Values are the schema's: hex colours and a radius in CSS pixels.
 * @returns none for no theme or an empty one.
 */
export function themeProperties(theme: Theme | undefined): [property: string, value: string][] {
  if (!theme) return [];
  const properties = (Object.keys(PROPERTIES) as (keyof typeof PROPERTIES)[]).flatMap((token): [string, string][] =>
    theme[token] === undefined ? [] : [[PROPERTIES[token], theme[token]]],
  );
  if (theme.radius !== undefined) properties.push(['--radius', `${theme.radius}px`]);
  return properties;
}

/** Every custom property a theme can set (the preview clears them before it applies another theme). */
export const THEME_PROPERTIES: readonly string[] = [...Object.values(PROPERTIES), '--radius'];

/**
 * A theme as the CSS the page carries in its `<style>` (allowed by its hash in the Content
 * Security Policy): `:root{--brand:#0b6e4f;--radius:4px}` ({@link themeProperties}).
 * @returns '' for no theme or an empty one.
 */
export function themeCss(theme: Theme | undefined): string {
  const declarations = themeProperties(theme).map(([property, value]) => `${property}:${value}`);
  return declarations.length === 0 ? '' : `:root{${declarations.join(';')}}`;
}
