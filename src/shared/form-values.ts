import type { Block, WizardConfig } from './config';
import { callingCodes, countryCodes, getSubdivisions } from './data/countries';
import { platformKeys, platformPath } from './platforms';
import { COUNTRIES_WITH_PROVINCES } from './validation';
import { DEFAULT_CALLING_CODE } from './rules';

/**
 * The wizard's form values as a page's configuration lays them out (SPEC §3, §7): where they start,
 * and which of them travel in the payload. Read by the wizard (its form's defaults) and by the
 * server (checkApplication reads a payload back over them).
 */

/** The payload groups a form-value path can belong to; any other path (a checkbox at `agreement`) is never sent (SPEC §7). */
const SENT_GROUPS = ['personalInfo', 'platforms', 'fields'] as const;

/** Whether the wizard sends the value at a form-value path (SPEC §7: the agreement flag never is). */
export function isSentPath(path: string): boolean {
  return SENT_GROUPS.some((group) => path.startsWith(`${group}.`)) && path !== 'fields.agreement';
}

/**
 * The form's starting values: empty answers for what the configuration asks, with calling code 1
 * (SPEC §9), so every control starts controlled. The payload is read back over these, so an
 * absent answer reads as the wizard's untouched control.
 * @returns `{ personalInfo, platforms: {}, fields: {} }`.
 */
export function initialValues(config: WizardConfig): Record<string, unknown> {
  const personalInfo: Record<string, unknown> = {};
  for (const block of blocksOf(config)) {
    if (block.component !== 'personalInfo') continue;
    for (const field of block.data.fields) {
      personalInfo[field] = field === 'phone' ? { countryCode: DEFAULT_CALLING_CODE, subscriber: '' } : '';
    }
  }
  return { personalInfo, platforms: {}, fields: {} };
}

/** Every block of every step, in order. */
export function blocksOf(config: WizardConfig): Block[] {
  return config.steps.flatMap((step) => step.blocks);
}

/**
 * What a form-value path holds: typed text, a count (followers, monthly traffic), a yes/no or
 * checkbox boolean, a multi-select list, a choice from a list (a single select, country, province,
 * calling code) or a phone number. It decides how an answer travels in the payload (SPEC §7) and
 * which validators and condition values fit it.
 */
export type ValueKind = 'text' | 'count' | 'boolean' | 'list' | 'choice' | 'phone';

/** One form-value path a page asks for: its kind and, for a select, its option values. */
export interface PageField {
  kind: ValueKind;
  options?: readonly string[];
}

/**
 * The form-value paths one block asks for, in order, with their kinds (the one place that maps a
 * block to its paths; read by the server's payload reader and the configuration checks).
 */
export function blockFields(block: Block): [string, PageField][] {
  const fields: [string, PageField][] = [];
  const add = (path: string, kind: ValueKind, options?: readonly string[]) => fields.push([path, options ? { kind, options } : { kind }]);
  switch (block.component) {
    case 'personalInfo':
      for (const field of block.data.fields) {
        if (field === 'phone') {
          add('personalInfo.phone.countryCode', 'choice', callingCodes());
          add('personalInfo.phone.subscriber', 'phone');
        } else if (field === 'countryCode') add('personalInfo.countryCode', 'choice', countryCodes());
        else if (field === 'provinceCode') add('personalInfo.provinceCode', 'choice', COUNTRIES_WITH_PROVINCES.flatMap((country) => (getSubdivisions(country) ?? []).map((subdivision) => subdivision.code)));
        else add(`personalInfo.${field}`, 'text');
      }
      break;
    case 'platforms':
      for (const { name } of block.data.platforms) {
        const { identity, audience } = platformKeys(name);
        add(`${platformPath(name)}.${identity}`, 'text');
        add(`${platformPath(name)}.${audience}`, 'count');
      }
      break;
    case 'select':
      add(block.data.path, block.data.multiple ? 'list' : 'choice', block.data.options.map((option) => option.value));
      break;
    case 'yesNo':
      add(`${block.data.path}.value`, 'boolean');
      add(`${block.data.path}.text`, 'text');
      break;
    case 'textField':
      add(block.data.path, 'text');
      break;
    case 'checkbox':
      add(block.data.path, 'boolean');
      break;
    case 'html':
      break;
  }
  return fields;
}

/** Every form-value path a page's blocks ask for ({@link blockFields} of each block, in order). */
export function pageFields(config: WizardConfig): Map<string, PageField> {
  return new Map(blocksOf(config).flatMap(blockFields));
}
