import { Parser } from 'htmlparser2';
import type { Block, WizardConfig } from './config';

/**
 * The sanitiser of configuration HTML (issue 12: sanitised once, when the server builds the page).
 * The server cleans every HTML field of the configuration when it starts; it renders the first
 * step from the clean copy and inlines that copy into the page, so the browser renders configuration
 * HTML as it receives it, and the server's markup and the browser's are the same by construction.
 * (`npm run dev`, without the server, runs it in the browser on the configuration it reads.)
 *
 * Built on htmlparser2's tokenizer, never on string matching, and it writes its own output rather
 * than editing the input: only the elements and attributes of an allow-list, every text and
 * attribute value escaped as a browser's `innerHTML` escapes it, so whatever a browser's parser
 * makes of the result, it can make no other element or attribute of it. Removed with everything
 * inside: scripts, styles, templates, embedded documents, SVG and MathML, form controls; comments
 * too. Other elements outside the list are dropped and their content kept. URLs (`href`, `src`)
 * keep only paths and http, https, mailto and tel. Every link opens in a new tab (`target="_blank"`,
 * `rel="noopener noreferrer"`), so a privacy-policy link never takes the applicant away from a
 * half-filled form. The rules follow DOMPurify's defaults, which sanitised this HTML in the browser
 * before; its output is a subset of theirs.
 */

/** Elements kept, with the attributes each may carry besides {@link GLOBAL_ATTRIBUTES}. */
const ELEMENTS: Record<string, readonly string[]> = {
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
const GLOBAL_ATTRIBUTES = new Set(['class', 'title', 'lang', 'dir']);
/** `aria-*` and `data-*` attributes are kept. */
const PREFIXED_ATTRIBUTE = /^(?:aria|data)-[a-z0-9_.-]+$/;
/** Removed with their content (what a browser would run, embed or parse as another language). */
const DROPPED_WITH_CONTENT = new Set([
  'script', 'style', 'template', 'noscript', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'svg', 'math', 'textarea',
  'title', 'xmp', 'noembed', 'noframes', 'plaintext', 'select', 'option', 'optgroup', 'button', 'input', 'head', 'meta', 'link', 'base',
]);
const VOID_ELEMENTS = new Set(['br', 'hr', 'img']);
/** URL schemes a link or image may use; a URL without a scheme (a path) is kept. */
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);
/** Attribute values removed whole, as DOMPurify removes them: markup that could end an element of another parser. */
const BREAKOUT = /\/>|--!?>|\]>|<\/(?:style|title|textarea)/i;

/** Escapes text as a browser's `innerHTML` does: `&`, `<`, `>` and no-break spaces. */
const escapeText = (text: string) =>
  text.replace(/[&<>\u00a0]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&nbsp;'));
/** Escapes an attribute value as a browser's `innerHTML` does (quotes, `&`, `<`, `>`, no-break spaces). */
const escapeAttribute = (value: string) =>
  value.replace(/[&"<>\u00a0]/g, (c) => (c === '&' ? '&amp;' : c === '"' ? '&quot;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&nbsp;'));

/** Whether a URL is a path or uses a safe scheme, read as a browser reads it (tabs, newlines and controls ignored). */
function isSafeUrl(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value.replace(/[\u0000-\u0020]/g, ''))?.[1];
  return scheme === undefined || SAFE_SCHEMES.has(scheme.toLowerCase());
}

function keptAttributes(tag: string, attributes: Record<string, string>): [string, string][] {
  const allowed = ELEMENTS[tag]!;
  const kept: [string, string][] = [];
  for (const [name, raw] of Object.entries(attributes)) {
    const value = name === 'value' ? raw : raw.trim();
    if (!GLOBAL_ATTRIBUTES.has(name) && !allowed.includes(name) && !PREFIXED_ATTRIBUTE.test(name)) continue;
    if (BREAKOUT.test(value)) continue;
    if ((name === 'href' || name === 'src') && !isSafeUrl(value)) continue;
    kept.push([name, value]);
  }
  if (tag === 'a' && kept.some(([name]) => name === 'href')) {
    // Links open a new tab (the attribute set in place, or appended).
    for (const [name, value] of [['target', '_blank'], ['rel', 'noopener noreferrer']] as const) {
      const existing = kept.find(([attribute]) => attribute === name);
      if (existing) existing[1] = value;
      else kept.push([name, value]);
    }
  }
  return kept;
}

/**
 * Sanitises one piece of configuration HTML (see the module's description).
 * @param html - untrusted HTML from the configuration.
 * @returns HTML holding only allowed elements and attributes, escaped as a browser serialises it.
 */
export function sanitizeConfigHtml(html: string): string {
  let out = '';
  // Depth of elements inside something dropped with its content (0: not inside one).
  let dropDepth = 0;
  // For every open element, whether its tags were written.
  const open: boolean[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (dropDepth > 0 || DROPPED_WITH_CONTENT.has(name)) {
          dropDepth += 1;
          open.push(false);
          return;
        }
        const kept = ELEMENTS[name] !== undefined;
        open.push(kept);
        if (kept) out += `<${name}${keptAttributes(name, attributes).map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`).join('')}>`;
      },
      onclosetag(name) {
        const written = open.pop();
        if (dropDepth > 0) {
          dropDepth -= 1;
          return;
        }
        if (written && !VOID_ELEMENTS.has(name)) out += `</${name}>`;
      },
      ontext(text) {
        if (dropDepth === 0) out += escapeText(text);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return out;
}

function sanitizeBlock(block: Block): Block {
  if (block.component === 'html') return { ...block, data: { ...block.data, html: sanitizeConfigHtml(block.data.html) } };
  if (block.component === 'checkbox') return { ...block, data: { ...block.data, label: sanitizeConfigHtml(block.data.label) } };
  return block;
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
  };
}
