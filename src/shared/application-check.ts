import type { WizardConfig } from './config';
import { conditionHolds } from './conditions';
import { cleanPayload } from './build-payload';
import { parseApplicationPayload, type ApplicationPayload, type FieldError } from './payload';
import { getPath, setPath } from './paths';
import { blocksOf, initialValues, isSentPath, pageFields } from './form-values';
import { blockDefinition, type PageField, type ValidationTarget } from './blocks';
import { DEFAULT_MESSAGES, type MessageKey } from './messages';
import { isEmail, isEmpty, isNotBlank, isPlainText, mailboxKey } from './rules';
import { ageVerdict, birthMonthProblem, endsScreen } from './age';
import { isCountryCode } from './data/countries';
import { PLATFORM_FILLED_PATH } from './blocks/platforms';
import { EMAIL_PATH } from './blocks/personal-info';
import { AGE_BIRTH_MONTH_PATH, AGE_COUNTRY_PATH } from './age-limits';
import { CONSENTS_GROUP } from './blocks/consent';
import { validateTargets, validationTargets } from './validation';

/**
 * The page's rules applied to a payload (decision 015): the server's half of the one
 * rulebook. The payload of `PUT /api/syncPage/{pageId}` (requirements §7, requirements §15) is read back into the
 * wizard's form values ({@link payloadValues}), and the very targets, rules and messages the
 * wizard's final submit runs ({@link validationTargets}, {@link validateTargets}) run on them.
 */

/**
 * Splits a multi-select answer joined with ', ' back into its options, longest option first, so
 * an option whose own value holds ', ' stays whole. A part that is no option is kept as it is,
 * for the `oneOf` rule to name. Linear in the number of parts: no option spans more parts than
 * the longest option has, so no longer run is tried (a hostile "x, x, x, …" costs nothing).
 */
function splitOptions(joined: string, options: readonly string[]): string[] {
  const parts = joined.split(', ');
  const known = new Set(options);
  const widest = Math.max(1, ...options.map((option) => option.split(', ').length));
  const picked: string[] = [];
  for (let start = 0; start < parts.length;) {
    let end = Math.min(parts.length, start + widest);
    while (end > start + 1 && !known.has(parts.slice(start, end).join(', '))) end -= 1;
    picked.push(parts.slice(start, end).join(', '));
    start = end;
  }
  return picked;
}

/**
 * What the rules need of a page that depends on the page alone, worked out once per page version
 * (its parsed configuration object) instead of once per submission: the form's starting values,
 * the platforms it asks for, its fields by path and the validation targets of what the wizard sends.
 */
interface PageRulebook {
  /** {@link initialValues}: each reading works on a clone. */
  initial: Readonly<Record<string, unknown>>;
  platforms: ReadonlySet<string>;
  fields: ReadonlyMap<string, PageField>;
  /** {@link validationTargets} of the paths a payload carries, and the platform-filled rule. */
  targets: readonly ValidationTarget[];
}

/**
 * One {@link PageRulebook} per parsed configuration. A configuration is never changed once parsed
 * (a new version is a new object), so the object itself is the key, and a page's versions no longer
 * served are collected with it.
 */
const rulebooks = new WeakMap<WizardConfig, PageRulebook>();

