/**
 * Writes the wizard's web font (a type face served by the product itself, subset, counted
 * in the byte budget): Nunito (SIL Open Font License 1.1, from `@fontsource-variable/nunito`), its
 * weight axis cut to 400–800 (the weights styles.css uses) and its glyphs cut to what a Latin page
 * writes, in two files the browser picks by `unicode-range`:
 *
 * - `nunito-latin.woff2`: Basic Latin and Latin-1 (English, French, Spanish, German…), the
 *   typographic quotes, dashes, ellipsis, euro sign, and the wizard's own marks (✓ ← ▾);
 * - `nunito-latin-ext.woff2`: Latin Extended-A (Polish, Czech, Turkish…), fetched only by a page
 *   or an answer that uses one of its letters.
 *
 * Run `npm run generate:font` after changing the ranges; the outputs are committed, and styles.css
 * declares the same ranges (`FONT_RANGES` is the one list; a test compares them).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import subsetFont from 'subset-font';

/** Code point ranges of each file, as CSS `unicode-range` writes them. */
export const FONT_RANGES = {
  latin: ['U+0020-007E', 'U+00A0-00FF', 'U+2013-2014', 'U+2018-2019', 'U+201C-201D', 'U+2022', 'U+2026', 'U+20AC', 'U+2190', 'U+25BE', 'U+2713'],
  'latin-ext': ['U+0100-017F'],
} as const;

/** The code points of a `unicode-range` list. */
export function codePoints(ranges: readonly string[]): number[] {
  return ranges.flatMap((range) => {
    const [from = '', to = from] = range.slice(2).split('-');
    const start = Number.parseInt(from, 16);
    return Array.from({ length: Number.parseInt(to, 16) - start + 1 }, (_, index) => start + index);
  });
}

const SOURCES = { latin: 'nunito-latin-wght-normal.woff2', 'latin-ext': 'nunito-latin-ext-wght-normal.woff2' } as const;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = fileURLToPath(new URL('../node_modules/@fontsource-variable/nunito/files/', import.meta.url));
  const out = fileURLToPath(new URL('../src/wizard/fonts/', import.meta.url));
  for (const [name, ranges] of Object.entries(FONT_RANGES) as [keyof typeof FONT_RANGES, readonly string[]][]) {
    const text = String.fromCodePoint(...codePoints(ranges));
    const font = await subsetFont(readFileSync(`${files}${SOURCES[name]}`), text, {
      targetFormat: 'woff2',
      variationAxes: { wght: { min: 400, max: 800 } },
    });
    writeFileSync(`${out}nunito-${name}.woff2`, font);
    console.log(`wrote src/wizard/fonts/nunito-${name}.woff2 (${font.length} bytes)`);
  }
}
