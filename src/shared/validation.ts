import type { Block, Condition, ValidatorName, ValidatorSpec, WizardConfig } from './config';
import { conditionHolds } from './conditions';
import { getSubdivisions, isCallingCode, isCountryCode } from './data/countries';
import { formatMessage, type MessageKey, type Messages } from './messages';
import { getPath } from './paths';
import { isPossiblePhone, phoneParts } from './phone';
import { platformKeys, platformPath, usernameFits, type PlatformName } from './platforms';
import {
  DEFAULT_CALLING_CODE,
  MAX_DIGITS_LENGTH,
  MAX_EMAIL_LENGTH,
  MAX_HANDLE_LENGTH,
  MAX_LONG_TEXT_LENGTH,
  MAX_TEXT_LENGTH,
  isCount,
  isDigits,
  isEmail,
  isEmpty,
  isHandle,
  isNotBlank,
  isPlainLongText,
  isPlainText,
  isWebsiteUrl,
  isZip,
  normalizeCount,
} from './rules';

/**
 * Form validation from configuration (SPEC §4, §5): which paths each step asks
 * for, the rules each path carries (the block's own plus the configuration's
 * named validators), conditions, and the platform-filled rule. Pure functions,
 * used by the wizard's form resolver and by the tests.
 */

/** The virtual path of the platform-filled flag (SPEC §4); never part of the payload. */
export const PLATFORM_FILLED_PATH = 'platformFilled';

/** Country codes whose subdivisions the province field lists (SPEC §3 Lists). */
export const COUNTRIES_WITH_PROVINCES = ['US', 'CA'];

/**
 * One rule on one path: a named validator of the configuration, "required when `with` is filled",
 * or a membership rule a block brings by itself (issue 13): `oneOf` (the configured options; for a
 * list, each element), `country` (ISO 3166-1 alpha-2), `callingCode` (an E.164 calling code of the
 * country table), `subdivision` (a state or province of the country at `with`) and `count` (digits
 * once grouping separators are removed: {@link normalizeCount}) and `phone` (a subscriber number
 * possible for the calling code at `with`: {@link isPossiblePhone}).
 */
export interface Rule {
  name: ValidatorName | 'requiredWith' | 'oneOf' | 'country' | 'callingCode' | 'subdivision' | 'count' | 'phone';
  /** Argument (maxLength). */
  value?: number;
  /** For `handle` on a platform row: the platform whose published user-name rule applies too. */
  platform?: PlatformName;
  /** For `oneOf`: the values allowed. */
  options?: readonly unknown[];
  /** For `requiredWith`: the other path; for `subdivision`: the country's path. */
  with?: string;
  /** For `requiredWith`: a value of the other path that does not count as filled (a default). */
  unlessWith?: string;
  /** Message key used instead of the validator's own. */
  message?: MessageKey;
}

/** A path the form validates, with its rules and condition. */
export interface ValidationTarget {
  path: string;
  rules: Rule[];
  /** While false, the item is hidden or disabled: not validated and not sent. */
  condition?: Condition;
  /** Set when the condition comes from configuration: the item is then required while it holds (SPEC §5). */
  conditional?: boolean;
  /** A yes/no answer: `false` ('No') is an answer, so `required` holds for it (a checkbox's `false` is not). */
  yesNo?: true;
  /** For the platform-filled flag: the platforms it checks and which are required. */
  platforms?: { name: PlatformName; required: boolean }[];
}

const PERSONAL_INFO_RULES: Record<string, Rule[]> = {
  firstName: [{ name: 'notBlank' }, { name: 'maxLength', value: MAX_TEXT_LENGTH }],
  lastName: [{ name: 'notBlank' }, { name: 'maxLength', value: MAX_TEXT_LENGTH }],
  emailAddress: [{ name: 'email' }, { name: 'maxLength', value: MAX_EMAIL_LENGTH }],
  countryCode: [{ name: 'country' }],
  provinceCode: [{ name: 'subdivision', with: 'personalInfo.countryCode' }],
  addressFirstLine: [{ name: 'notBlank' }, { name: 'maxLength', value: MAX_TEXT_LENGTH }],
  addressSecondLine: [{ name: 'maxLength', value: MAX_TEXT_LENGTH }],
  city: [{ name: 'notBlank' }, { name: 'maxLength', value: MAX_TEXT_LENGTH }],
  zip: [{ name: 'zip' }, { name: 'maxLength', value: 20 }],
  company: [{ name: 'maxLength', value: MAX_TEXT_LENGTH }],
};

