import { configHtml, z } from '../schema-parts';
import type { BlockDefinition } from './block';
import { EMAIL_PATH } from './personal-info';

/** Sanitised HTML: a headline, an intro, a thank-you. `{email}` shows the e-mail entered (requirements §2). */
export const HtmlBlockSchema = z.strictObject({
  component: z.literal('html'),
  data: z.strictObject({ html: configHtml }),
});
type HtmlBlock = z.infer<typeof HtmlBlockSchema>;

/** The html block's definition: it asks nothing, and reads the e-mail address for `{email}`. */
export const html: BlockDefinition<HtmlBlock> = {
  fields: () => [],
  targets: () => [],
  answers: () => [],
  reads: [EMAIL_PATH],
  shownHtml: (block) => block.data.html,
  htmlData: ['html'],
};
