import { callingCodes, countryCodes, getSubdivisions } from '../data/countries';
import type { MessageKey, Messages } from '../messages';
import { DEFAULT_CALLING_CODE, MAX_DIGITS_LENGTH, MAX_EMAIL_LENGTH, MAX_TEXT_LENGTH, MAX_ZIP_LENGTH } from '../rules';
import { z } from '../schema-parts';
import type { BlockDefinition, PageField, Rule, ValidationTarget } from './block';

/**
 * The personal info block (requirements §2, §3): names, e-mail, phone with its calling code, country, the
 * state or province of the US and Canada, address and company, in the order the configuration
 * lists them, each at `personalInfo.{field}`.
 */

/** The personalInfo fields a personal-info block can ask for (requirements §3). */
export const PERSONAL_INFO_FIELDS = [
  'firstName',
  'lastName',
  'phone',
  'emailAddress',
  'countryCode',
  'provinceCode',
  'addressFirstLine',
  'addressSecondLine',
  'city',
  'zip',
  'company',
] as const;
export type PersonalInfoField = (typeof PERSONAL_INFO_FIELDS)[number];

/** The personal info block: the listed fields, in order. Labels default to `messages`. */
export const PersonalInfoBlockSchema = z.strictObject({
  component: z.literal('personalInfo'),
  data: z.strictObject({
    fields: z.array(z.enum(PERSONAL_INFO_FIELDS)).check(z.minLength(1)),
    labels: z.optional(z.partialRecord(z.enum(PERSONAL_INFO_FIELDS), z.string())),
    placeholders: z.optional(z.partialRecord(z.enum(PERSONAL_INFO_FIELDS), z.string())),
  }),
});
type PersonalInfoBlock = z.infer<typeof PersonalInfoBlockSchema>;

/** The form-value (and payload) path of a personal-info field: `personalInfo.emailAddress`. */
export function personalInfoPath(field: PersonalInfoField): `personalInfo.${PersonalInfoField}` {
  return `personalInfo.${field}`;
}

/** The chosen country (ISO 3166-1 alpha-2); the province list and the html blocks' neighbours read it. */
export const COUNTRY_PATH = personalInfoPath('countryCode');
/** The state or province (ISO 3166-2 without its country prefix). */
export const PROVINCE_PATH = personalInfoPath('provinceCode');
/** The e-mail address; html blocks show it as `{email}` (requirements §2). */
export const EMAIL_PATH = personalInfoPath('emailAddress');
/** The phone, `{ countryCode, subscriber }` in the payload; one inbox column, in E.164. */
export const PHONE_PATH = personalInfoPath('phone');
/** The phone's calling code (`44`, `1-684`), requirements §3. */
export const PHONE_CALLING_CODE_PATH = `${PHONE_PATH}.countryCode`;
/** The phone's subscriber number, digits only (requirements §3). */
export const PHONE_SUBSCRIBER_PATH = `${PHONE_PATH}.subscriber`;

/** Country codes whose subdivisions the province field lists (requirements §3 Lists). */
export const COUNTRIES_WITH_PROVINCES = ['US', 'CA'];

/**
 * Every state and province the province field can list, with its country (ISO 3166-1 alpha-2)
 * and its code within the country (ISO 3166-2 without the country: `CA` for `US-CA`).
 */
export function listedSubdivisions(): { country: string; code: string }[] {
  return COUNTRIES_WITH_PROVINCES.flatMap((country) => (getSubdivisions(country) ?? []).map(({ code }) => ({ country, code })));
}

const RULES: Record<Exclude<PersonalInfoField, 'phone'>, Rule[]> = {
  firstName: [{ name: 'notBlank' }, { name: 'maxLength', value: MAX_TEXT_LENGTH }],
  lastName: [{ name: 'notBlank' }, { name: 'maxLength', value: MAX_TEXT_LENGTH }],
  emailAddress: [{ name: 'email' }, { name: 'maxLength', value: MAX_EMAIL_LENGTH }],
  countryCode: [{ name: 'country' }],
  provinceCode: [{ name: 'subdivision', with: COUNTRY_PATH }],
  addressFirstLine: [{ name: 'notBlank' }, { name: 'maxLength', value: MAX_TEXT_LENGTH }],
  addressSecondLine: [{ name: 'maxLength', value: MAX_TEXT_LENGTH }],
  city: [{ name: 'notBlank' }, { name: 'maxLength', value: MAX_TEXT_LENGTH }],
  zip: [{ name: 'zip' }, { name: 'maxLength', value: MAX_ZIP_LENGTH }],
  company: [{ name: 'maxLength', value: MAX_TEXT_LENGTH }],
};

