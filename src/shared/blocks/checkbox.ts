import { z } from '../schema-parts';
import type { BlockDefinition } from './block';
import { configHtml, nonEmpty, YES_OR_NO_OPTIONS } from '../schema-parts';
import { yesNoChoices } from './yes-no';

/** A checkbox whose label is HTML (for example an agreement with a link). */
export const CheckboxBlockSchema = z.strictObject({
  component: z.literal('checkbox'),
  data: z.strictObject({ path: nonEmpty, label: configHtml }),
});
type CheckboxBlock = z.infer<typeof CheckboxBlockSchema>;

/** The agreement checkbox's name (the shipped French page's `agreement`). */
export const AGREEMENT_KEY = 'agreement';

/**
 * Whether a form-value path is the agreement flag, at `agreement` or inside the survey answers at
 * `fields.agreement`: required by its page, stripped from the payload (requirements §5, §7), so never
 * stored, shown in the inbox or exported.
 */
export function isAgreementPath(path: string): boolean {
  return path === AGREEMENT_KEY || path === `fields.${AGREEMENT_KEY}`;
}

/** The checkbox block's definition: a boolean; the agreement's never leaves the browser. */
export const checkbox: BlockDefinition<CheckboxBlock> = {
  fields: (block) => [[block.data.path, isAgreementPath(block.data.path) ? { kind: 'boolean', sent: false } : { kind: 'boolean' }]],
  targets: (block) => [{ path: block.data.path, rules: [{ name: 'oneOf', options: YES_OR_NO_OPTIONS }] }],
  answers: (block) => (isAgreementPath(block.data.path) ? [] : [{ key: block.data.path, label: block.data.label }]),
  answerOutsideFields: true,
  reservedPath: (segments, component) =>
    component !== 'checkbox' && isAgreementPath(segments.join('.'))
      ? `"${segments.join('.')}" is the agreement flag, never sent (requirements §7): only a checkbox may sit there`
      : undefined,
  htmlData: ['label'],
  choices: (_block, messages) => yesNoChoices(messages),
};
