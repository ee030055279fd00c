import { z } from './zod';
import { DEFAULT_MESSAGES, formatMessage } from './messages';
import { AgeAnswerSchema, GuardianSchema } from './age';
import { CONSENT_PURPOSE_PATTERN } from './blocks/consent';
import type { PersonalInfoField } from './blocks/personal-info';
import { PAYLOAD_PLATFORM_NAMES } from './platforms';
import {
  CALLING_CODE_PATTERN,
  DIGITS_PATTERN,
  ISO_ALPHA2_PATTERN,
  MAX_DIGITS_LENGTH,
  MAX_EMAIL_LENGTH,
  MAX_FIELD_COUNT,
  MAX_FIELD_KEY_LENGTH,
  MAX_HANDLE_LENGTH,
  MAX_LONG_TEXT_LENGTH,
  MAX_TEXT_LENGTH,
  MAX_URL_LENGTH,
  MAX_ZIP_LENGTH,
  SUBDIVISION_PATTERN,
  ZIP_PATTERN,
  isEmail,
  isHandle,
  isNotBlank,
  isPlainLongText,
  isPlainText,
  isWebsiteUrl,
} from './rules';

/**
 * The application payload the wizard PUTs and the server stores (requirements §3,
 * requirements §15), with the field rules of requirements §5 and the same messages the wizard
 * shows. Unknown keys are refused, so nothing unexpected is stored.
 */

const m = DEFAULT_MESSAGES;
const maxLength = (max: number) => z.maxLength(max, formatMessage(m.maxLength, { max }));
/** A single-line string: no control characters, lone surrogates or noncharacters. */
const plain = () => z.string().check(z.refine(isPlainText, m.plainText));
const text = (max: number) => plain().check(maxLength(max));
/** Long text (survey answers): tab and line breaks allowed. */
const longText = (max: number) => z.string().check(z.refine(isPlainLongText, m.plainText), maxLength(max));
const requiredText = (max: number) => text(max).check(z.refine(isNotBlank, m.required));
const digits = (message: string) => z.string().check(z.regex(DIGITS_PATTERN, message), z.maxLength(MAX_DIGITS_LENGTH, message));

/** `personalInfo.phone`: calling code and subscriber number, both present. */
export const PhoneSchema = z.strictObject({
  countryCode: z.string().check(z.regex(CALLING_CODE_PATTERN, m.option)),
  subscriber: digits(m.phone),
});

/**
 * `personalInfo` (requirements §3): first name, last name and e-mail are required (requirements §5). One key per
 * field of the personal info block (`PERSONAL_INFO_FIELDS`, src/shared/blocks/personal-info.ts):
 * the compiler holds the two lists equal.
 */
export const PersonalInfoSchema = z.strictObject({
  firstName: requiredText(MAX_TEXT_LENGTH),
  lastName: requiredText(MAX_TEXT_LENGTH),
  emailAddress: plain().check(z.maxLength(MAX_EMAIL_LENGTH, m.email), z.refine(isEmail, m.email)),
  phone: z.optional(PhoneSchema),
  countryCode: z.optional(z.string().check(z.regex(ISO_ALPHA2_PATTERN, m.option))),
  provinceCode: z.optional(z.string().check(z.regex(SUBDIVISION_PATTERN, m.option))),
  addressFirstLine: z.optional(requiredText(MAX_TEXT_LENGTH)),
  addressSecondLine: z.optional(text(MAX_TEXT_LENGTH)),
  city: z.optional(requiredText(MAX_TEXT_LENGTH)),
  zip: z.optional(z.string().check(z.maxLength(MAX_ZIP_LENGTH, m.zip), z.regex(ZIP_PATTERN, m.zip))),
  company: z.optional(text(MAX_TEXT_LENGTH)),
} satisfies Record<PersonalInfoField, z.ZodMiniType>);

/** A social platform: a handle (not a URL, no white space) and digits-only followers. */
export const SocialPlatformSchema = z.strictObject({
  handle: plain().check(z.minLength(1, m.required), z.maxLength(MAX_HANDLE_LENGTH, m.handle), z.refine(isHandle, m.handle)),
  followers: z.optional(digits(m.followers)),
});

/** The website "platform": a URL and digits-only monthly traffic. */
export const WebsitePlatformSchema = z.strictObject({
  url: plain().check(z.maxLength(MAX_URL_LENGTH, m.url), z.refine(isWebsiteUrl, m.url)),
  monthlyTraffic: z.optional(digits(m.digits)),
});

const platformShape = Object.fromEntries(
  PAYLOAD_PLATFORM_NAMES.map((name) => [name, z.optional(name === 'website' ? WebsitePlatformSchema : SocialPlatformSchema)]),
) as Record<Exclude<(typeof PAYLOAD_PLATFORM_NAMES)[number], 'website'>, z.ZodMiniOptional<typeof SocialPlatformSchema>> & {
  website: z.ZodMiniOptional<typeof WebsitePlatformSchema>;
};

/** `platforms`, keyed by platform name (LinkedIn, Threads and Reddit travel in `fields`). */
export const PlatformsSchema = z.strictObject(platformShape);

/** `fields`: survey answers flattened to dotted keys and string values (requirements §7). */
export const FieldsSchema = z
  .record(
    z.string().check(z.minLength(1), z.maxLength(MAX_FIELD_KEY_LENGTH), z.regex(/^[A-Za-z0-9_.-]+$/, 'Use a dotted key name')),
    longText(MAX_LONG_TEXT_LENGTH),
  )
  .check(z.refine((fields) => Object.keys(fields).length <= MAX_FIELD_COUNT, `At most ${MAX_FIELD_COUNT} answers`));

/** The whole payload of `PUT /api/syncPage/{pageId}` (requirements §15). */
export const ApplicationPayloadSchema = z.strictObject({
  personalInfo: PersonalInfoSchema,
  platforms: z._default(PlatformsSchema, {}),
  fields: z._default(FieldsSchema, {}),
  /** The page's consents by purpose, given (`true`) or not (requirements §21). */
  consents: z.optional(
    z
      .record(z.string().check(z.regex(CONSENT_PURPOSE_PATTERN, DEFAULT_MESSAGES.notAsked)), z.boolean())
      .check(z.refine((consents) => Object.keys(consents).length <= MAX_FIELD_COUNT, `At most ${MAX_FIELD_COUNT} answers`)),
  ),
  /** The age screen's answer, on a page with one (requirements §20). */
  age: z.optional(AgeAnswerSchema),
  /** A minor's parent or guardian, on a page that asks for one (requirements §20). */
  guardian: z.optional(GuardianSchema),
  /**
   * The honeypot (docs/decisions/032): a field no person sees, sent only when something filled it;
   * then the application is refused (400 at `honeypot`) and never stored.
   */
  honeypot: z.optional(z.string().check(z.maxLength(0))),
});

/** The payload as sent. */
export type ApplicationPayload = z.input<typeof ApplicationPayloadSchema>;

/** One field error of a problem-details answer (requirements §13). */
export interface FieldError {
  /** Dotted path such as `personalInfo.emailAddress`. */
  path: string;
  message: string;
}

/**
 * Validates a payload.
 * @returns `{ payload }` (defaults applied) or `{ errors }` with dotted field paths.
 */
export function parseApplicationPayload(
  input: unknown,
): { payload: z.output<typeof ApplicationPayloadSchema>; errors?: never } | { payload?: never; errors: FieldError[] } {
  const result = ApplicationPayloadSchema.safeParse(input);
  if (result.success) return { payload: result.data };
  return {
    errors: result.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.') || '(body)',
      message: issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : issue.message,
    })),
  };
}
