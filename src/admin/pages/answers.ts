import type { Block } from '../../shared/config';
import type { PageField } from '../../shared/blocks';
import { blockFields } from '../../shared/form-values';
import { asArray, isObject } from './draft';

/** The answers the draft's blocks ask: for the forms, the conditions and the places' names. */

/** The block components as the team names them, in the order "Add a block" offers them. */
export const BLOCK_LABELS: Record<Block['component'], string> = {
  html: 'Text (headline, paragraph)',
  personalInfo: 'Personal details',
  platforms: 'Social platforms',
  select: 'Choice question',
  yesNo: 'Yes / no question',
  textField: 'Text question',
  checkbox: 'Checkbox (agreement)',
};

/** The answer paths and kinds a block of the draft asks for (none while it is not a block the schema reads). */
export function answerFields(block: unknown): [string, PageField][] {
  try {
    return blockFields(block as Block);
  } catch {
    return [];
  }
}

/** Every answer path the draft's blocks ask for, with its kind: what conditions can test. */
export function draftFields(draft: unknown): Map<string, PageField> {
  const steps = isObject(draft) ? asArray(draft.steps) : [];
  return new Map(steps.flatMap((step) => (isObject(step) ? asArray(step.blocks) : []).flatMap(answerFields)));
}
