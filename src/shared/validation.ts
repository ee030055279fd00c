import type { Block, ValidatorName, ValidatorSpec, WizardConfig } from './config-schema';
import { conditionHolds } from './conditions';
import { countryCallingCodes, getSubdivisions, isCallingCode, isCountryCode } from './data/countries';
import { formatMessage, type MessageKey, type Messages } from './messages';
import { getPath } from './paths';
import { isValidPhone, loadPhoneNumbersFor, phoneParts } from './phone';
import { usernameFits, type PlatformName } from './platforms';
import { blockDefinition, type Rule, type ValidationTarget } from './blocks';
import { platformRowPaths } from './blocks/platforms';
import { isCount, isDigits, isEmail, isEmpty, isHandle, isNotBlank, isPlainLongText, isPlainText, isWebsiteUrl, isZip, normalizeCount } from './rules';

/**
 * Form validation from configuration (requirements §4, §5): which paths each step asks
 * for, the rules each path carries (the block's own plus the configuration's
 * named validators), conditions, and the platform-filled rule. Pure functions,
 * used by the wizard's form resolver and by the tests.
 */

/** The paths a block asks for and the rules it brings by itself (its shared definition's, src/shared/blocks). */
export function blockTargets(block: Block): ValidationTarget[] {
  return blockDefinition(block).targets(block);
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

/** An answer read as text: a string as it is, anything else (a number, an object, absent) as ''. */
const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The rules that test a text alone: each one's test and the message it fails with. */
const TEXT_TESTS: Record<Exclude<ValidatorName, 'required' | 'maxLength'> | 'count', [(s: string) => boolean, MessageKey]> = {
  notBlank: [isNotBlank, 'notBlank'],
  email: [isEmail, 'email'],
  digits: [isDigits, 'digits'],
  zip: [isZip, 'zip'],
  handle: [isHandle, 'handle'],
  count: [isCount, 'digits'],
  url: [isWebsiteUrl, 'url'],
};

/** Checks one value against one rule; returns the message, or undefined when it passes. */
export function checkRule(rule: Rule, value: unknown, values: unknown, messages: Messages): string | undefined {
  const message = (key: MessageKey, args: Record<string, number> = {}) => formatMessage(messages[rule.message ?? key], args);
  if (rule.name === 'required') return isEmpty(value) ? message('required') : undefined;
  if (rule.name === 'requiredWith') {
    const other = trimmed(getPath(values, rule.with ?? ''));
    const countrysOwn =
      rule.unlessCallingCodeOf !== undefined && countryCallingCodes(textOf(getPath(values, rule.unlessCallingCodeOf))).includes(textOf(other));
    return isEmpty(value) && !isEmpty(other) && other !== rule.unlessWith && !countrysOwn ? message('required') : undefined;
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
    const subdivisions = getSubdivisions(textOf(getPath(values, rule.with ?? '')));
    return subdivisions?.some((subdivision) => subdivision.code === value) ? undefined : message('option');
  }
  if (rule.name === 'phone') {
    // Not `String(value)`: an object whose `toString` is no function (`{"toString":{}}`) throws there.
    const parts = phoneParts(textOf(getPath(values, rule.with ?? '')), textOf(value));
    return isValidPhone(parts.callingCode, parts.subscriber) ? undefined : message('phone');
  }
  if (rule.name === 'maxLength') {
    const max = rule.value ?? Infinity;
    if (Array.isArray(value)) return value.length > max ? message('maxItems', { max }) : undefined;
    return typeof value === 'string' && value.length > max ? message('maxLength', { max }) : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const [test, key] = TEXT_TESTS[rule.name];
  if (rule.name === 'handle' && rule.platform && !usernameFits(rule.platform, value)) return message(key);
  return test(value) ? undefined : message(key);
}

/**
 * A value as the payload will carry it: strings trimmed (buildPayload does: the space a
 * phone keyboard adds after a handle), so the wizard judges what the server will receive.
 */
function trimmed(value: unknown): unknown {
  return typeof value === 'string' ? value.trim() : value;
}

/** A count or a phone number as the payload will carry it ({@link normalizeCount}, {@link phoneParts}). */
function sentForm(target: ValidationTarget, raw: string, values: unknown): string {
  if (target.rules.some((rule) => rule.name === 'count')) return normalizeCount(raw);
  const phone = target.rules.find((rule) => rule.name === 'phone');
  if (phone) return phoneParts(textOf(getPath(values, phone.with ?? '')), raw).subscriber;
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
  // What the server would refuse as unstorable, the wizard says first: survey answers
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

/** True when anything is typed in a platform's row: its identity or its audience (blanks are nothing). */
function isPlatformStarted(name: PlatformName, values: unknown): boolean {
  const paths = platformRowPaths(name);
  return !isEmpty(trimmed(getPath(values, paths.identity))) || !isEmpty(trimmed(getPath(values, paths.audience)));
}

/**
 * The platform-filled rule (requirements §4, §5): at least one platform filled in and every
 * required one filled in. Messages: 'Fill at least one platform', or 'Fill the
 * required platform' / 'Fill all required platforms' when some are required. A row filled in
 * but wrong (a profile address for a handle, "12k" followers, a handle without its followers)
 * fails its own fields' rules, which say what is wrong; this rule then says nothing more, so an
 * applicant never reads "Fill at least one platform" beside the platform they filled.
 */
function checkPlatformsFilled(platforms: { name: PlatformName; required: boolean }[], values: unknown, messages: Messages): string | undefined {
  const required = platforms.filter((platform) => platform.required);
  const anyStarted = platforms.some(({ name }) => isPlatformStarted(name, values));
  const requiredStarted = required.every(({ name }) => isPlatformStarted(name, values));
  if (anyStarted && requiredStarted) return undefined;
  if (required.length === 0) return messages.platformRequired;
  return required.length === 1 ? messages.requiredPlatform : messages.requiredPlatforms;
}

/**
 * Loads what the rules of `targets` need to judge `values` as the server does (the wizard, before
 * it judges a step or sends): for each phone rule, the phone library and the metadata of the
 * calling codes its answer names — the code chosen, a pasted `+44 …`'s ({@link loadPhoneNumbersFor}).
 * Resolves at once when there is no phone rule, or what it needs has loaded.
 * @param targets - from {@link validationTargets}.
 * @param values - the nested form values.
 * @throws what a load throws (offline); until it succeeds the phone rule falls back to 4–15 digits (phone.ts).
 */
export async function loadRulesFor(targets: readonly ValidationTarget[], values: unknown): Promise<void> {
  const phones = targets.flatMap((target) => target.rules.filter((rule) => rule.name === 'phone').map((rule) => ({ target, rule })));
  await Promise.all(phones.map(({ target, rule }) => loadPhoneNumbersFor(textOf(getPath(values, rule.with ?? '')), textOf(getPath(values, target.path)))));
}

/**
 * Validates form values against targets.
 * @param targets - from {@link validationTargets}.
 * @param values - the nested form values.
 * @param messages - the resolved message catalogue.
 * @returns a map of path → first error message; empty when valid. Targets whose
 * condition does not hold are skipped (their validators are cleared, requirements §5).
 */
export function validateTargets(targets: readonly ValidationTarget[], values: unknown, messages: Messages): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const target of targets) {
    if (!conditionHolds(target.condition, values)) continue;
    const message = checkTarget(target, values, messages);
    if (message) errors[target.path] = message;
  }
  return errors;
}
