import type { MetadataJson } from 'libphonenumber-js/core';
import { isCallingCode } from './data/countries';
import { fullPhoneMetadata, metadataCodeOf } from './phone-metadata';
import { fetchPhoneMetadata } from './phone-metadata-fetch';

/**
 * Phone numbers (decision 015) by libphonenumber-js with its smallest metadata
 * (`libphonenumber-js/min`: 19 KB gzip against 39 KB for `max`; it knows each country's number
 * lengths and national prefixes, which is what is checked here: a number *possible* for its
 * calling code, ITU-T E.164). The payload keeps requirements §3's shape — the calling code of the country
 * table (`44`, `1-684`) and the subscriber digits, the national significant number without trunk
 * prefix — and {@link toE164} gives the international form.
 *
 * The library and its metadata load lazily. The server loads the whole metadata
 * ({@link loadPhoneNumbers}) before it serves; the wizard loads the library and the metadata of
 * the calling codes the applicant's answers name ({@link loadPhoneNumbersFor}: the chosen code's
 * file, about 0.1–1.4 KB gzip, and a pasted `+44 …`'s), when a step with a phone shows, when the
 * code changes, and before it judges a step or sends (decision 010). A number is judged by the same
 * rules either way: the library reads only the metadata of the calling code a number is parsed
 * under (src/shared/phone-metadata.ts). Until what a check needs has loaded, it falls back to
 * 4–15 digits (E.164's limit), as before the library arrived.
 */

type Library = typeof import('./phone-library');
let library: Library | undefined;
let loadingLibrary: Promise<Library> | undefined;
/**
 * The metadata of the calling codes loaded so far, in one object (none at first: libphonenumber-js's
 * metadata format 4 without plans); the whole metadata once {@link loadPhoneNumbers} has run.
 */
let metadata: MetadataJson = { version: 4, country_calling_codes: {}, countries: {}, nonGeographic: {} };
/** Whether {@link metadata} is the whole metadata (the server). */
let complete = false;
let loadingComplete: Promise<void> | undefined;
/** The calling codes whose metadata {@link metadata} holds, or is loading, by code. */
const codes = new Map<string, Promise<void>>();
const loadedCodes = new Set<string>();

/** Loads libphonenumber-js once; a failed load (the chunk unreachable) is tried again on the next call. */
function loadLibrary(): Promise<Library> {
  loadingLibrary ??= import('./phone-library').then((lib) => {
    recent.clear();
    return (library = lib);
  });
  loadingLibrary.catch(() => (loadingLibrary = undefined));
  return loadingLibrary;
}

/**
 * Loads libphonenumber-js and its whole metadata once (the server: every calling code); resolves
 * when every check below uses them.
 */
export function loadPhoneNumbers(): Promise<void> {
  loadingComplete ??= Promise.all([loadLibrary(), fullPhoneMetadata()]).then(([, whole]) => {
    metadata = whole;
    complete = true;
    recent.clear();
  });
  // A failed load is tried again on the next call; the checks fall back meanwhile.
  loadingComplete.catch(() => (loadingComplete = undefined));
  return loadingComplete;
}

/** Adds one calling code's metadata (its file, src/shared/phone-metadata.ts) to what the checks use. */
function addMetadata(code: string, part: MetadataJson): void {
  if (complete) return;
  Object.assign(metadata.country_calling_codes, part.country_calling_codes);
  Object.assign(metadata.countries, part.countries);
  Object.assign(metadata.nonGeographic, part.nonGeographic);
  loadedCodes.add(code);
  recent.clear();
}

/** Fetches a calling code's metadata file once; a failed fetch is tried again on the next call. */
function loadCode(code: string): Promise<void> {
  let loading = codes.get(code);
  if (!loading) {
    loading = fetchPhoneMetadata(code).then((part) => addMetadata(code, part));
    codes.set(code, loading);
    loading.catch(() => codes.delete(code));
  }
  return loading;
}

/**
 * The last answers of {@link phoneParts} and {@link isValidPhone}, by their arguments: one
 * submission reads its number several times (cleaning the payload, the subscriber's rule, the
 * calling code's, storing it), and the library's parse is the dearest part of checking it, so it
 * runs once. Dropped whole when full, and whenever a load (the library, a calling code's metadata)
 * changes what they answer.
 */
const recent = new Map<string, unknown>();
const RECENT_ANSWERS = 64;

function remembered<T>(key: string, work: () => T): T {
  const known = recent.get(key);
  if (known !== undefined) return known as T;
  const answer = work();
  if (recent.size >= RECENT_ANSWERS) recent.clear();
  recent.set(key, answer);
  return answer;
}

