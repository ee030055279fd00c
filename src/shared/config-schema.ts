import { PageEmailsSchema } from './emails';
import { RetentionSchema } from './retention';
import { AgeScreenSchema } from './age';
import { z } from './zod';
import { DEFAULT_MESSAGES, resolveMessages } from './messages';
import { BLOCK_SCHEMAS, type Block } from './blocks';
import { FormItemSchema } from './form-items';
import { configHtml, nonEmpty } from './schema-parts';
import { listedSubdivisions } from './blocks/personal-info';
import { srcsetUrls } from './cover-image';
import { httpUrlProblem, sitePathProblem, urlOrPathProblem } from './urls';

export { PERSONAL_INFO_FIELDS, type PersonalInfoField } from './blocks/personal-info';
export { SelectOptionSchema, type SelectOption } from './blocks/select';
export * from './form-items';

/**
 * The wizard configuration (requirements §3 "Wizard configuration", requirements §14): the one
 * schema the wizard renders from, the server checks at start-up, and
 * `config/wizard.schema.json` is generated from.
 */

/** A colour as `#rgb` or `#rrggbb` (CSS Color 4 hex notation): nothing else reaches the page's style sheet. */
const hexColour = z.string().check(z.regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'expected a hex colour such as #5a2d82'));

/** Any block of the component registry. */
export const BlockSchema = z.discriminatedUnion('component', BLOCK_SCHEMAS);
export type { Block } from './blocks';
export type BlockOf<C extends Block['component']> = Extract<Block, { component: C }>;

/** A wizard step (requirements §3). */
export const StepSchema = z.strictObject({
  name: nonEmpty,
  blocks: z.array(BlockSchema),
  /** HTML under the step's content, sanitised. */
  footer: z.optional(configHtml),
  styles: z.optional(z.strictObject({ grayBg: z.optional(z.boolean()) })),
  hideConfirmButton: z.optional(z.boolean()),
  continueButtonText: z.optional(z.string()),
});
export type Step = z.infer<typeof StepSchema>;

/**
 * A check that adds the problem `problemOf` finds in a text (src/shared/urls.ts) as an issue with
 * its own words, once the text has the form `pattern` says (whose own issue says that much).
 */
const ruled = (pattern: RegExp, problemOf: (text: string) => string | undefined) =>
  z.superRefine((text: string, context) => {
    if (!pattern.test(text)) return;
    const message = problemOf(text);
    if (message) context.addIssue({ code: 'custom', message, input: text });
  });

/**
 * An http(s) URL that parses and whose host is a host name (`httpUrlProblem`): `https://` alone,
 * `https://a b`, `https://*` or `https://a.example;x` is not (the pattern stays for
 * config/wizard.schema.json, which cannot say "parses").
 */
const HTTP_URL = /^https?:\/\//;
const httpUrl = (message: string) => z.string().check(z.regex(HTTP_URL, message), ruled(HTTP_URL, httpUrlProblem));

/** A path on this site (`/uploads/…`; not `//host` or `/\host`), or an http(s) URL as {@link httpUrl} takes (`urlOrPathProblem`). */
const URL_OR_PATH = 'expected an http(s) URL or a path starting with /';
const URL_OR_PATH_PATTERN = /^(?:https?:\/\/|\/)/;
const httpUrlOrPath = z.string().check(z.regex(URL_OR_PATH_PATTERN, URL_OR_PATH), ruled(URL_OR_PATH_PATTERN, urlOrPathProblem));

/** Why a `srcset` holds a candidate URL that {@link httpUrlOrPath} would refuse, naming the first. */
function srcsetProblem(srcset: string): string | undefined {
  for (const url of srcsetUrls(srcset)) {
    const problem = urlOrPathProblem(url);
    if (problem) return `${problem}, in the candidate ${JSON.stringify(url)}`;
  }
  return undefined;
}

/**
 * A cover image: a URL, or `{ src, srcset }` so the browser picks the file of
 * the size shown (`srcset` in the HTML syntax: `/a-480.webp 480w, /a-960.webp 960w`).
 */
export const CoverImageSchema = z.union([
  httpUrlOrPath,
  z.strictObject({
    src: httpUrlOrPath,
    srcset: nonEmpty.check(ruled(/(?:)/, srcsetProblem)),
  }),
]);

/**
 * Why a `requestUrl` has no form a page may send to: `""` (nothing is sent), a path on this site
 * (`sitePathProblem`; the checks then want the page's own submit path), or an http(s) URL
 * (`httpUrlProblem`; the server then wants its origin among those the operator allows).
 */
function requestUrlProblem(text: string): string | undefined {
  if (text === '') return undefined;
  if (text.startsWith('/')) return sitePathProblem(text);
  if (HTTP_URL.test(text)) return httpUrlProblem(text);
  return 'expected "" (nothing is sent), a path on this server (/api/syncPage/…) or an http(s) URL';
}
export type CoverImage = z.infer<typeof CoverImageSchema>;