/** A yes/no answer or a checkbox holds a boolean (the payload's 'Yes' / 'No', SPEC §7). */
const YES_OR_NO: Rule = { name: 'oneOf', options: [true, false] };

/** The paths a block asks for and the rules it brings by itself. */
export function blockTargets(block: Block): ValidationTarget[] {
  switch (block.component) {
    case 'personalInfo':
      return block.data.fields.flatMap((field): ValidationTarget[] => {
        if (field === 'phone') {
          return [
            {
              path: 'personalInfo.phone.countryCode',
              // `with`: the number, whose pasted international form may bring its own calling code.
              rules: [{ name: 'requiredWith', with: 'personalInfo.phone.subscriber' }, { name: 'callingCode', with: 'personalInfo.phone.subscriber' }],
            },
            {
              path: 'personalInfo.phone.subscriber',
              rules: [
                // The calling code starts at 1 (SPEC §9): only one the applicant picked asks for a number.
                { name: 'requiredWith', with: 'personalInfo.phone.countryCode', unlessWith: DEFAULT_CALLING_CODE },
                // Possible for its calling code (libphonenumber-js; phone.ts), judged as it will be sent.
                { name: 'digits', message: 'phone' },
                { name: 'phone', with: 'personalInfo.phone.countryCode' },
                { name: 'maxLength', value: MAX_DIGITS_LENGTH, message: 'phone' },
              ],
            },
          ];
        }
        const target: ValidationTarget = { path: `personalInfo.${field}`, rules: PERSONAL_INFO_RULES[field] ?? [] };
        if (field === 'provinceCode') {
          target.condition = { path: 'personalInfo.countryCode', oneOf: COUNTRIES_WITH_PROVINCES };
        }
        return [target];
      });
    case 'platforms': {
      const rows = block.data.platforms.flatMap(({ name }): ValidationTarget[] => {
        const base = platformPath(name);
        const { identity, audience } = platformKeys(name);
        return [
          {
            path: `${base}.${identity}`,
            rules: [
              { name: 'requiredWith', with: `${base}.${audience}` },
              identity === 'url' ? { name: 'url' } : { name: 'handle', platform: name },
              { name: 'maxLength', value: identity === 'url' ? 2048 : MAX_HANDLE_LENGTH },
            ],
          },
          {
            path: `${base}.${audience}`,
            rules: [
              // Empty beside a filled handle: 'This field is required', not 'Enter a valid number' (issue 13).
              { name: 'requiredWith', with: `${base}.${identity}` },
              { name: 'count', message: audience === 'followers' ? 'followers' : 'digits' },
              { name: 'maxLength', value: MAX_DIGITS_LENGTH, message: audience === 'followers' ? 'followers' : 'digits' },
            ],
          },
        ];
      });
      const filled: ValidationTarget = {
        path: PLATFORM_FILLED_PATH,
        rules: [],
        platforms: block.data.platforms.map(({ name, required }) => ({ name, required: required === true })),
      };
      return [...rows, filled];
    }
    case 'select': {
      const { multiple, maxLength, options } = block.data;
      const oneOf: Rule = { name: 'oneOf', options: options.map((option) => option.value) };
      return [{ path: block.data.path, rules: multiple && maxLength ? [oneOf, { name: 'maxLength', value: maxLength }] : [oneOf] }];
    }
    case 'yesNo':
      return [
        { path: `${block.data.path}.value`, rules: [YES_OR_NO], yesNo: true },
        {
          // The text box shows, and is required, only while the answer is Yes (SPEC §4).
          path: `${block.data.path}.text`,
          rules: [{ name: 'maxLength', value: MAX_LONG_TEXT_LENGTH }],
          condition: { path: `${block.data.path}.value`, equals: true },
          conditional: true,
        },
      ];
    case 'textField':
      return [
        {
          path: block.data.path,
          rules: [{ name: 'maxLength', value: block.data.multiline ? MAX_LONG_TEXT_LENGTH : MAX_TEXT_LENGTH }],
        },
      ];
    case 'checkbox':
      return [{ path: block.data.path, rules: [YES_OR_NO] }];
    case 'html':
      return [];
  }
}

