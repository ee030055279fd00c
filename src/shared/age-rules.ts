import { EARLIEST_BIRTH_YEAR } from './age-limits';

/**
 * The age screen's rules (requirements §20; the schemas are in src/shared/age.ts): the ages of
 * digital consent by country and the arithmetic of an age from a month of birth, without the
 * configuration's schema, so the wizard's engine and the server read the same functions.
 */

/** What the rules read of a page's `ageScreen` (its schema: `AgeScreenSchema` in src/shared/age.ts). */
export interface AgeScreenRules {
  minimumAge: number | 'byCountry';
  adultAge: number;
  minors: 'refuse' | 'guardian';
  endedHtml?: string | undefined;
  minorsHtml?: string | undefined;
}

/** What the rules read of an answer (`AgeAnswerSchema` in src/shared/age.ts): `YYYY-MM`, and the country where asked. */
export interface AgeAnswerRules {
  birthMonth: string;
  countryCode?: string | undefined;
}

/**
 * The age of digital consent (GDPR Article 8(1): 16, or lower by national law, not under 13) by
 * ISO 3166-1 alpha-2 code, as the EU/EEA states and the United Kingdom set it. Source: each
 * state's GDPR implementing act, as collected by the European Commission's Better Internet for
 * Kids "age of digital consent" map (2024) and the UK Data Protection Act 2018 s.9; the United
 * States is 13 (COPPA, 15 U.S.C. §6501(1)). A country not listed takes the GDPR's own 16
 * ({@link DEFAULT_DIGITAL_CONSENT_AGE}): the strictest, where no lower age is known to apply.
 */
export const DIGITAL_CONSENT_AGES: Readonly<Record<string, number>> = {
  AT: 14,
  BE: 13,
  BG: 14,
  CY: 14,
  CZ: 15,
  DE: 16,
  DK: 13,
  EE: 13,
  ES: 14,
  FI: 13,
  FR: 15,
  GB: 13,
  GR: 15,
  HR: 16,
  HU: 16,
  IE: 16,
  IS: 13,
  IT: 14,
  LI: 16,
  LT: 14,
  LU: 16,
  LV: 13,
  MT: 13,
  NL: 16,
  NO: 13,
  PL: 16,
  PT: 13,
  RO: 16,
  SE: 13,
  SI: 15,
  SK: 16,
  US: 13,
};
/** The age of digital consent of a country {@link DIGITAL_CONSENT_AGES} does not list: GDPR Article 8(1)'s 16. */
export const DEFAULT_DIGITAL_CONSENT_AGE = 16;

/** `YYYY-MM`: a month of birth as the payload carries it (ISO 8601 calendar month). */
export const BIRTH_MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** A calendar date's parts. */
interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** The calendar date at `ms` in the time zone `offsetHours` from UTC. */
function dateAt(ms: number, offsetHours: number): CalendarDate {
  const date = new Date(ms + offsetHours * 3_600_000);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** The number of days of `month` (1–12) of `year`. */
function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The year and month of a `YYYY-MM` text, or undefined. */
export function parseBirthMonth(text: string): { year: number; month: number } | undefined {
  const match = BIRTH_MONTH_PATTERN.exec(text);
  return match ? { year: Number(match[1]), month: Number(match[2]) } : undefined;
}

/**
 * The age in whole years of a person born in `birthMonth` (`YYYY-MM`) at the instant `nowMs` (ms
 * since the epoch), taken as the youngest they can be: born on the last day of that month, and
 * today the earliest date anywhere on Earth (UTC−12). So a screen never takes a person for older
 * than they are, whichever day of the month they were born and wherever they are; the wizard and
 * the server, on different clocks and time zones, reach the same age but within a few seconds of
 * a boundary. Independent of the process's time zone.
 * @returns the age, or undefined when `birthMonth` is not `YYYY-MM`.
 */
export function youngestAge(birthMonth: string, nowMs: number): number | undefined {
  const birth = parseBirthMonth(birthMonth);
  if (!birth) return undefined;
  const today = dateAt(nowMs, -12);
  const birthday = daysIn(birth.year, birth.month);
  const before = today.month < birth.month || (today.month === birth.month && today.day < birthday);
  return today.year - birth.year - (before ? 1 : 0);
}

/**
 * Why a month of birth cannot be taken, as a message key: `birthYearInvalid` for no month of a
 * four-digit year, `birthYearTooEarly` for a year before {@link EARLIEST_BIRTH_YEAR}, `birthMonthFuture` for a month after the latest one anywhere on
 * Earth at `nowMs` (UTC+14); undefined when it can be.
 */
export function birthMonthProblem(birthMonth: string, nowMs: number): 'birthYearInvalid' | 'birthYearTooEarly' | 'birthMonthFuture' | undefined {
  const birth = parseBirthMonth(birthMonth);
  if (!birth) return 'birthYearInvalid';
  if (birth.year < EARLIEST_BIRTH_YEAR) return 'birthYearTooEarly';
  const latest = dateAt(nowMs, 14);
  if (birth.year > latest.year || (birth.year === latest.year && birth.month > latest.month)) return 'birthMonthFuture';
  return undefined;
}

/** The minimum age of a page's screen for an applicant in `countryCode` (ISO 3166-1 alpha-2). */
export function minimumAgeFor(screen: Pick<AgeScreenRules, 'minimumAge'>, countryCode: string | undefined): number {
  if (screen.minimumAge !== 'byCountry') return screen.minimumAge;
  return (countryCode && DIGITAL_CONSENT_AGES[countryCode]) || DEFAULT_DIGITAL_CONSENT_AGE;
}

/**
 * What the screen makes of an answer at `nowMs`: `under` (under the minimum: the wizard ends, nothing
 * is sent), `minor` (from the minimum to under the adult age), `adult`. The answer must be one
 * {@link birthMonthProblem} takes.
 */
export type AgeVerdict = 'under' | 'minor' | 'adult';

/** The {@link AgeVerdict} of `answer` on a page's screen at `nowMs` (ms since the epoch). */
export function ageVerdict(screen: AgeScreenRules, answer: AgeAnswerRules, nowMs: number): AgeVerdict {
  const years = youngestAge(answer.birthMonth, nowMs) ?? 0;
  if (years < minimumAgeFor(screen, answer.countryCode)) return 'under';
  return years < screen.adultAge ? 'minor' : 'adult';
}

/** Whether the screen ends the wizard for this verdict on this page: under the minimum, or a minor where minors are refused. */
export function endsScreen(screen: AgeScreenRules, verdict: AgeVerdict): boolean {
  return verdict === 'under' || (verdict === 'minor' && screen.minors === 'refuse');
}

/**
 * The page's own HTML the screen ends with for a verdict (`minorsHtml` for a minor, else
 * `endedHtml`); undefined when the page has none: the screen then says the `ageEnded` message, as text.
 */
export function endedHtml(screen: AgeScreenRules, verdict: AgeVerdict): string | undefined {
  return verdict === 'minor' ? (screen.minorsHtml ?? screen.endedHtml) : screen.endedHtml;
}
