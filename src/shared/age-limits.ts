/**
 * The age screen's numbers (requirements §20; src/shared/age.ts has the rules that use them), in a
 * module that imports nothing: the wizard's first script reads the 24-hour hold from here without
 * the configuration's schema.
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
/** Where the screen's answers are in a payload: the month of birth (`YYYY-MM`) and the country (ISO 3166-1 alpha-2) where the minimum is by country. */
export const AGE_BIRTH_MONTH_PATH = 'age.birthMonth';
export const AGE_COUNTRY_PATH = 'age.countryCode';
