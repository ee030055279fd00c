import type { ApplicationStatus } from '../shared/admin';
import { getCountries } from '../shared/data/countries';
import { PLATFORM_LABELS, type PlatformName } from '../shared/platforms';

/** Status names as the team reads them. */
export const STATUS_LABELS: Record<ApplicationStatus, string> = {
  new: 'New',
  shortlisted: 'Shortlisted',
  accepted: 'Accepted',
  declined: 'Declined',
};

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
/** An ISO-8601 time in the reader's time zone and locale (the browser's language): `Nov 22, 2026, 10:30 PM` in American English, `22.11.2026, 22:30` in German. */
export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

/** Numbers in the reader's locale (the browser's language): `12,000` in English, `12.000` in German, `12 000` in French. */
const numbers = new Intl.NumberFormat(undefined);
/** Digits as a number grouped in the reader's locale (`12000` → `12,000` in English); anything else as it is. */
export function formatCount(digits: string | undefined): string {
  return digits && /^\d+$/.test(digits) ? numbers.format(Number(digits)) : (digits ?? '');
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
/** The steps of {@link formatRelativeTime}: each unit's length in seconds, up to the next unit. */
const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Infinity],
];
/**
 * How long ago an ISO-8601 time was, in words (`just now`, `5 minutes ago`, `yesterday`,
 * `3 weeks ago`); a time in the future (a clock ahead) reads as `now`.
 * @param nowMs - the time now in ms (default `Date.now()`).
 */
export function formatRelativeTime(iso: string, nowMs: number = Date.now()): string {
  let amount = Math.max(0, (nowMs - Date.parse(iso)) / 1000);
  if (amount < 45) return 'just now';
  for (const [unit, size] of RELATIVE_UNITS) {
    if (amount < size) return relative.format(-Math.round(amount), unit);
    amount /= size;
  }
  return formatDateTime(iso);
}

/** A platform's display name. */
export function platformLabel(platform: PlatformName): string {
  return PLATFORM_LABELS[platform];
}

let countryNames: Map<string, string> | undefined;
/** A country's English name from its ISO 3166-1 alpha-2 code (the shared country list; the code when unknown). */
export function countryName(isoAlpha2: string | undefined): string {
  if (!isoAlpha2) return '';
  countryNames ??= new Map(getCountries('en').map((country) => [country.isoAlpha2, country.name]));
  return countryNames.get(isoAlpha2) ?? isoAlpha2;
}

/** An answer as the detail shows it: a platform's followers (`platforms.<name>.followers`) grouped in the reader's locale, any other as it is. */
export function formatAnswer(key: string, value: string): string {
  return /^platforms\.[^.]+\.followers$/.test(key) ? formatCount(value) : value;
}

/** A count as the reader's locale groups it (`12345` → `12,345`). */
export function formatNumber(count: number): string {
  return numbers.format(count);
}

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });
/** A share (0–1) as a percent with at most one decimal, in the reader's locale: `0.4567` → `45.7%` in English, `45,7 %` in German. */
export function formatShare(share: number): string {
  return percent.format(share);
}
