import type { MetadataJson } from 'libphonenumber-js/core';
// Only the version string of the package's manifest reaches the browser (a named JSON import is tree-shaken).
import { version as LIBPHONENUMBER_VERSION } from 'libphonenumber-js/package.json';
import { callingCodes } from './data/countries';

/**
 * The phone rule's metadata (decision 010, "The phone library's metadata by calling code"):
 * libphonenumber-js's `min` metadata — each country's number lengths, leading digits and national
 * prefixes — whole on the server, and in the browser one file per calling code, fetched for the
 * codes an applicant's answers name. The library reads only the numbering plans of the calling
 * code a number is parsed under (its countries, or its non-geographic plan), and ITU-T E.164
 * calling codes are a prefix code (no code begins another), so a number judged with its calling
 * code's file is judged as with the whole metadata (`phone-metadata.test.ts` checks every code).
 */

/**
 * Where the built wizard's per-calling-code files are served (`/phone-metadata/1.13.16/min/44.json`):
 * the build writes them into `dist` (vite.config.ts, `phoneMetadata`), the development server
 * serves them from the package. The package's version is in the path, so the server caches them
 * for good (a published version never changes its metadata); a change to what a file holds
 * ({@link phoneMetadataFor}) must change the path too.
 */
export const PHONE_METADATA_PATH = `/phone-metadata/${LIBPHONENUMBER_VERSION}/min/`;

/** The URL of a calling code's file: `/phone-metadata/1.13.16/min/44.json` for `44`. */
export function phoneMetadataUrl(code: string): string {
  return `${PHONE_METADATA_PATH}${code}.json`;
}

/** Loads libphonenumber-js's whole `min` metadata (83 KB, 19 KB gzip; phone-metadata-whole.ts): the server's. */
export async function fullPhoneMetadata(): Promise<MetadataJson> {
  return (await import('./phone-metadata-whole')).default;
}

/**
 * Calling codes with numbering plans in the metadata that no country of the country table has:
 * Ascension Island (+247), which ISO 3166-1 does not list, and the non-geographic codes of ITU-T
 * E.164 (international freephone 800, shared cost 808, Inmarsat 870, universal personal
 * telecommunications 878, global mobile satellite 881, international networks 882 and 883,
 * international freephone 888, international premium rate 979).
 */
const CODES_BEYOND_THE_COUNTRY_TABLE = ['247', '800', '808', '870', '878', '881', '882', '883', '888', '979'];

/** Every calling code of `metadata`: its countries' and its non-geographic ones. */
export function metadataCodes(metadata: MetadataJson): string[] {
  return [...Object.keys(metadata.country_calling_codes), ...Object.keys(metadata.nonGeographic)];
}

/**
 * Every calling code the metadata has a file for (ITU codes: `1` for every NANP area): those of
 * the country table and {@link CODES_BEYOND_THE_COUNTRY_TABLE}. The build fails when the metadata's
 * codes are not exactly these (a new release of libphonenumber-js with a new code), as does a test.
 */
export const PHONE_METADATA_CODES: ReadonlySet<string> = new Set([...callingCodes().map((code) => code.split('-')[0]!), ...CODES_BEYOND_THE_COUNTRY_TABLE]);

/**
 * The calling code an international number starts with, as libphonenumber-js reads it: of the
 * 1–3 digits after the `+`, the one that is a code of the metadata (codes are a prefix code, so
 * there is at most one).
 * @param digits - the number as `+` and digits only (libphonenumber-js's `parseIncompletePhoneNumber`).
 * @returns undefined when no code of the metadata begins it.
 */
export function metadataCodeOf(digits: string): string | undefined {
  const number = digits.startsWith('+') ? digits.slice(1) : digits;
  for (let length = 1; length <= 3 && length <= number.length; length++) {
    const code = number.slice(0, length);
    if (PHONE_METADATA_CODES.has(code)) return code;
  }
  return undefined;
}

/**
 * The part of `metadata` that judges numbers of one calling code: the code's countries (the
 * first is its main country: `44` → GB, GG, IM, JE) and their numbering plans, or its
 * non-geographic plan (`800`, `882`).
 * @returns undefined for a code the metadata does not have.
 */
export function phoneMetadataFor(metadata: MetadataJson, code: string): MetadataJson | undefined {
  const countries = metadata.country_calling_codes[code];
  const nonGeographic = metadata.nonGeographic[code];
  if (!countries && !nonGeographic) return undefined;
  const part: MetadataJson = { version: metadata.version, country_calling_codes: {}, countries: {}, nonGeographic: {} };
  if (countries) part.country_calling_codes[code] = countries;
  for (const country of countries ?? []) {
    const plan = metadata.countries[country];
    if (plan) part.countries[country] = plan;
  }
  if (nonGeographic) part.nonGeographic[code] = nonGeographic;
  return part;
}
