import type { Block, WizardConfig } from './config';
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