/**
 * The calling code whose metadata judges a number written internationally (`+44 7400…`, any
 * characters the library reads: spaces, brackets, other scripts' digits), as the library reads it.
 */
function codeOf(lib: Library, international: string): string | undefined {
  return metadataCodeOf(lib.parseIncompletePhoneNumber(international));
}

/**
 * Whether the checks below judge a number written internationally as they would with the whole
 * metadata: the library has loaded and so has the metadata of the calling code the number starts
 * with (a number no calling code of the metadata begins is judged alike without any).
 */
function judges(international: string): boolean {
  if (!library) return false;
  if (complete) return true;
  const code = codeOf(library, international);
  return code === undefined || loadedCodes.has(code);
}

/**
 * Loads what the checks below need to judge a phone answer as the server does (the wizard): the
 * library and the metadata of the calling code chosen and of the number typed (a pasted
 * `+44 7400 123456` brings its own), each fetched once from `dist` (src/shared/phone-metadata.ts).
 * Resolves at once for what has loaded (everything, after {@link loadPhoneNumbers}).
 * @param callingCode - the calling code chosen (`1`, `44`, `1-684`).
 * @param typed - the subscriber box's text, as typed.
 * @throws whatever the fetch or the library's import throws (offline); a later call tries again.
 */
export async function loadPhoneNumbersFor(callingCode: string, typed = ''): Promise<void> {
  const lib = await loadLibrary();
  if (complete) return;
  const { code } = splitCallingCode(callingCode);
  const trimmed = typed.trim();
  const numbers = [`+${code}`, `+${code}${trimmed}`];
  const international = internationalForm(trimmed);
  if (international) numbers.push(international);
  const needed = new Set(numbers.map((number) => codeOf(lib, number)).filter((found) => found !== undefined));
  await Promise.all([...needed].map(loadCode));
}

/** `+44 7400 123456` and `0044 7400 123456` as `+44 7400 123456`; undefined for a number without either. */
function internationalForm(trimmed: string): string | undefined {
  return /^(?:\+|00)\s*\d/.test(trimmed) ? `+${trimmed.replace(/^(?:\+|00)/, '')}` : undefined;
}

/**
 * A library call that throws for what it does not know (`Unknown calling code: 999`) reads as no
 * answer: a hostile calling code is the rule's 'Enter a valid …', never a 500.
 */
function safely<T>(call: () => T): T | undefined {
  try {
    return call();
  } catch {
    return undefined;
  }
}

/** `1-684` → the ITU code `1` and the NANP area code `684`; `44` → `44`. */
function splitCallingCode(callingCode: string): { code: string; area?: string } {
  const [code = '', area] = callingCode.split('-');
  return area ? { code, area } : { code };
}

/**
 * The national significant number of a subscriber number as typed for a calling code: spaces,
 * dots, brackets and hyphens removed, and the national trunk prefix (`07400 123456` in GB →
 * `7400123456`). A NANP area code's 7-digit local number keeps its 7 digits.
 */
function nationalNumber(callingCode: string, typed: string): string {
  const digits = typed.replace(/[\s.()\-\u00a0]/g, '');
  const { code, area } = splitCallingCode(callingCode);
  if (!library || !judges(`+${code}`) || !/^\d+$/.test(digits)) return digits;
  if (area && digits.length === 7) return digits;
  const { parsePhoneNumberFromString } = library;
  const plans = metadata;
  const parsed = safely(() => parsePhoneNumberFromString(digits, { defaultCallingCode: code }, plans));
  // The trunk prefix goes only where that leaves a possible number, so cleaning twice changes nothing
  // (libphonenumber would take a leading 1 off 16 ones for NANP, and again, and again).
  if (parsed?.countryCallingCode !== code || parsed.nationalNumber === digits) return digits;
  return parsed.isPossible() ? parsed.nationalNumber : digits;
}

/**
 * A phone number as the applicant typed or pasted it, made the payload's two parts:
 * an international number (`+44 7400 123456`, `0044 7400 123456`) sets the calling code and keeps
 * its national number; otherwise the chosen calling code stays and the number is cleaned
 * ({@link nationalNumber}). What cannot be read is returned trimmed, for the rule to name.
 * @param callingCode - the calling code chosen (`1`, `44`, `1-684`).
 * @param typed - the subscriber box's text.
 * @returns the calling code and the subscriber digits to send.
 */
export function phoneParts(callingCode: string, typed: string): Readonly<{ callingCode: string; subscriber: string }> {
  return remembered(`parts\u0000${callingCode}\u0000${typed}`, () => Object.freeze(readPhoneParts(callingCode, typed)));
}

