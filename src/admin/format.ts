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

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
/** An ISO-8601 time in the reader's time zone: `Nov 22, 2026, 10:30 PM`. */
export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

const numbers = new Intl.NumberFormat('en');
/** Digits as a grouped number (`12000` → `12,000`); anything else as it is. */
export function formatCount(digits: string | undefined): string {
  return digits && /^\d+$/.test(digits) ? numbers.format(Number(digits)) : (digits ?? '');
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

/** A count as the reader's locale groups it (`12345` → `12,345`). */
export function formatNumber(count: number): string {
  return numbers.format(count);
}

const percent = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 });
/** A share (0–1) as a percent with at most one decimal: `0.4567` → `45.7%`. */
export function formatShare(share: number): string {
  return percent.format(share);
}
