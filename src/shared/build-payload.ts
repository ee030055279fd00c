import type { WizardConfig } from './config';
import type { AgeAnswer, Guardian } from './age';
import { conditionHolds } from './conditions';
import type { ApplicationPayload } from './payload';
import { getPath } from './paths';
import { PAYLOAD_PLATFORM_NAMES, platformKeys } from './platforms';
import { phoneParts } from './phone';
import { DEFAULT_CALLING_CODE, normalizeCount } from './rules';
import { isAgreementPath } from './blocks/checkbox';
import { COUNTRY_PATH, EMAIL_PATH, PHONE_CALLING_CODE_PATH, PHONE_PATH, PHONE_SUBSCRIBER_PATH } from './blocks/personal-info';
import { countryCallingCodes } from './data/countries';
import { PLATFORM_FILLED_PATH } from './blocks/platforms';
import { CONSENTS_GROUP } from './blocks/consent';
import { pageFields } from './form-values';
import { validationTargets } from './validation';

/**
 * Builds the payload of `PUT /api/syncPage/{pageId}` from the wizard's form
 * values (requirements §7, requirements §15): only the answers the page asks for; strings trimmed; items whose condition does not
 * hold dropped; an empty phone dropped; a platform without a handle (website:
 * without url) dropped; `fields` flattened to dotted keys with booleans as
 * 'Yes'/'No' and arrays joined with ', '; the agreement flag and the
 * platform-filled flag never sent.
 * @param config - the parsed configuration (for conditions).
 * @param values - the nested form values.
 * @param screen - the age screen's answers (requirements §20), kept by the page outside the form:
 * sent only on a page with an age screen, the guardian only with the month of birth.
 */
export function buildPayload(config: WizardConfig, values: Record<string, unknown>, screen: AgeScreenAnswers = {}): ApplicationPayload {
  const hidden = validationTargets(config)
    .filter((target) => !conditionHolds(target.condition, values))
    .map((target) => target.path);
  const isHidden = (path: string) => hidden.some((h) => path === h || path.startsWith(`${h}.`));
  // Only what the page asks: answers of a draft saved before the page changed are not sent (the
  // server would refuse them as not asked, on every try).
  const asked = pageFields(config);

  const personalInfo: Record<string, unknown> = {};
  const info = (values.personalInfo ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(info)) {
    if (key === 'phone' || isHidden(`personalInfo.${key}`) || !asked.has(`personalInfo.${key}`)) continue;
    const cleaned = clean(value);
    if (typeof cleaned === 'string' && cleaned !== '') personalInfo[key] = cleaned;
  }
  const countryCode = clean(getPath(values, PHONE_CALLING_CODE_PATH));
  const subscriber = clean(getPath(values, PHONE_SUBSCRIBER_PATH));
  // Sent when a number was typed, or a calling code picked other than the default and the country's
  // own, which the code follows by itself (then the empty number is the server's 'required' too, as
  // it is the wizard's).
  const typed = typeof subscriber === 'string' && subscriber !== '';
  const country = getPath(values, COUNTRY_PATH);
  const picked = countryCode !== DEFAULT_CALLING_CODE && !countryCallingCodes(typeof country === 'string' ? country : '').includes(String(countryCode));
  if (asked.has(PHONE_SUBSCRIBER_PATH) && typeof countryCode === 'string' && countryCode !== '' && (typed || picked)) {
    personalInfo.phone = { countryCode, subscriber: typed ? subscriber : '' };
  }

  const platforms: Record<string, Record<string, string>> = {};
  for (const name of PAYLOAD_PLATFORM_NAMES) {
    const { identity, audience } = platformKeys(name);
    if (isHidden(`platforms.${name}`) || !asked.has(`platforms.${name}.${identity}`)) continue;
    const id = clean(getPath(values, `platforms.${name}.${identity}`));
    const count = clean(getPath(values, `platforms.${name}.${audience}`));
    const platform: Record<string, string> = {};
    if (typeof id === 'string' && id !== '') platform[identity] = id;
    if (typeof count === 'string' && count !== '') platform[audience] = count;
    // A row with an audience and no handle is kept: the server then says 'required' as the wizard does.
    if (Object.keys(platform).length > 0) platforms[name] = platform;
  }

  const fields: Record<string, string> = {};
  flatten(values.fields, '', (key, value) => {
    if (isHidden(`fields.${key}`) || !asked.has(`fields.${key}`) || isAgreementPath(`fields.${key}`) || key === PLATFORM_FILLED_PATH) return;
    fields[key] = value;
  });

  // Consents (requirements §21): each the page asks, given or not, always sent: both are recorded.
  const consents: Record<string, boolean> = {};
  for (const path of asked.keys()) if (path.startsWith(`${CONSENTS_GROUP}.`)) consents[path.slice(CONSENTS_GROUP.length + 1)] = getPath(values, path) === true;
  const { age, guardian } = config.ageScreen ? screen : {};
  return cleanPayload({
    personalInfo: personalInfo as ApplicationPayload['personalInfo'],
    platforms,
    fields,
    ...(Object.keys(consents).length > 0 ? { consents } : {}),
    ...(age ? { age, ...(guardian ? { guardian } : {}) } : {}),
  }) as ApplicationPayload;
}

