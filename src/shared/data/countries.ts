import { CA_SUBDIVISION_TABLE, COUNTRY_TABLE, MAIN_COUNTRY_TABLE, US_SUBDIVISION_TABLE } from './lists.generated';

/**
 * Country, calling-code and subdivision lists (requirements §3 Lists), from the table
 * generated out of maintained packages (scripts/generate-data-lists.ts).
 */

/** A country entry (requirements §3: country, countryCodes, isoCode2, isoCode3). */
export interface Country {
  /** ISO 3166-1 alpha-2 code. */
  isoAlpha2: string;
  /** ISO 3166-1 alpha-3 code. */
  isoAlpha3: string;
  /** E.164 calling codes, NANP members as `1-684`; several for some (Dominican Republic). */
  callingCodes: string[];
  /** Display name in the page language (`Intl.DisplayNames`), the code when unknown. */
  name: string;
}

/** A state, province, territory or armed-forces code (ISO 3166-2 without the country prefix). */
export interface Subdivision {
  code: string;
  name: string;
}

/** One entry of the calling-code select: a country with one of its calling codes. */
export interface CallingCodeOption {
  /** Unique option value: `US:1`, `DO:1-829`. */
  id: string;
  isoAlpha2: string;
  callingCode: string;
  /** `+1 United States`. */
  label: string;
  /**
   * True for the main country of a calling code that several countries share (`+44 United
   * Kingdom`, not Guernsey; libphonenumber-js's main country for the code), and for every code
   * that only one country has: search ranks it before the others of its code.
   */
  primary: boolean;
}

/** The country whose entries sort first (requirements §3: US first; default calling code 1). */
export const FIRST_COUNTRY = 'US';
export { DEFAULT_CALLING_CODE } from '../rules';
import { DEFAULT_CALLING_CODE } from '../rules';

const rows = COUNTRY_TABLE.split(';').map((entry) => {
  const [isoAlpha2 = '', isoAlpha3 = '', codes = ''] = entry.split(':');
  return { isoAlpha2, isoAlpha3, callingCodes: codes ? codes.split(',') : [] };
});

const COUNTRY_CODES = new Set(rows.map((row) => row.isoAlpha2));
/** `44` → `GB`: the main country of each calling code that several countries share. */
const MAIN_COUNTRY = new Map(MAIN_COUNTRY_TABLE.split(';').map((entry) => entry.split(':') as [string, string]));
const CALLING_CODES = new Set(rows.flatMap((row) => row.callingCodes));

/** Every ISO 3166-1 alpha-2 code of the country table, by code. */
export function countryCodes(): string[] {
  return [...COUNTRY_CODES];
}

/** Every calling code of the country table (`1`, `44`, `1-684`), each once. */
export function callingCodes(): string[] {
  return [...CALLING_CODES];
}

const CALLING_CODES_OF = new Map(rows.map((row) => [row.isoAlpha2, row.callingCodes]));

/**
 * A country's E.164 calling codes, its main one first (`FR` → `33`; `AS` → `1-684`; `DO` → `1-809`,
 * `1-829`, `1-849`); none for a code the table does not have.
 */
export function countryCallingCodes(isoAlpha2: string): readonly string[] {
  return CALLING_CODES_OF.get(isoAlpha2) ?? [];
}

/** True for an ISO 3166-1 alpha-2 code of the country table (`GB`; not `ZZ`, not `gb`). */
export function isCountryCode(value: string): boolean {
  return COUNTRY_CODES.has(value);
}

/** True for an E.164 calling code of the country table (`44`, `1`, `1-684`; not `999`). */
export function isCallingCode(value: string): boolean {
  return CALLING_CODES.has(value);
}

const countriesByLang = new Map<string, readonly Country[]>();
const callingCodesByLang = new Map<string, readonly CallingCodeOption[]>();

/**
 * One collator and one set of display names per list: `localeCompare(b, lang)` in
 * a sort comparison creates a collator per call, ~2 000 for 250 names (230 ms on a phone).
 */
