import type { Block, WizardConfig } from './config-schema';
import { blockDefinition, type PageField } from './blocks';
import { isAgreementPath } from './blocks/checkbox';
import { setPath } from './paths';

/**
 * The wizard's form values as a page's configuration lays them out (requirements §3, §7): where they start,
 * and which of them travel in the payload. Read by the wizard (its form's defaults) and by the
 * server (checkApplication reads a payload back over them). Each block's paths and kinds are its
 * shared definition's (src/shared/blocks).
 */

/** The payload groups a form-value path can belong to; any other path (a checkbox at `agreement`) is never sent (requirements §7). */
const SENT_GROUPS = ['personalInfo', 'platforms', 'fields', 'consents'] as const;

/** Whether the wizard sends the value at a form-value path (requirements §7: the agreement flag never is). */
export function isSentPath(path: string): boolean {
  return SENT_GROUPS.some((group) => path.startsWith(`${group}.`)) && !isAgreementPath(path);
}

/**
 * The form's starting values: empty answers for what the configuration asks, with calling code 1
 * (requirements §9), so every control starts controlled. The payload is read back over these, so an
 * absent answer reads as the wizard's untouched control.
 * @returns `{ personalInfo, platforms: {}, fields: {} }`.
 */
export function initialValues(config: WizardConfig): Record<string, unknown> {
  const values: Record<string, unknown> = { personalInfo: {}, platforms: {}, fields: {} };
  for (const block of blocksOf(config)) {
    for (const [path, value] of blockDefinition(block).initialValues?.(block) ?? []) setPath(values, path, value);
  }
  return values;
}

/** Every block of every step, in order. */
export function blocksOf(config: WizardConfig): Block[] {
  return config.steps.flatMap((step) => step.blocks);
}

/**
 * The form-value paths one block asks for, in order, with their kinds (its shared definition's;
 * read by the server's payload reader and the configuration checks).
 */
export function blockFields(block: Block): [string, PageField][] {
  return blockDefinition(block).fields(block);
}

/** Every form-value path a page's blocks ask for ({@link blockFields} of each block, in order). */
export function pageFields(config: WizardConfig): Map<string, PageField> {
  return new Map(blocksOf(config).flatMap(blockFields));
}