function readPhoneParts(callingCode: string, typed: string): { callingCode: string; subscriber: string } {
  const trimmed = typed.trim();
  const international = internationalForm(trimmed);
  if (international && library && judges(international)) {
    const { parsePhoneNumberFromString } = library;
    const plans = metadata;
    const parsed = safely(() => parsePhoneNumberFromString(international, plans));
    if (parsed && isCallingCode(parsed.countryCallingCode)) {
      // A NANP number keeps the area code chosen when it is that area's (`1-684` and +1 684 …).
      const { code, area } = splitCallingCode(callingCode);
      const keep = code === parsed.countryCallingCode && (!area || parsed.nationalNumber.startsWith(area));
      return { callingCode: keep ? callingCode : parsed.countryCallingCode, subscriber: parsed.nationalNumber };
    }
  }
  if (international) return { callingCode, subscriber: trimmed };
  return { callingCode, subscriber: nationalNumber(callingCode, trimmed) };
}

/** The digits after the ITU code: a NANP area's 7-digit local number with its area code in front. */
function significantDigits(callingCode: string, subscriber: string): string {
  const { area } = splitCallingCode(callingCode);
  return area && subscriber.length === 7 ? `${area}${subscriber}` : subscriber;
}

/**
 * Whether a subscriber number is a phone number of its calling code: its length and leading digits
 * by that code's numbering plan (libphonenumber-js's `isValidPhoneNumber` with the `min` metadata;
 * ITU-T E.164 at most 15 digits in all), and for a NANP area's code (`1-684`) a number of that
 * area. `1`, 16 digits, a French mobile left under +1 (`0612345678`: NANP area codes never start
 * with 0) and `+44 0000000000` are not: 'Enter a valid phone number' (requirements §5). Until the library
 * and the calling code's metadata have loaded, 4–15 digits pass.
 */
export function isValidPhone(callingCode: string, subscriber: string): boolean {
  return remembered(`valid\u0000${callingCode}\u0000${subscriber}`, () => checkPhone(callingCode, subscriber));
}

function checkPhone(callingCode: string, subscriber: string): boolean {
  const { code, area } = splitCallingCode(callingCode);
  const digits = significantDigits(callingCode, subscriber);
  if (!/^\d+$/.test(digits) || code.length + digits.length > 15) return false;
  if (area && !digits.startsWith(area)) return false;
  const number = `+${code}${digits}`;
  if (!library || !judges(number)) return digits.length >= 4;
  const { isValidPhoneNumber } = library;
  const plans = metadata;
  return safely(() => isValidPhoneNumber(number, plans)) ?? false;
}

/**
 * The country (ISO 3166-1 alpha-2) a number belongs to, for the calling-code box to show the right
 * one of the countries that share a code: `44` with `7400123456` → `GB` (not Guernsey, the first
 * `+44` by name), `1` with `4165551234` → `CA`; with no number, or one the library cannot place,
 * the code's main country (`44` → `GB`, `7` → `RU`).
 * @returns undefined before the library and the code's metadata have loaded, or for a code it does not know.
 */
export function phoneCountry(callingCode: string, subscriber: string): string | undefined {
  const { code } = splitCallingCode(callingCode);
  const digits = significantDigits(callingCode, subscriber);
  if (!library || !judges(`+${code}${digits}`)) return undefined;
  const { parsePhoneNumberFromString } = library;
  const plans = metadata;
  const parsed = /^\d+$/.test(digits) ? safely(() => parsePhoneNumberFromString(`+${code}${digits}`, plans)) : undefined;
  return parsed?.country ?? plans.country_calling_codes[code]?.[0];
}

/**
 * The E.164 form (`+447400123456`) of a calling code and subscriber number; for NANP area codes
 * the 7- and the 10-digit forms give one number (`1-684` with `5551234` or `6845551234`:
 * `+16845551234`).
 * @returns undefined when either part is not digits.
 */
export function toE164(callingCode: string, subscriber: string): string | undefined {
  const { code } = splitCallingCode(callingCode);
  const digits = significantDigits(callingCode, subscriber);
  return /^\d+$/.test(code) && /^\d+$/.test(digits) ? `+${code}${digits}` : undefined;
}

/**
 * A stored payload's phone (`{ countryCode, subscriber }`) in E.164 ({@link toE164}); any shape.
 * @returns '' when there is no phone, or its parts are not digits.
 */
export function payloadPhoneE164(phone: unknown): string {
  if (typeof phone !== 'object' || phone === null) return '';
  const { countryCode, subscriber } = phone as Record<string, unknown>;
  if (typeof countryCode !== 'string' || typeof subscriber !== 'string' || subscriber === '') return '';
  return toE164(countryCode, subscriber) ?? '';
}