function toRule(spec: ValidatorSpec): Rule {
  return typeof spec === 'string' ? { name: spec } : { name: spec.name, value: spec.value };
}

/**
 * The validation targets of one step, or of the whole wizard when `stepIndex`
 * is omitted: each block's own targets with the configuration's form items
 * (validators and `showOnCondition`) merged in by path.
 */
export function validationTargets(config: WizardConfig, stepIndex?: number): ValidationTarget[] {
  const steps = stepIndex === undefined ? config.steps : config.steps.slice(stepIndex, stepIndex + 1);
  const targets = steps.flatMap((step) => step.blocks.flatMap(blockTargets));
  return targets.map((target) => {
    const item = config.formItems.find((formItem) => formItem.path === target.path);
    if (!item) return target;
    // A configured validator the block already has keeps the block's message ('Enter a valid phone number').
    const configured = item.validators.map(toRule).map((rule) => {
      const own = target.rules.find((r) => r.name === rule.name && r.message);
      return own ? { ...rule, message: own.message } : rule;
    });
    return {
      ...target,
      rules: [...configured, ...target.rules],
      condition: item.showOnCondition ?? target.condition,
      conditional: item.showOnCondition !== undefined || target.conditional,
    };
  });
}

/** Checks one value against one rule; returns the message, or undefined when it passes. */
export function checkRule(rule: Rule, value: unknown, values: unknown, messages: Messages): string | undefined {
  const message = (key: MessageKey, args: Record<string, number> = {}) =>
    formatMessage(messages[rule.message ?? key], args);
  if (rule.name === 'required') return isEmpty(value) ? message('required') : undefined;
  if (rule.name === 'requiredWith') {
    const other = trimmed(getPath(values, rule.with ?? ''));
    return isEmpty(value) && !isEmpty(other) && other !== rule.unlessWith ? message('required') : undefined;
  }
  if (isEmpty(value)) return undefined;
  if (rule.name === 'oneOf') {
    const allowed = (one: unknown) => rule.options?.includes(one) === true;
    // A list holds each option once ("Land of Dough, Land of Dough" is no answer the wizard gives).
    const list = Array.isArray(value) && value.every(allowed) && new Set(value).size === value.length;
    return (Array.isArray(value) ? list : allowed(value)) ? undefined : message('option');
  }
  if (rule.name === 'country') return typeof value === 'string' && isCountryCode(value) ? undefined : message('option');
  if (rule.name === 'callingCode') return typeof value === 'string' && isCallingCode(value) ? undefined : message('option');
  if (rule.name === 'subdivision') {
    const subdivisions = getSubdivisions(String(getPath(values, rule.with ?? '') ?? ''));
    return subdivisions?.some((subdivision) => subdivision.code === value) ? undefined : message('option');
  }
  if (rule.name === 'phone') {
    const parts = phoneParts(String(getPath(values, rule.with ?? '') ?? ''), String(value));
    return isPossiblePhone(parts.callingCode, parts.subscriber) ? undefined : message('phone');
  }
  if (rule.name === 'maxLength') {
    const max = rule.value ?? Infinity;
    if (Array.isArray(value)) return value.length > max ? message('maxItems', { max }) : undefined;
    return typeof value === 'string' && value.length > max ? message('maxLength', { max }) : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const tests: Record<Exclude<ValidatorName, 'required' | 'maxLength'> | 'count', [(s: string) => boolean, MessageKey]> = {
    notBlank: [isNotBlank, 'notBlank'],
    email: [isEmail, 'email'],
    digits: [isDigits, 'digits'],
    zip: [isZip, 'zip'],
    handle: [isHandle, 'handle'],
    count: [isCount, 'digits'],
    url: [isWebsiteUrl, 'url'],
  };
  const [test, key] = tests[rule.name];
  if (rule.name === 'handle' && rule.platform && !usernameFits(rule.platform, value)) return message(key);
  return test(value) ? undefined : message(key);
}

/**
 * A value as the payload will carry it: strings trimmed (buildPayload does, issue 13: the space a
 * phone keyboard adds after a handle), so the wizard judges what the server will receive.
 */
function trimmed(value: unknown): unknown {
  return typeof value === 'string' ? value.trim() : value;
}

/** A count or a phone number as the payload will carry it ({@link normalizeCount}, {@link phoneParts}). */
function sentForm(target: ValidationTarget, raw: string, values: unknown): string {
  if (target.rules.some((rule) => rule.name === 'count')) return normalizeCount(raw);
  const phone = target.rules.find((rule) => rule.name === 'phone');
  if (phone) return phoneParts(String(getPath(values, phone.with ?? '') ?? ''), raw).subscriber;
  const callingCode = target.rules.find((rule) => rule.name === 'callingCode' && rule.with);
  const number = callingCode ? getPath(values, callingCode.with!) : undefined;
  return typeof number === 'string' && number.trim() !== '' ? phoneParts(raw, number).callingCode : raw;
}

/** The message of the first failing rule of a target, or undefined. */
function checkTarget(target: ValidationTarget, values: unknown, messages: Messages): string | undefined {
  if (target.platforms) return checkPlatformsFilled(target.platforms, values, messages);
  const raw = trimmed(getPath(values, target.path));
  // A count, a phone number, are judged as they will be sent: `12,000` as `12000`, `07400 123456`
  // as `7400123456` (buildPayload cleans them so too).
  const value = typeof raw === 'string' ? sentForm(target, raw, values) : raw;
  // What the server would refuse as unstorable (issue 11), the wizard says first: survey answers
  // (`fields.…`) may hold tab and line breaks, every other text none.
  if (typeof value === 'string' && !(target.path.startsWith('fields.') ? isPlainLongText : isPlainText)(value)) return messages.plainText;
  const rules: Rule[] = target.conditional ? [{ name: 'required' }, ...target.rules] : target.rules;
  for (const rule of rules) {
    if (rule.name === 'required' && target.yesNo && value === false) continue;
    // The phone rule reads the number as typed: a pasted `+44 …` brings its own calling code.
    const message = checkRule(rule, rule.name === 'phone' ? raw : value, values, messages);
    if (message) return message;
  }
  return undefined;
}

/** True when a platform's identity and audience are both filled and valid. */
export function isPlatformValid(name: PlatformName, values: unknown, messages: Messages): boolean {
  const base = platformPath(name);
  const { identity, audience } = platformKeys(name);
  const id = trimmed(getPath(values, `${base}.${identity}`));
  const count = trimmed(getPath(values, `${base}.${audience}`));
  if (isEmpty(id) || isEmpty(count)) return false;
  const identityRule: Rule = identity === 'url' ? { name: 'url' } : { name: 'handle', platform: name };
  return (
    checkRule(identityRule, id, values, messages) === undefined &&
    checkRule({ name: 'count' }, count, values, messages) === undefined
  );
}

/**
 * The platform-filled rule (SPEC §4, §5): at least one platform valid and every
 * required one valid. Messages: 'Fill at least one platform', or 'Fill the
 * required platform' / 'Fill all required platforms' when some are required.
 */
function checkPlatformsFilled(
  platforms: { name: PlatformName; required: boolean }[],
  values: unknown,
  messages: Messages,
): string | undefined {
  const required = platforms.filter((platform) => platform.required);
  const anyValid = platforms.some(({ name }) => isPlatformValid(name, values, messages));
  const requiredValid = required.every(({ name }) => isPlatformValid(name, values, messages));
  if (anyValid && requiredValid) return undefined;
  if (required.length === 0) return messages.platformRequired;
  return required.length === 1 ? messages.requiredPlatform : messages.requiredPlatforms;
}

/**
 * Validates form values against targets.
 * @param targets - from {@link validationTargets}.
 * @param values - the nested form values.
 * @param messages - the resolved message catalogue.
 * @returns a map of path → first error message; empty when valid. Targets whose
 * condition does not hold are skipped (their validators are cleared, SPEC §5).
 */
export function validateTargets(
  targets: readonly ValidationTarget[],
  values: unknown,
  messages: Messages,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const target of targets) {
    if (!conditionHolds(target.condition, values)) continue;
    const message = checkTarget(target, values, messages);
    if (message) errors[target.path] = message;
  }
  return errors;
}
