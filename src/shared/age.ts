import { configHtml } from './schema-parts';
import { isEmail, isNotBlank, isPlainText, MAX_EMAIL_LENGTH, MAX_TEXT_LENGTH } from './rules';
import { DEFAULT_MESSAGES } from './messages';
import { z } from './zod';
import { DEFAULT_ADULT_AGE, HIGHEST_AGE, LOWEST_MINIMUM_AGE } from './age-limits';
import { BIRTH_MONTH_PATTERN } from './age-rules';

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

export * from './age-rules';
export { AGE_SCREEN_LOCK_MS, DEFAULT_ADULT_AGE, EARLIEST_BIRTH_YEAR, GUARDIAN_WAIT_MS, HIGHEST_AGE, LOWEST_MINIMUM_AGE } from './age-limits';

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
  name: z
    .string()
    .check(
      z.maxLength(MAX_TEXT_LENGTH, DEFAULT_MESSAGES.invalid),
      z.refine(isNotBlank, DEFAULT_MESSAGES.required),
      z.refine(isPlainText, DEFAULT_MESSAGES.plainText),
    ),
  emailAddress: z.string().check(z.maxLength(MAX_EMAIL_LENGTH, DEFAULT_MESSAGES.email), z.refine(isEmail, DEFAULT_MESSAGES.email)),
});
export type Guardian = z.output<typeof GuardianSchema>;