function localeTools(lang: string): { names: Intl.DisplayNames; collator: Intl.Collator } {
  try {
    return { names: new Intl.DisplayNames([lang, 'en'], { type: 'region', fallback: 'code' }), collator: new Intl.Collator([lang, 'en']) };
  } catch {
    return { names: new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' }), collator: new Intl.Collator(['en']) };
  }
}

/**
 * All countries (250), US first, the rest by name in `lang` (`Intl.Collator`), built once per
 * language: every call for the same `lang` returns the same array.
 * @param lang - BCP 47 language of the page; names come from `Intl.DisplayNames`
 *   (English for a language the browser does not know).
 */
export function getCountries(lang: string): readonly Country[] {
  let countries = countriesByLang.get(lang);
  if (!countries) {
    const { names, collator } = localeTools(lang);
    countries = rows
      .map((row) => ({ ...row, name: names.of(row.isoAlpha2) ?? row.isoAlpha2 }))
      .sort((a, b) =>
        a.isoAlpha2 === FIRST_COUNTRY ? -1 : b.isoAlpha2 === FIRST_COUNTRY ? 1 : collator.compare(a.name, b.name),
      );
    countriesByLang.set(lang, countries);
  }
  return countries;
}

/**
 * Other names a country is searched by, in every language (its abbreviations in wide use): "UK"
 * finds the United Kingdom before Ukraine, "USA" the United States.
 */
export const COUNTRY_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  GB: ['UK', 'Great Britain'],
  US: ['USA', 'US'],
  AE: ['UAE'],
  NL: ['Holland'],
};

const countryOptionsByLang = new Map<string, readonly { name: string; value: string; keywords?: readonly string[] }[]>();
/**
 * The countries as a select's options: `value` the ISO 3166-1 alpha-2 code, `name` in `lang`, in
 * {@link getCountries}' order, `keywords` its {@link COUNTRY_KEYWORDS}; built once per language
 * rather than on every mount of a step.
 */
export function countryOptions(lang: string): readonly { name: string; value: string; keywords?: readonly string[] }[] {
  let options = countryOptionsByLang.get(lang);
  if (!options) {
    options = getCountries(lang).map((country) => ({ name: country.name, value: country.isoAlpha2, keywords: COUNTRY_KEYWORDS[country.isoAlpha2] }));
    countryOptionsByLang.set(lang, options);
  }
  return options;
}

/**
 * One option per country and calling code, calling code 1 first (US, then
 * Canada), the rest in country-name order. requirements §3, §9. Each says whether it is
 * its code's main country (`primary`), for search to rank `+44` United Kingdom first. Built once per
 * language: every call for the same `lang` returns the same array.
 */
export function getCallingCodeOptions(lang: string): readonly CallingCodeOption[] {
  let options = callingCodesByLang.get(lang);
  if (!options) {
    const all = getCountries(lang).flatMap((country) =>
      country.callingCodes.map((callingCode) => ({
        id: `${country.isoAlpha2}:${callingCode}`,
        isoAlpha2: country.isoAlpha2,
        callingCode,
        label: `+${callingCode} ${country.name}`,
        primary: (MAIN_COUNTRY.get(callingCode) ?? country.isoAlpha2) === country.isoAlpha2,
      })),
    );
    const first = all.filter((option) => option.callingCode === DEFAULT_CALLING_CODE);
    options = [...first, ...all.filter((option) => option.callingCode !== DEFAULT_CALLING_CODE)];
    callingCodesByLang.set(lang, options);
  }
  return options;
}

const parseSubdivisions = (table: string): Subdivision[] =>
  table.split('|').map((entry) => {
    const [code = '', name = ''] = entry.split(/:(.*)/s);
    return { code, name };
  });

const SUBDIVISIONS: Record<string, Subdivision[]> = {
  US: parseSubdivisions(US_SUBDIVISION_TABLE),
  CA: parseSubdivisions(CA_SUBDIVISION_TABLE),
};

/** The states / provinces for a country (US: 62 with territories and AA, AE, AP; CA: 13), else undefined. */
export function getSubdivisions(isoAlpha2: string | undefined): Subdivision[] | undefined {
  return isoAlpha2 ? SUBDIVISIONS[isoAlpha2] : undefined;
}
