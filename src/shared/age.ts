import { configHtml } from './schema-parts';
import { isEmail, isNotBlank, MAX_EMAIL_LENGTH, MAX_TEXT_LENGTH } from './rules';
import { DEFAULT_MESSAGES } from './messages';
import { z } from './zod';

/**
 * The neutral age screen (requirements §20, docs/privacy.md "Children and the age screen"): a page
 * may ask for the month and year of birth before anything about the person, typed freely, and
 * work out the age from the answer and the date. The rules followed, cited where they apply:
 * - the FTC's COPPA Rule (16 CFR Part 312) and its FAQ, section G ("age screens"): the screen is
 *   neutral (free entry of the month and year, no year pre-filled, no list starting at an allowed
 *   age, no "I am over 13" box, no word of the cut-off before the answer), and an applicant it
 *   turned away cannot go back and change the answer (here: on the same browser for 24 hours);
 * - GDPR Article 8: the age of digital consent each EU/EEA country set, 13 to 16
 *   ({@link DIGITAL_CONSENT_AGES}), for a page whose minimum is "by country";
 * - GDPR Article 5(1)(c), data minimisation: under the minimum, nothing about the person is sent
 *   or stored, only an anonymous count in the funnel.
 * One module, read by the wizard (the screen, the verdict it shows), the server (the same verdict,
 * from its own clock: it never trusts the wizard's), the builder and the inbox.
 */

/** The lowest minimum age a page may set: 13 (COPPA's "child" is under 13). */
export const LOWEST_MINIMUM_AGE = 13;
/** The highest minimum or adult age a page may set. */
export const HIGHEST_AGE = 21;
/** The adult age by default: 18. */
export const DEFAULT_ADULT_AGE = 18;
/** How long an answer under the minimum keeps ending the screen on the same browser, in ms: 24 hours. */
export const AGE_SCREEN_LOCK_MS = 24 * 60 * 60 * 1000;
/** How long a minor's application waits for a parent's or guardian's answer, in ms: 7 days; then it is erased. */
export const GUARDIAN_WAIT_MS = 7 * 24 * 60 * 60 * 1000;
/** The earliest year of birth taken. */
export const EARLIEST_BIRTH_YEAR = 1900;

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

const age = (what: string) =>
  z
    .number()
    .check(
      z.int(`Enter the ${what} as a whole number of years`),
      z.minimum(LOWEST_MINIMUM_AGE, `The ${what} is at least ${LOWEST_MINIMUM_AGE}`),
      z.maximum(HIGHEST_AGE, `The ${what} is at most ${HIGHEST_AGE}`),
    );

/**
 * A page's `ageScreen` (absent: no age screen, the flow of requirements §4):
 * - `minimumAge`: under it the screen ends the wizard (a number of years, 13 to 21, or
 *   `"byCountry"`: the {@link DIGITAL_CONSENT_AGES} age of the country the applicant names on the
 *   screen);
 * - `adultAge` (18): from the minimum to under this age an applicant is a minor;
 * - `minors`: `"refuse"` (the default) ends the wizard for a minor with `minorsHtml`, `"guardian"`
 *   asks a parent's or guardian's name and e-mail address (requirements §20);
 * - `endedHtml`: what the screen says under the minimum (default: the `ageEnded` message);
 * - `minorsHtml`: what it says to a minor refused (default: `endedHtml`).
 */
export const AgeScreenSchema = z.strictObject({
  minimumAge: z.union([age('minimum age'), z.literal('byCountry')]),
  adultAge: z._default(age('adult age'), DEFAULT_ADULT_AGE),
  minors: z._default(z.enum(['refuse', 'guardian']), 'refuse'),
  endedHtml: z.optional(configHtml),
  minorsHtml: z.optional(configHtml),
});
export type AgeScreen = z.output<typeof AgeScreenSchema>;

/** `YYYY-MM`: a month of birth as the payload carries it (ISO 8601 calendar month). */
export const BIRTH_MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

/**
 * `age` in the payload of a page with an age screen: the month of birth, and the country the
 * applicant lives in when the minimum is by country (ISO 3166-1 alpha-2).
 */
export const AgeAnswerSchema = z.strictObject({
  birthMonth: z.string().check(z.regex(BIRTH_MONTH_PATTERN, DEFAULT_MESSAGES.birthYearInvalid)),
  countryCode: z.optional(z.string().check(z.regex(/^[A-Z]{2}$/, DEFAULT_MESSAGES.option))),
});
export type AgeAnswer = z.output<typeof AgeAnswerSchema>;

/** `guardian` in the payload of a minor's application on a page that asks for a guardian (requirements §20). */
export const GuardianSchema = z.strictObject({
  name: z.string().check(z.maxLength(MAX_TEXT_LENGTH, DEFAULT_MESSAGES.invalid), z.refine(isNotBlank, DEFAULT_MESSAGES.required)),
  emailAddress: z.string().check(z.maxLength(MAX_EMAIL_LENGTH, DEFAULT_MESSAGES.email), z.refine(isEmail, DEFAULT_MESSAGES.email)),
});
export type Guardian = z.output<typeof GuardianSchema>;

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
 * Why a month of birth cannot be taken, as a message key: `birthYearInvalid` for a year before
 * {@link EARLIEST_BIRTH_YEAR}, `birthMonthFuture` for a month after the latest one anywhere on
 * Earth at `nowMs` (UTC+14); undefined when it can be.
 */
export function birthMonthProblem(birthMonth: string, nowMs: number): 'birthYearInvalid' | 'birthMonthFuture' | undefined {
  const birth = parseBirthMonth(birthMonth);
  if (!birth || birth.year < EARLIEST_BIRTH_YEAR) return 'birthYearInvalid';
  const latest = dateAt(nowMs, 14);
  if (birth.year > latest.year || (birth.year === latest.year && birth.month > latest.month)) return 'birthMonthFuture';
  return undefined;
}

/** The minimum age of a page's screen for an applicant in `countryCode` (ISO 3166-1 alpha-2). */
export function minimumAgeFor(screen: Pick<AgeScreen, 'minimumAge'>, countryCode: string | undefined): number {
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
export function ageVerdict(screen: AgeScreen, answer: AgeAnswer, nowMs: number): AgeVerdict {
  const years = youngestAge(answer.birthMonth, nowMs) ?? 0;
  if (years < minimumAgeFor(screen, answer.countryCode)) return 'under';
  return years < screen.adultAge ? 'minor' : 'adult';
}

/** Whether the screen ends the wizard for this verdict on this page: under the minimum, or a minor where minors are refused. */
export function endsScreen(screen: AgeScreen, verdict: AgeVerdict): boolean {
  return verdict === 'under' || (verdict === 'minor' && screen.minors === 'refuse');
}

/**
 * The page's own HTML the screen ends with for a verdict (`minorsHtml` for a minor, else
 * `endedHtml`); undefined when the page has none: the screen then says the `ageEnded` message, as text.
 */
export function endedHtml(screen: AgeScreen, verdict: AgeVerdict): string | undefined {
  return verdict === 'minor' ? (screen.minorsHtml ?? screen.endedHtml) : screen.endedHtml;
}
