import sanitizeHtml, { type IOptions, type Transformer } from 'sanitize-html';
import type { Block, WizardConfig } from './config';
import { blockDefinition } from './blocks';

/**
 * The sanitiser of configuration HTML (sanitised once, when the server builds the page),
 * and the one place its allow-list is written down.
 *
 * The server cleans every HTML field of the configuration when it starts; it renders the first step
 * from the clean copy and inlines that copy into the page, so the browser renders configuration HTML
 * as it receives it, and the server's markup and the browser's are the same by construction. The
 * browser never sanitises and never loads this module (`npm run dev` inlines the cleaned
 * configuration from Vite's dev server, which runs in Node).
 *
 * The work is done by the `sanitize-html` library (htmlparser2 underneath): it writes its own output
 * from what it parsed, keeping only the elements and attributes of the allow-list below, every text
 * and attribute value escaped. The policy, kept close to DOMPurify's defaults that sanitised this
 * HTML in the browser before (a subset of what they keep):
 * - elements: {@link ALLOWED_ELEMENTS}; others are dropped and their content kept, except
 *   {@link DROPPED_WITH_CONTENT} (scripts, styles, templates, embedded documents, SVG and MathML,
 *   form controls), removed with everything inside; comments are removed;
 * - attributes: {@link GLOBAL_ATTRIBUTES} and `aria-*`/`data-*` on every kept element, plus the few
 *   each element lists; a value that could end an element of another parser (`-->`, `/>`, `]>`,
 *   `</style`…) removes the attribute, as DOMPurify does;
 * - URLs (`href`, `src`): paths and {@link ALLOWED_SCHEMES} only, read as a browser reads them
 *   (`java&#x09;script:` is `javascript:`);
 * - every link that keeps its `href` opens in a new tab with `target="_blank"` and
 *   `rel="noopener noreferrer"`, so a privacy-policy link never takes the applicant away from a
 *   half-filled form.
 * Widening the policy is a change to this module and its tests.
 */

/** Elements kept, with the attributes each may carry besides {@link GLOBAL_ATTRIBUTES}. */
export const ALLOWED_ELEMENTS: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'target', 'rel', 'hreflang'],
  abbr: [],
  b: [],
  blockquote: [],
  br: [],
  cite: [],
  code: [],
  dd: [],
  del: [],
  div: [],
  dl: [],
  dt: [],
  em: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  hr: [],
  i: [],
  img: ['src', 'alt', 'width', 'height', 'loading', 'decoding'],
  ins: [],
  kbd: [],
  li: ['value'],
  mark: [],
  ol: ['start', 'reversed', 'type'],
  p: [],
  q: [],
  s: [],
  small: [],
  span: [],
  strong: [],
  sub: [],
  sup: [],
  time: ['datetime'],
  u: [],
  ul: [],
};
/** Attributes every kept element may carry (`aria-*` and `data-*` too). */
export const GLOBAL_ATTRIBUTES: readonly string[] = ['class', 'title', 'lang', 'dir', 'aria-*', 'data-*'];
/** Removed with their content: what a browser would run, embed, submit or parse as another language. */
export const DROPPED_WITH_CONTENT: readonly string[] = [
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'svg',
  'math',
  'textarea',
  'title',
  'xmp',
  'noembed',
  'noframes',
  'plaintext',
  'select',
  'option',
  'optgroup',
  'button',
  'input',
  'head',
  'meta',
  'link',
  'base',
];
/** URL schemes a link or image may use; a URL without a scheme (a path) is kept. */
export const ALLOWED_SCHEMES: readonly string[] = ['http', 'https', 'mailto', 'tel'];
/** Attribute values removed whole, as DOMPurify removes them: markup that could end an element of another parser. */
const BREAKOUT = /\/>|--!?>|\]>|<\/(?:style|title|textarea)/i;

/** Leaves out every attribute whose value matches {@link BREAKOUT} (runs on every element before the allow-list). */
const dropBreakouts: Transformer = (tagName, attribs) => ({
  tagName,
  attribs: Object.fromEntries(Object.entries(attribs).filter(([, value]) => !BREAKOUT.test(value))),
});

/** The allow-list as `sanitize-html` options. */
const POLICY: IOptions = {
  allowedTags: Object.keys(ALLOWED_ELEMENTS),
  allowedAttributes: Object.fromEntries(Object.entries({ ...ALLOWED_ELEMENTS, '*': GLOBAL_ATTRIBUTES }).map(([tag, names]) => [tag, [...names]])),
  nonTextTags: [...DROPPED_WITH_CONTENT],
  disallowedTagsMode: 'discard',
  allowedSchemes: [...ALLOWED_SCHEMES],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: true,
  selfClosing: ['br', 'hr', 'img'],
  transformTags: { '*': dropBreakouts },
  // A no-break space is written `&nbsp;`, as a browser's innerHTML writes it.
  textFilter: (text) => text.replace(/\u00a0/g, '&nbsp;'),
};

/**
 * Links open a new tab. Applied to HTML that has been through {@link POLICY}, so an `href` that is
 * still there has passed the scheme check (a link whose URL was removed is no link, and gets none).
 */
const NEW_TAB: IOptions = {
  ...POLICY,
  transformTags: {
    a: (tagName, attribs) =>
      attribs.href === undefined ? { tagName, attribs } : { tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' } },
  },
};

/**
 * Sanitises one piece of configuration HTML by the module's allow-list (see the module's description).
 * @param html - untrusted HTML from the configuration.
 * @returns HTML holding only allowed elements, attributes and URLs, every text and value escaped;
 * sanitising it again returns it unchanged.
 */
export function sanitizeConfigHtml(html: string): string {
  return sanitizeHtml(sanitizeHtml(html, POLICY), NEW_TAB);
}

/** The block with every data key its definition says holds HTML ({@link BlockDefinition.htmlData}) sanitised. */
function sanitizeBlock(block: Block): Block {
  const keys = blockDefinition(block).htmlData;
  if (keys.length === 0) return block;
  const data: Record<string, unknown> = { ...block.data };
  for (const key of keys) if (typeof data[key] === 'string') data[key] = sanitizeConfigHtml(data[key]);
  return { ...block, data } as Block;
}

/**
 * The configuration with every HTML field sanitised by {@link sanitizeConfigHtml}: HTML blocks,
 * checkbox labels and step footers. The server renders the page from this copy and inlines it.
 * @param config - a parsed configuration; not modified.
 */
export function sanitizeConfig(config: WizardConfig): WizardConfig {
  return {
    ...config,
    steps: config.steps.map((step) => ({
      ...step,
      blocks: step.blocks.map(sanitizeBlock),
      ...(step.footer === undefined ? {} : { footer: sanitizeConfigHtml(step.footer) }),
    })),
    ...(config.ageScreen === undefined
      ? {}
      : {
          ageScreen: {
            ...config.ageScreen,
            ...(config.ageScreen.endedHtml === undefined ? {} : { endedHtml: sanitizeConfigHtml(config.ageScreen.endedHtml) }),
            ...(config.ageScreen.minorsHtml === undefined ? {} : { minorsHtml: sanitizeConfigHtml(config.ageScreen.minorsHtml) }),
          },
        }),
  };
}
