import { MAX_FIELD_KEY_LENGTH, MAX_LONG_TEXT_LENGTH } from '../rules';
import { z } from '../schema-parts';
import type { BlockDefinition, Choice, PageField } from './block';
import type { Messages } from '../messages';
import { nonEmpty, YES_OR_NO_OPTIONS } from '../schema-parts';

/** A yes/no radio group at `{path}.value` with a text box at `{path}.text` (requirements §4). */
export const YesNoBlockSchema = z.strictObject({
  component: z.literal('yesNo'),
  data: z.strictObject({
    path: nonEmpty,
    label: nonEmpty,
    textLabel: nonEmpty,
    textPlaceholder: z.optional(z.string()),
  }),
});
type YesNoBlock = z.infer<typeof YesNoBlockSchema>;

/** The two form-value paths of a yes/no block at `path`: the answer and its text. */
export function yesNoPaths(path: string): { value: string; text: string } {
  return { value: `${path}.value`, text: `${path}.text` };
}

/** The stored `Yes` and `No` of a yes/no answer or a checkbox (requirements §7), named as the page's messages (HTML) say them. */
export const yesNoChoices = (messages: Messages): Choice[] => [
  { value: 'Yes', name: messages.yes, html: true },
  { value: 'No', name: messages.no, html: true },
];

/** The yes/no block's definition: 'No' is an answer; the text box is asked, and required, while the answer is Yes. */
export const yesNo: BlockDefinition<YesNoBlock> = {
  fields: (block): [string, PageField][] => {
    const paths = yesNoPaths(block.data.path);
    return [
      [paths.value, { kind: 'boolean' }],
      [paths.text, { kind: 'text' }],
    ];
  },
  targets: (block) => {
    const paths = yesNoPaths(block.data.path);
    return [
      { path: paths.value, rules: [{ name: 'oneOf', options: YES_OR_NO_OPTIONS }], yesNo: true },
      {
        // The text box shows, and is required, only while the answer is Yes (requirements §4).
        path: paths.text,
        rules: [{ name: 'maxLength', value: MAX_LONG_TEXT_LENGTH }],
        condition: { path: paths.value, equals: true },
        conditional: true,
      },
    ];
  },
  answers: (block) => {
    const paths = yesNoPaths(block.data.path);
    return [
      { key: paths.value, label: block.data.label },
      { key: paths.text, label: block.data.textLabel },
    ];
  },
  check: (block, at, problem) => {
    const { value } = yesNoPaths(block.data.path);
    if (value.length - 'fields.'.length > MAX_FIELD_KEY_LENGTH) {
      problem(`${at}.data.path`, `"${value}" is longer than ${MAX_FIELD_KEY_LENGTH} characters after "fields."`, 'use a shorter path');
    }
  },
  shownUnconditionally: (block) => [yesNoPaths(block.data.path).value],
  htmlData: [],
  choices: (_block, messages) => yesNoChoices(messages),
};
