import type { WizardConfig } from './config';
import { conditionHolds } from './conditions';
import type { ApplicationPayload } from './payload';
import { getPath } from './paths';
import { PAYLOAD_PLATFORM_NAMES, platformKeys } from './platforms';
import { isEmpty } from './rules';
import { PLATFORM_FILLED_PATH, validationTargets } from './validation';

/**
 * Builds the payload of `PUT /api/syncPage/{pageId}` from the wizard's form
 * values (SPEC §7, DESIGN §6): strings trimmed; items whose condition does not
 * hold dropped; an empty phone dropped; a platform without a handle (website:
 * without url) dropped; `fields` flattened to dotted keys with booleans as
 * 'Yes'/'No' and arrays joined with ', '; the agreement flag and the
 * platform-filled flag never sent.
 * @param config - the parsed configuration (for conditions).
 * @param values - the nested form values.
 */
export function buildPayload(config: WizardConfig, values: Record<string, unknown>): ApplicationPayload {
  const hidden = validationTargets(config)
    .filter((target) => !conditionHolds(target.condition, values))
    .map((target) => target.path);
  const isHidden = (path: string) => hidden.some((h) => path === h || path.startsWith(`${h}.`));

  const personalInfo: Record<string, unknown> = {};
  const info = (values.personalInfo ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(info)) {
    if (key === 'phone' || isHidden(`personalInfo.${key}`)) continue;
    const cleaned = clean(value);
    if (typeof cleaned === 'string' && cleaned !== '') personalInfo[key] = cleaned;
  }
  const countryCode = clean(getPath(values, 'personalInfo.phone.countryCode'));
  const subscriber = clean(getPath(values, 'personalInfo.phone.subscriber'));
  if (typeof subscriber === 'string' && subscriber !== '' && typeof countryCode === 'string' && countryCode !== '') {
    personalInfo.phone = { countryCode, subscriber };
  }

  const platforms: Record<string, Record<string, string>> = {};
  for (const name of PAYLOAD_PLATFORM_NAMES) {
    const { identity, audience } = platformKeys(name);
    const id = clean(getPath(values, `platforms.${name}.${identity}`));
    if (typeof id !== 'string' || id === '' || isHidden(`platforms.${name}`)) continue;
    const count = clean(getPath(values, `platforms.${name}.${audience}`));
    platforms[name] = typeof count === 'string' && count !== '' ? { [identity]: id, [audience]: count } : { [identity]: id };
  }

  const fields: Record<string, string> = {};
  flatten(values.fields, '', (key, value) => {
    if (isHidden(`fields.${key}`) || key === 'agreement' || key === PLATFORM_FILLED_PATH) return;
    const single = /^single\.([^.]+)\./.exec(key);
    if (single && isEmpty(clean(getPath(values, `fields.single.${single[1]}.handle`)))) return;
    fields[key] = value;
  });

  return { personalInfo: personalInfo as ApplicationPayload['personalInfo'], platforms, fields };
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