const PHONE_TARGETS: ValidationTarget[] = [
  {
    path: PHONE_CALLING_CODE_PATH,
    // `with`: the number, whose pasted international form may bring its own calling code.
    rules: [
      { name: 'requiredWith', with: PHONE_SUBSCRIBER_PATH },
      { name: 'callingCode', with: PHONE_SUBSCRIBER_PATH },
    ],
  },
  {
    path: PHONE_SUBSCRIBER_PATH,
    rules: [
      // The calling code starts at 1 (requirements §9) and follows the country (requirements §4): only
      // one the applicant picked, neither of those, asks for a number.
      { name: 'requiredWith', with: PHONE_CALLING_CODE_PATH, unlessWith: DEFAULT_CALLING_CODE, unlessCallingCodeOf: COUNTRY_PATH },
      // Possible for its calling code (libphonenumber-js; phone.ts), judged as it will be sent.
      { name: 'digits', message: 'phone' },
      { name: 'phone', with: PHONE_CALLING_CODE_PATH },
      { name: 'maxLength', value: MAX_DIGITS_LENGTH, message: 'phone' },
    ],
  },
];

/** The message key of a field's default label (`firstNameLabel`; the phone's is its number's). */
function labelKey(field: PersonalInfoField): MessageKey {
  return field === 'phone' ? 'phoneSubscriberLabel' : `${field}Label`;
}

/** A field's label: the block's own, or the page's `messages` default (`firstNameLabel`). */
export function personalInfoLabel(block: PersonalInfoBlock, field: PersonalInfoField, messages: Messages): string {
  return block.data.labels?.[field] ?? messages[labelKey(field)];
}

/** The personal info block's definition (see {@link BlockDefinition}). */
export const personalInfo: BlockDefinition<PersonalInfoBlock> = {
  fields: (block) =>
    block.data.fields.flatMap((field): [string, PageField][] => {
      if (field === 'phone') {
        return [
          [PHONE_CALLING_CODE_PATH, { kind: 'choice', options: callingCodes() }],
          [PHONE_SUBSCRIBER_PATH, { kind: 'phone' }],
        ];
      }
      if (field === 'countryCode') return [[COUNTRY_PATH, { kind: 'choice', options: countryCodes() }]];
      if (field === 'provinceCode') {
        return [[PROVINCE_PATH, { kind: 'choice', options: listedSubdivisions().map(({ code }) => code) }]];
      }
      return [[personalInfoPath(field), { kind: 'text' }]];
    }),
  targets: (block) =>
    block.data.fields.flatMap((field): ValidationTarget[] => {
      if (field === 'phone') return PHONE_TARGETS.map((target) => ({ ...target, rules: [...target.rules] }));
      const target: ValidationTarget = { path: personalInfoPath(field), rules: [...RULES[field]] };
      if (field === 'provinceCode') target.condition = { path: COUNTRY_PATH, oneOf: COUNTRIES_WITH_PROVINCES };
      return [target];
    }),
  initialValues: (block) =>
    block.data.fields.flatMap((field): [string, unknown][] =>
      field === 'phone'
        ? [
            [PHONE_CALLING_CODE_PATH, DEFAULT_CALLING_CODE],
            [PHONE_SUBSCRIBER_PATH, ''],
          ]
        : [[personalInfoPath(field), '']],
    ),
  // The phone is one column (its E.164 form), at its payload key PHONE_PATH.
  answers: (block, messages) => block.data.fields.map((field) => ({ key: personalInfoPath(field), label: personalInfoLabel(block, field, messages) })),
  reads: [COUNTRY_PATH],
  // The phone number's parts show together, and the province follows the country.
  shownUnconditionally: () => [PHONE_CALLING_CODE_PATH, PHONE_SUBSCRIBER_PATH, COUNTRY_PATH],
  htmlData: [],
  group: 'personalInfo',
  check: (block, at, problem, page) => {
    if (!block.data.fields.includes('provinceCode')) return;
    // A province without a country to choose: it shows only for the US and Canada, so never.
    if (!page.fields.has(COUNTRY_PATH)) {
      problem(
        `${at}.data.fields`,
        'provinceCode is asked without countryCode, so it never shows (it lists the states of the country chosen)',
        'ask for "countryCode" too, before it',
      );
    }
    // A required province that can never be filled: shown for a country that has no provinces.
    const province = page.targets.find((target) => target.path === PROVINCE_PATH);
    if (!province || !(province.conditional || province.rules.some((rule) => rule.name === 'required'))) return;
    const condition = province.condition;
    const countries = condition?.path === COUNTRY_PATH ? [...(condition.equals !== undefined ? [condition.equals] : []), ...(condition.oneOf ?? [])] : [];
    const always = !condition || condition.path !== COUNTRY_PATH || countries.length === 0;
    if (always || countries.some((country) => !COUNTRIES_WITH_PROVINCES.includes(String(country)))) {
      const index = page.formItemIndex(PROVINCE_PATH);
      problem(
        index >= 0 ? `formItems[${index}]` : 'formItems',
        'the province is required for countries that have no provinces to choose, so their applicants could never continue',
        `show it only for ${COUNTRIES_WITH_PROVINCES.join(' and ')}: "showOnCondition": { "path": "${COUNTRY_PATH}", "oneOf": ${JSON.stringify(COUNTRIES_WITH_PROVINCES)} }`,
      );
    }
  },
};