/** The whole wizard configuration (requirements §3, requirements §14). */
export const WizardConfigSchema = z.strictObject({
  $schema: z.optional(z.string()),
  title: nonEmpty,
  /**
   * The page's `<meta name="description">`, what search results show under the title;
   * default: the text of the first step's HTML, cut to 160 characters, or the title.
   */
  description: z.optional(z.string().check(z.maxLength(300))),
  lang: z.string().check(z.regex(/^[a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{2,8})*$/, 'expected a BCP 47 language tag')),
  pageId: z.string().check(z.regex(/^[a-zA-Z0-9_-]{1,64}$/, 'expected 1-64 letters, digits, - or _')),
  /**
   * Where the application is sent; default `/api/syncPage/{pageId}`; '' submits nothing. A path is
   * this server's (the page's own submit path: config-checks.ts); another site's URL only when the
   * operator allows its origin (`SUBMIT_ORIGINS_ALLOWED`: `submitOriginProblem` in urls.ts, at
   * publish and at start).
   */
  requestUrl: z.optional(z.string().check(ruled(/(?:)/, requestUrlProblem))),
  /** The provider's creator sign-up page, the final redirect. */
  signUpUrl: httpUrlOrPath,
  steps: z.array(StepSchema).check(z.minLength(2)),
  formItems: z._default(z.array(FormItemSchema), []),
  footerLinks: z._default(z.array(z.strictObject({ text: nonEmpty, url: httpUrlOrPath })), []),
  logo: z.optional(httpUrlOrPath),
  showLogo: z._default(z.boolean(), true),
  centerLogo: z._default(z.boolean(), false),
  centerFooterText: z._default(z.boolean(), false),
  coverImages: z._default(z.array(CoverImageSchema), []),
  singleCoverImg: z.optional(CoverImageSchema),
  buttonText: z._default(
    z.strictObject({
      continue: z.optional(z.string()),
      signIn: z.optional(z.string()),
      /** The button of the step that sends the application (`sendingStepIndex`); default "Submit application". */
      submit: z.optional(z.string()),
      back: z.optional(z.string()),
    }),
    {},
  ),
  /**
   * The page's own names of states and provinces (requirements §3 Lists), by ISO 3166-2 code (`US-CA`,
   * `CA-QC`): a page in another language names them in it, "Californie", "Québec". A code
   * left out keeps its English name (country-region-data).
   */
  subdivisionNames: z.optional(
    z.partialRecord(z.enum(listedSubdivisions().map(({ country, code }) => `${country}-${code}`) as [string, ...string[]]), nonEmpty),
  ),
  submitErrorText: z.optional(z.string()),
  skipFinalStep: z._default(z.boolean(), false),
  styleConfig: z._default(
    z.strictObject({
      backButtonStyle: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))),
      backArrowStyle: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))),
      /**
       * The brand's theme tokens, set as CSS custom properties: `primary` (buttons, the
       * step bar, links, focus of choices), `surface` (the page's background), `text`, as hex colours
       * (`#5a2d82`), and `radius` of controls and buttons in CSS pixels. Every other colour of the
       * page is mixed from them; the contrasts are checked (WCAG 2.2, 1.4.3).
       */
      theme: z.optional(
        z.strictObject({
          primary: z.optional(hexColour),
          surface: z.optional(hexColour),
          text: z.optional(hexColour),
          radius: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(32))),
        }),
      ),
    }),
    {},
  ),
  /** Where answers are kept as a draft while the applicant types: sessionStorage (default), localStorage, or not at all. */
  drafts: z._default(z.enum(['session', 'local', 'off']), 'session'),
  /**
   * Offers the applicant a link by e-mail to continue on another device (requirements §22): their
   * draft kept on the server, sealed, for 7 days, only when they ask. On by default; never with
   * `drafts: "off"` (a page that keeps no draft).
   */
  resumeLink: z._default(z.boolean(), true),
  /**
   * The messages sent to applicants (requirements §18, docs/email.md): the confirmation of a stored
   * application (on by default) and the e-mails of a decision (off by default), each with its subject
   * and body in the page's language.
   */
  emails: PageEmailsSchema,
  /** The page's privacy notice, linked from every e-mail to an applicant (requirements §18). */
  privacyUrl: z.optional(httpUrlOrPath),
  /** The privacy notice's version (`2026-11`, `v3`): kept with each consent record (requirements §21). */
  privacyVersion: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  /** How long its applications are kept, in months: declined ones after the decision (6), others after they arrived (24) (requirements §19, docs/privacy.md). */
  retention: RetentionSchema,
  /**
   * The neutral age screen (requirements §20, docs/privacy.md): the month and year of birth asked after
   * the first step and before anything about the person; absent = none (the flow of requirements §4).
   */
  ageScreen: z.optional(AgeScreenSchema),
  /** Analytics (requirements §7): absent = none. */
  analytics: z.optional(z.strictObject({ token: nonEmpty, host: httpUrl('expected an http(s) URL') })),
  /** Error reporting (requirements §7): absent = none. */
  errorReporting: z.optional(z.strictObject({ dsn: httpUrl('expected a DSN URL') })),
  /**
   * Overrides of the wizard's texts (requirements §14), any of {@link DEFAULT_MESSAGES}' keys. Parsed into
   * the complete catalogue, defaults filled in: the server inlines it so, and the browser ships no
   * defaults of its own (the page's first JavaScript no larger than before).
   */
  messages: z.pipe(
    z.optional(z.partialRecord(z.enum(Object.keys(DEFAULT_MESSAGES) as [keyof typeof DEFAULT_MESSAGES]), z.string())),
    z.transform((overrides) => resolveMessages(overrides)),
  ),
});

/** A configuration as written (defaults not yet applied). */
export type WizardConfigInput = z.input<typeof WizardConfigSchema>;
/** A parsed configuration, defaults applied. */
export type WizardConfig = z.output<typeof WizardConfigSchema>;

/** One problem found in a configuration: its JSON path and what is wrong. */
export interface ConfigProblem {
  /** JSON path such as `steps[2].blocks[0].data.options`. */
  path: string;
  message: string;
  /** What to do about it. */
  hint: string;
}

/** Names of the block components (the registry, requirements §14). */
export const BLOCK_COMPONENTS = BlockSchema.def.options.map((option) => option.shape.component.def.values[0] as Block['component']);
