// Only the version string of the package's manifest reaches the browser (a named JSON import is tree-shaken).
import { version as FLAG_ICONS_VERSION } from 'flag-icons/package.json';
import { countryCodes } from './countries';

/**
 * Flags (requirements §3; docs/decisions/019) are the SVG files of the flag-icons package, 4:3, one file per
 * country, served as files of their own (never emoji, never the package's CSS, which names all of
 * them): the browser fetches only the flags a page shows. The build copies them to `dist` under
 * this path (vite.config.ts, `flagIcons`), the development server serves them from the package;
 * the package's version is in the path, so the server may cache them for good (a published
 * version never changes its files).
 */
export const FLAGS_PATH = `/flags/${FLAG_ICONS_VERSION}/4x3/`;

/** The flag-icons folder the files come from, relative to the package's root. */
export const FLAG_ICONS_DIR = 'flags/4x3';

/** The flag's width and height in CSS pixels, as the page draws it (4:3). */
export const FLAG_SIZE = { width: 20, height: 15 } as const;

/** The URL of a country's flag: `/flags/7.5.0/4x3/gb.svg` for `GB` (ISO 3166-1 alpha-2). */
export function flagUrl(isoAlpha2: string): string {
  return `${FLAGS_PATH}${isoAlpha2.toLowerCase()}.svg`;
}

/**
 * The file names of every flag the lists can show (`gb.svg`): one per country of the country
 * table, which the Country select and the calling-code select both list. The build copies these
 * and no others, and fails when the package lacks one.
 */
export function flagFileNames(): string[] {
  return countryCodes().map((code) => `${code.toLowerCase()}.svg`);
}