/** What the age screen adds to a payload (requirements §20): the month of birth, and a minor's guardian. */
export interface AgeScreenAnswers {
  age?: AgeAnswer | undefined;
  guardian?: Guardian | undefined;
}

/** The guardian's e-mail address in the payload: its domain in lower case, as the applicant's. */
const GUARDIAN_EMAIL_PATH = 'guardian.emailAddress';

/** How deep a payload's values go below a group: `personalInfo` → `phone` → `subscriber`. */
const MAX_PAYLOAD_DEPTH = 3;

/** Keys of counts: a platform's audience (requirements §3), in `platforms` and in `fields` (`single.linkedin.followers`). */
const COUNT_KEY = /(?:^|\.)(?:followers|monthlyTraffic)$/;

/**
 * The values of a payload made clean, the same on both sides: every string of
 * `personalInfo` (the phone's included), `platforms` and `fields` trimmed, and dropped when that
 * leaves nothing (the phone's parts excepted); counts without grouping
 * separators ({@link normalizeCount}: `12,000` → `12000`); the phone as its calling code and
 * national number ({@link phoneParts}: `+44 7400 123456`, `07400 123456` → `44`, `7400123456`); the e-mail address's domain in lower
 * case (RFC 5321 §2.4: the domain is case-insensitive, the local part is not). The wizard's payload
 * comes out of {@link buildPayload} so; the server cleans what any client sent before it checks and
 * stores it. Tolerates any shape: what is not a plain object or a string is left as it is.
 * @returns a new payload, or the input itself when nothing needed cleaning (or it is not an object).
 */
export function cleanPayload(payload: unknown): unknown {
  if (!isRecord(payload)) return payload;
  // The payload is three levels deep at most (`personalInfo.phone.subscriber`); deeper is left for
  // the shape check to refuse, never walked (a 5 000-level body must not exhaust the stack).
  const walk = (value: unknown, key: string, depth = 0): unknown => {
    if (depth > MAX_PAYLOAD_DEPTH) return value;
    if (typeof value === 'string') {
      const text = value.trim();
      if (COUNT_KEY.test(key)) return normalizeCount(text);
      if (key === EMAIL_PATH || key === GUARDIAN_EMAIL_PATH) return lowerCaseDomain(text);
      return text;
    }
    if (!isRecord(value)) return value;
    const entries = Object.entries(value)
      .map(([name, nested]) => [name, walk(nested, `${key}.${name}`, depth + 1)] as const)
      // An answer of spaces only is no answer: dropped, as the wizard never sends it (the phone's two
      // parts stay, so a calling code without its number is still 'required').
      .filter(([, nested]) => nested !== '' || key === PHONE_PATH);
    const same = entries.length === Object.keys(value).length && entries.every(([name, nested]) => nested === value[name]);
    return same ? value : Object.fromEntries(entries);
  };
  let cleaned = payload;
  for (const group of ['personalInfo', 'platforms', 'fields', 'age', 'guardian'] as const) {
    let value = walk(payload[group], group);
    if (group === 'personalInfo' && isRecord(value)) value = withPhoneParts(value);
    if (value !== payload[group]) cleaned = { ...cleaned, [group]: value };
  }
  return cleaned;
}

/** The phone's two parts as {@link phoneParts} makes them (a pasted `+44 …` sets the calling code). */
function withPhoneParts(info: Record<string, unknown>): Record<string, unknown> {
  const phone = info.phone;
  if (!isRecord(phone) || typeof phone.countryCode !== 'string' || typeof phone.subscriber !== 'string') return info;
  const parts = phoneParts(phone.countryCode, phone.subscriber);
  if (parts.callingCode === phone.countryCode && parts.subscriber === phone.subscriber) return info;
  return { ...info, phone: { ...phone, countryCode: parts.callingCode, subscriber: parts.subscriber } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `Ada@Example.COM` → `Ada@example.com`: only the part after the last `@`. */
function lowerCaseDomain(address: string): string {
  const at = address.lastIndexOf('@');
  // ASCII letters only: `toLowerCase` makes the Kelvin sign (U+212A) a `k`, turning an address the
  // e-mail rule refuses into one it accepts.
  return at < 0 ? address : address.slice(0, at + 1) + address.slice(at + 1).replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

function clean(value: unknown): unknown {
  return typeof value === 'string' ? value.trim() : value;
}

/** Walks nested answers, calling `emit` with each dotted key and its string form. */
function flatten(value: unknown, prefix: string, emit: (key: string, value: string) => void): void {
  if (value === undefined || value === null) return;
  if (typeof value === 'boolean') return emit(prefix, value ? 'Yes' : 'No');
  if (Array.isArray(value)) {
    const joined = value.map(String).join(', ');
    if (joined !== '') emit(prefix, joined);
    return;
  }
  if (typeof value === 'object') {
    for (const [key, nested] of Object.entries(value)) flatten(nested, prefix ? `${prefix}.${key}` : key, emit);
    return;
  }
  const text = String(value).trim();
  if (text !== '') emit(prefix, text);
}
