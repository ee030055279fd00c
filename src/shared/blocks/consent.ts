import { z } from '../schema-parts';
import type { BlockDefinition } from './block';
import { configHtml, YES_OR_NO_OPTIONS } from '../schema-parts';
import { yesNoChoices } from './yes-no';

/** The payload group consents travel under: `consents.{purpose}`, `true` given, `false` not. */
export const CONSENTS_GROUP = 'consents';

/** A consent's purpose: a name of letters, digits, `_` and `-` (`marketing`, `adDisclosure`), its key in the payload and in its records. */
export const CONSENT_PURPOSE_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;

/**
 * A consent (requirements §21; docs/privacy.md, "Consents"): a checkbox whose label is the text the
 * applicant agrees to, for one `purpose`; `required` (an acknowledgement the page cannot take an
 * application without: the ad-disclosure rules, say) or optional (given or not, both recorded).
 * The server keeps, per application and purpose, the exact text shown and its SHA-256, the page
 * version, the language, the time, given or not, and the privacy notice's version (GDPR Article
 * 7(1): the controller shall be able to demonstrate consent).
 */
export const ConsentBlockSchema = z.strictObject({
  component: z.literal('consent'),
  data: z.strictObject({
    purpose: z.string().check(z.regex(CONSENT_PURPOSE_PATTERN, 'expected 1-40 letters, digits, _ or -, starting with a letter')),
    label: configHtml,
    required: z._default(z.boolean(), false),
  }),
});
type ConsentBlock = z.infer<typeof ConsentBlockSchema>;

/** The form-value path of a consent: `consents.{purpose}`. */
export const consentPath = (purpose: string) => `${CONSENTS_GROUP}.${purpose}`;

/** The consent block's definition: a boolean under `consents`, always sent (given or not); `required` makes it one the page cannot do without. */
export const consent: BlockDefinition<ConsentBlock> = {
  fields: (block) => [[consentPath(block.data.purpose), { kind: 'boolean' }]],
  targets: (block) => [
    {
      path: consentPath(block.data.purpose),
      rules: [...(block.data.required ? [{ name: 'required' as const }] : []), { name: 'oneOf' as const, options: YES_OR_NO_OPTIONS }],
    },
  ],
  initialValues: (block) => [[consentPath(block.data.purpose), false]],
  answers: (block) => [{ key: consentPath(block.data.purpose), label: block.data.label }],
  answerOutsideFields: true,
  group: CONSENTS_GROUP,
  shownUnconditionally: (block) => [consentPath(block.data.purpose)],
  reservedPath: (segments, component) =>
    component !== 'consent' && segments[0] === CONSENTS_GROUP
      ? `"${segments.join('.')}" is a consent's: only a consent block's answer sits under "consents."`
      : undefined,
  check(block, at, problem, page) {
    const path = consentPath(block.data.purpose);
    const index = page.formItemIndex(path);
    if (index >= 0)
      problem(`formItems[${index}].path`, `"${path}" is a consent: its block says whether it is required, and it shows always`, 'remove this item');
  },
  htmlData: ['label'],
  choices: (_block, messages) => yesNoChoices(messages),
};
