import { z } from '../schema-parts';
import { MAX_LONG_TEXT_LENGTH } from '../rules';
import type { BlockDefinition, Rule } from './block';
import { nonEmpty } from '../schema-parts';

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
  check: (block, at, problem) => {
    if (block.data.multiple === true) {
      const picks = block.data.options
        .map((option) => option.value.length)
        .sort((x, y) => y - x)
        .slice(0, block.data.maxLength ?? block.data.options.length);
      const longest = picks.reduce((sum, length) => sum + length, 0) + 2 * Math.max(0, picks.length - 1);
      if (longest > MAX_LONG_TEXT_LENGTH) {
        problem(
          `${at}.data.options`,
          `the options picked together make ${longest} characters, more than an answer's ${MAX_LONG_TEXT_LENGTH}`,
          'use shorter option values, or a maxLength',
        );
      }
    }
    const values = new Set<string>();
    block.data.options.forEach((option, o) => {
      if (values.has(option.value))
        problem(`${at}.data.options[${o}].value`, `the option value "${option.value}" is listed twice`, 'give each option its own value');
      if (option.value !== option.value.trim())
        problem(
          `${at}.data.options[${o}].value`,
          `the option value ${JSON.stringify(option.value)} has spaces around it, which answers lose`,
          'remove the spaces',
        );
      values.add(option.value);
    });
    const names = new Set<string>();
    block.data.options.forEach((option, o) => {
      if (names.has(option.name))
        problem(
          `${at}.data.options[${o}].name`,
          `the option name "${option.name}" is listed twice, so applicants cannot tell the two apart`,
          'give each option its own name',
        );
      const clash =
        block.data.multiple === true
          ? joinedOptions(
              option.value,
              block.data.options.map((other) => other.value),
            )
          : undefined;
      if (clash) {
        problem(
          `${at}.data.options[${o}].value`,
          `the option value "${option.value}" reads as "${clash}" and more: a multi-select's answers are joined with ", " in the payload`,
          'use a value without ", "',
        );
      }
      names.add(option.name);
    });
    if (block.data.multiple !== true && block.data.maxLength !== undefined) {
      problem(`${at}.data.maxLength`, 'maxLength limits a multi-select only', 'remove it, or set "multiple": true');
    }
  },
  htmlData: [],
  choices: (block) => block.data.options.map((option) => ({ value: option.value, name: option.name })),
};

/**
 * An option value that holds ", " and reads as other options joined (`Thinking Putty, Slime
 * Charmers` beside both): a multi-select's answer is its values joined with ", " (requirements §7), so that
 * answer could be read either way. `Glow, in the dark` beside neither is read whole.
 * @returns the first other option found inside it, or undefined.
 */
function joinedOptions(value: string, values: readonly string[]): string | undefined {
  const pieces = value.split(', ');
  for (let start = 0; start < pieces.length; start++) {
    for (let end = start + 1; end <= pieces.length; end++) {
      if (start === 0 && end === pieces.length) continue;
      const part = pieces.slice(start, end).join(', ');
      if (values.includes(part)) return part;
    }
  }
  return undefined;
}
