import { MAX_LONG_TEXT_LENGTH, MAX_TEXT_LENGTH } from '../rules';
import { z } from '../schema-parts';
import type { BlockDefinition } from './block';
import { nonEmpty } from '../schema-parts';

/** A text input, or a textarea when `multiline`. */
export const TextFieldBlockSchema = z.strictObject({
  component: z.literal('textField'),
  data: z.strictObject({
    path: nonEmpty,
    label: z.optional(z.string()),
    placeholder: z.optional(z.string()),
    footer: z.optional(z.string()),
    multiline: z.optional(z.boolean()),
  }),
});
type TextFieldBlock = z.infer<typeof TextFieldBlockSchema>;

/** The text field block's definition: free text, up to 200 characters (5 000 when multiline). */
export const textField: BlockDefinition<TextFieldBlock> = {
  fields: (block) => [[block.data.path, { kind: 'text' }]],
  targets: (block) => [{ path: block.data.path, rules: [{ name: 'maxLength', value: block.data.multiline ? MAX_LONG_TEXT_LENGTH : MAX_TEXT_LENGTH }] }],
  answers: (block) => [{ key: block.data.path, label: block.data.label ?? block.data.placeholder ?? block.data.path }],
  htmlData: [],
};
