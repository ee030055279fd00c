import { z } from './schema-parts';
import type { BlockDefinition, Rule } from './block';
import { nonEmpty } from './schema-parts';

/** A select option (requirements §3): the label shown and the value stored. */
export const SelectOptionSchema = z.strictObject({ name: nonEmpty, value: nonEmpty });
export type SelectOption = z.infer<typeof SelectOptionSchema>;

/** A searchable select, single or multi, over fixed options (requirements §3). */
export const SelectBlockSchema = z.strictObject({
  component: z.literal('select'),
  data: z.strictObject({
    path: nonEmpty,
    label: nonEmpty,
    options: z.array(SelectOptionSchema).check(z.minLength(1)),
    multiple: z.optional(z.boolean()),
    /** Multi mode: the most options that can be picked; further picks are ignored. */
    maxLength: z.optional(z.number().check(z.int(), z.positive())),
    /** Default: the page's `messages.selectPlaceholder` ('Select Option', requirements §9). */
    placeholder: z.optional(z.string()),
  }),
});
type SelectBlock = z.infer<typeof SelectBlockSchema>;

/** The select block's definition: one answer among the options, or a list of them (at most `maxLength`). */
export const select: BlockDefinition<SelectBlock> = {
  fields: (block) => [[block.data.path, { kind: block.data.multiple ? 'list' : 'choice', options: block.data.options.map((option) => option.value) }]],
  targets: (block) => {
    const { path, multiple, maxLength, options } = block.data;
    const oneOf: Rule = { name: 'oneOf', options: options.map((option) => option.value) };
    return [{ path, rules: multiple && maxLength ? [oneOf, { name: 'maxLength', value: maxLength }] : [oneOf] }];
  },
  answers: (block) => [{ key: block.data.path, label: block.data.label }],
};