function rulebookOf(config: WizardConfig): PageRulebook {
  let rulebook = rulebooks.get(config);
  if (!rulebook) {
    rulebook = {
      initial: initialValues(config),
      platforms: new Set(blocksOf(config).flatMap((block) => blockDefinition(block).platforms?.(block) ?? [])),
      fields: pageFields(config),
      targets: validationTargets(config).filter((target) => target.path === PLATFORM_FILLED_PATH || isSentPath(target.path)),
    };
    rulebooks.set(config, rulebook);
  }
  return rulebook;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Reads a payload back into the wizard's form values (the inverse of `buildPayload`): `fields`'
 * dotted keys nested again, 'Yes' / 'No' as booleans, multi-select answers as lists, over
 * {@link initialValues}. Tolerates any shape: what is not an object reads as empty.
 * @returns the values, and an error (`notAsked`) for each answer the page does not ask for.
 */
export function payloadValues(config: WizardConfig, payload: unknown): { values: Record<string, unknown>; unasked: string[] } {
  const rulebook = rulebookOf(config);
  const values = structuredClone(rulebook.initial) as Record<string, unknown>;
  const unasked: string[] = [];
  const body = record(payload);
  const info = record(body.personalInfo);
  const asked = new Set(Object.keys(values.personalInfo as object));
  for (const [key, value] of Object.entries(info)) {
    if (!asked.has(key)) unasked.push(`personalInfo.${key}`);
    else if (key === 'phone') (values.personalInfo as Record<string, unknown>).phone = { countryCode: '', subscriber: '', ...record(value) };
    else (values.personalInfo as Record<string, unknown>)[key] = value;
  }
  for (const [name, value] of Object.entries(record(body.platforms))) {
    if (!rulebook.platforms.has(name)) unasked.push(`platforms.${name}`);
    else (values.platforms as Record<string, unknown>)[name] = value;
  }
  // Consents travel as booleans under `consents` (requirements §21).
  for (const [purpose, value] of Object.entries(record(body.consents))) {
    const path = `${CONSENTS_GROUP}.${purpose}`;
    if (!rulebook.fields.has(path)) unasked.push(path);
    else setPath(values, path, value);
  }
  // How a `fields` answer travels (requirements §7): text as is, a boolean as 'Yes' / 'No', a list joined with ', '.
  for (const [key, value] of Object.entries(record(body.fields))) {
    const field = rulebook.fields.get(`fields.${key}`);
    if (!field) {
      unasked.push(`fields.${key}`);
      continue;
    }
    let read: unknown = value;
    if (field.kind === 'boolean') read = value === 'Yes' ? true : value === 'No' ? false : value;
    else if (field.kind === 'list' && typeof value === 'string') read = splitOptions(value, field.options ?? []);
    setPath(values, `fields.${key}`, read);
  }
  return { values, unasked };
}

/**
 * Checks a payload against its page's configuration exactly as the wizard's final submit does:
 * required items, named validators with their arguments, `showOnCondition`, options,
 * the multi-select maximum, country, calling code and province membership, the platform rules and
 * the platform-filled rule (requirements §4, §5). An answer the page does not ask for, or one whose
 * condition does not hold (the wizard never sends it), is refused with `notAsked`.
 * @param config - the page's parsed configuration (its `messages` give the texts, in its `lang`).
 * @param payload - the request body, any shape (the payload schema checks the shape).
 * @param nowMs - the instant the age screen's age is worked out at (ms since the epoch; the server's clock).
 * @returns one error per payload path (`fields.howFamiliar`, `platforms` for the platform-filled
 * rule), with the text the wizard shows; empty when the application is the page's.
 */
export function checkApplication(config: WizardConfig, payload: unknown, nowMs: number = Date.now()): FieldError[] {
  const { messages } = config;
  const { values, unasked } = payloadValues(config, payload);
  const { targets } = rulebookOf(config);
  const errors: FieldError[] = unasked.map((path) => ({ path, message: messages.notAsked }));
  for (const [path, message] of Object.entries(validateTargets(targets, values, messages))) {
    errors.push({ path: path === PLATFORM_FILLED_PATH ? 'platforms' : path, message });
  }
  for (const target of targets) {
    if (conditionHolds(target.condition, values) || target.path === PLATFORM_FILLED_PATH) continue;
    const sent = target.path.startsWith('fields.') ? record(record(payload).fields)[target.path.slice('fields.'.length)] : getPath(payload, target.path);
    if (!isEmpty(sent) && !errors.some((error) => error.path === target.path)) errors.push({ path: target.path, message: messages.notAsked });
  }
  errors.push(...ageScreenErrors(config, record(payload), nowMs));
  return errors;
}

/**
 * The age screen's rules (requirements §20), worked out from the answer and the server's own clock,
 * never the wizard's verdict: on a page without a screen, `age` and `guardian` are not asked; on a
 * page with one, the month of birth is required, a real month not to come, the country required
 * (and one of the list) where the minimum is by country (the stricter of it and the personal
 * details' country, where the page asks that too); an age under the minimum, or a minor's on
 * a page that refuses minors, is refused with the page's ending message; a minor on a page that
 * asks for a guardian must name one, whose e-mail address is not the applicant's own; an adult's
 * guardian is not asked.
 */
/** The verdicts from the strictest. */
const VERDICT_ORDER = ['under', 'minor', 'adult'] as const;

function ageScreenErrors(config: WizardConfig, body: Record<string, unknown>, nowMs: number): FieldError[] {
  const { messages, ageScreen: screen } = config;
  const age = record(body.age);
  const guardian = record(body.guardian);
  if (!screen) {
    return [
      ...(body.age === undefined ? [] : [{ path: 'age', message: messages.notAsked }]),
      ...(body.guardian === undefined ? [] : [{ path: 'guardian', message: messages.notAsked }]),
    ];
  }
  const errors: FieldError[] = [];
  const birthMonth = age.birthMonth;
  const country = age.countryCode;
  if (typeof birthMonth !== 'string' || birthMonth === '') errors.push({ path: AGE_BIRTH_MONTH_PATH, message: messages.required });
  else {
    const problem = birthMonthProblem(birthMonth, nowMs);
    if (problem) errors.push({ path: AGE_BIRTH_MONTH_PATH, message: messages[problem] });
  }
  if (screen.minimumAge === 'byCountry') {
    if (typeof country !== 'string' || country === '') errors.push({ path: AGE_COUNTRY_PATH, message: messages.required });
    else if (!isCountryCode(country)) errors.push({ path: AGE_COUNTRY_PATH, message: messages.option });
  } else if (country !== undefined) errors.push({ path: AGE_COUNTRY_PATH, message: messages.notAsked });
  if (errors.length > 0) return errors;
  // By country, the stricter of the country named on the screen and the one of the personal details
  // (where the page asks it): naming another country on the screen lowers no one's minimum.
  const lived = record(body.personalInfo).countryCode;
  const countries = screen.minimumAge === 'byCountry' && typeof lived === 'string' && lived !== country ? [country, lived] : [country];
  const verdict = countries
    .map((countryCode) => ageVerdict(screen, { birthMonth: birthMonth as string, countryCode: countryCode as string | undefined }, nowMs))
    .reduce((strictest, next) => (VERDICT_ORDER.indexOf(next) < VERDICT_ORDER.indexOf(strictest) ? next : strictest));
  if (endsScreen(screen, verdict)) return [{ path: AGE_BIRTH_MONTH_PATH, message: messages.ageEnded }];
  if (verdict === 'adult' || screen.minors !== 'guardian') {
    return body.guardian === undefined ? [] : [{ path: 'guardian', message: messages.notAsked }];
  }
  const name = guardian.name;
  const email = guardian.emailAddress;
  if (typeof name !== 'string' || !isNotBlank(name)) errors.push({ path: 'guardian.name', message: messages.required });
  else if (!isPlainText(name)) errors.push({ path: 'guardian.name', message: messages.plainText });
  if (typeof email !== 'string' || email === '') errors.push({ path: 'guardian.emailAddress', message: messages.required });
  else if (!isEmail(email)) errors.push({ path: 'guardian.emailAddress', message: messages.email });
  else {
    const own = record(body.personalInfo).emailAddress;
    // Both sides of the pair: the wizard shows the applicant's own address at its field (the screen that asked the guardian's has passed).
    if (typeof own === 'string' && mailboxKey(own) === mailboxKey(email))
      errors.push({ path: 'guardian.emailAddress', message: messages.guardianEmailOwn }, { path: EMAIL_PATH, message: messages.ownEmailIsGuardians });
  }
  return errors;
}

/**
 * What `PUT /api/syncPage/{pageId}` decides about a body: cleaned as the wizard cleans
 * it ({@link cleanPayload}), then the page's rules ({@link checkApplication}: the wizard's texts in
 * the page's language) and the payload's shape (`parseApplicationPayload`: types, unknown keys),
 * a shape error only where no rule already named the path.
 * @returns `{ payload }`, the cleaned payload to store (the very input when nothing needed
 * cleaning), or `{ errors }` for a 400 problem+json.
 */
export function checkSubmission(
  config: WizardConfig,
  body: unknown,
  nowMs: number = Date.now(),
): { payload: ApplicationPayload; errors?: never } | { payload?: never; errors: FieldError[] } {
  const cleaned = cleanPayload(body);
  const ruleErrors = checkApplication(config, cleaned, nowMs);
  const parsed = parseApplicationPayload(cleaned);
  if (ruleErrors.length === 0 && !parsed.errors) return { payload: cleaned as ApplicationPayload };
  const shapeErrors = (parsed.errors ?? [])
    .filter((error) => !ruleErrors.some((rule) => rule.path === error.path))
    .map((error) => ({ path: error.path, message: inPageLanguage(config, error.message) }));
  return { errors: [...ruleErrors, ...shapeErrors] };
}

/**
 * A shape error's text in the page's language: the page's own text where the schema used one of
 * the catalogue's defaults, `notAsked` for an unknown key, and `invalid` ('This value is not
 * valid') for a value of the wrong type (`Invalid input: expected string, received number`).
 */
function inPageLanguage(config: WizardConfig, message: string): string {
  const key = (Object.keys(DEFAULT_MESSAGES) as MessageKey[]).find((name) => DEFAULT_MESSAGES[name] === message);
  if (key) return config.messages[key];
  return message.startsWith('Unknown field') ? config.messages.notAsked : config.messages.invalid;
}
