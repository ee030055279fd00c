import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../tests/factories/application';
import { ALLOWED_ELEMENTS, sanitizeConfig, sanitizeConfigHtml } from './sanitize-html';
import { BLOCK_SCHEMAS, blockDefinition, type Block } from './blocks';
import { configHtml } from './schema-parts';

/** What a browser ignores before a URL's scheme: the C0 controls and the space. */
// eslint-disable-next-line no-control-regex
const CONTROLS_AND_SPACE = /[\u0000-\u0020]/g;

/** Every element and attribute name in `html`, as a parser reads it. */
function namesIn(html: string): { tags: string[]; attributes: string[]; urls: string[] } {
  const found = { tags: [] as string[], attributes: [] as string[], urls: [] as string[] };
  const parser = new Parser({
    onopentag(name, attributes) {
      found.tags.push(name);
      found.attributes.push(...Object.keys(attributes));
      found.urls.push(...[attributes.href, attributes.src].filter((url) => url !== undefined));
    },
  });
  parser.end(html);
  return found;
}

describe('sanitizeConfigHtml', () => {
  it.each([
    ['<h1>Welcome</h1><script>alert(1)</script>', '<h1>Welcome</h1>'],
    // Void elements are written as sanitize-html writes them (`<img … />`): the same element to every HTML parser.
    ['<img src="/a.png" onerror="alert(1)" alt="A">', '<img src="/a.png" alt="A" />'],
    ['<img src="data:image/svg+xml,<svg onload=alert(1)>" alt="A">', '<img alt="A" />'],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="java&#x09;script:alert(1)">x</a><a href=" JAVASCRIPT:alert(1)">y</a>', '<a>x</a><a>y</a>'],
    ['<a href="data:text/html,<script>alert(1)</script>">x</a>', '<a>x</a>'],
    ['<p>Read <a href="https://e.example/t">terms</a></p>', '<p>Read <a href="https://e.example/t" target="_blank" rel="noopener noreferrer">terms</a></p>'],
    ['<a target="_self" href="/p" rel="opener">p</a>', '<a target="_blank" href="/p" rel="noopener noreferrer">p</a>'],
    ['<svg><script>alert(1)</script></svg><math><mi>x</mi></math>ok', 'ok'],
    ['<style>*{}</style><iframe src="/x"></iframe><noscript><p title="</noscript><img src=x onerror=alert(1)>"></p></noscript>', ''],
    ['<!-- a comment --><p>a &amp; b &lt;c&gt;&nbsp;"d"</p>', '<p>a &amp; b &lt;c&gt;&nbsp;"d"</p>'],
    ['<p title="a&quot;b" style="color:red" id="x" class="c" data-k="v" aria-label="l">t</p>', '<p title="a&quot;b" class="c" data-k="v" aria-label="l">t</p>'],
    ['<font color="red"><b>kept</b></font><br/><hr>', '<b>kept</b><br /><hr />'],
    ['<form action="/x"><input name="a"><button>Go</button>text</form>', 'text'],
    ['<p title="--><img src=x onerror=alert(1)>">t</p>', '<p>t</p>'],
    ['<strong>{email}</strong>', '<strong>{email}</strong>'],
  ])('%s → %s', (input, output) => {
    expect(sanitizeConfigHtml(input)).toBe(output);
  });

  it('keeps every element of the allow-list with the attributes it lists', () => {
    for (const [tag, attributes] of Object.entries(ALLOWED_ELEMENTS)) {
      const named = [...attributes.filter((name) => name !== 'target' && name !== 'rel'), 'class', 'lang', 'data-k', 'aria-label'];
      const html = `<${tag} ${named.map((name) => `${name}="/v"`).join(' ')}>`;
      const { tags, attributes: kept } = namesIn(sanitizeConfigHtml(html));
      expect(tags).toEqual([tag]);
      expect(kept.filter((name) => name !== 'target' && name !== 'rel')).toEqual(named);
    }
  });

  it('leaves its own output as it is, and keeps only allowed elements and attributes, whatever the input', () => {
    const piece = fc.oneof(
      fc.constantFrom('<', '>', '"', "'", '=', '/', '&', '&amp;', '&lt;', '&#x3C;', '<!--', '-->', ' ', '\t', '\u00a0', 'javascript:', 'https://x/'),
      fc.constantFrom('script', 'a', 'img', 'p', 'svg', 'style', 'h1', 'iframe', 'href', 'src', 'onerror', 'title', 'noscript', 'textarea', 'math'),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 40 }).map((parts) => parts.join('')),
        (input) => {
          const output = sanitizeConfigHtml(input);
          expect(sanitizeConfigHtml(output)).toBe(output);
          const { tags, attributes, urls } = namesIn(output);
          expect(tags.filter((tag) => ['script', 'style', 'svg', 'math', 'iframe', 'noscript', 'textarea'].includes(tag))).toEqual([]);
          expect(attributes.filter((name) => name.startsWith('on') || name === 'style')).toEqual([]);
          const scheme = (url: string) => url.replace(CONTROLS_AND_SPACE, '');
          expect(urls.filter((url) => /^[a-z][a-z0-9+.-]*:/i.test(scheme(url)) && !/^(https?|mailto|tel):/i.test(scheme(url)))).toEqual([]);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('sanitizeConfig', () => {
  it('sanitises HTML blocks, checkbox labels and step footers, and nothing else', () => {
    const config = defaultConfig();
    config.steps[0]!.footer = '<p onclick="x()">Footer</p>';
    config.steps[0]!.blocks.push({ component: 'checkbox', data: { path: 'fields.agree', label: 'I <b>agree</b><script>x()</script>' } });
    const clean = sanitizeConfig(config);
    expect(clean.steps[0]!.footer).toBe('<p>Footer</p>');
    expect(clean.steps[0]!.blocks.at(-1)).toEqual({ component: 'checkbox', data: { path: 'fields.agree', label: 'I <b>agree</b>' } });
    expect(clean.steps[1]).toEqual(config.steps[1]);
    expect(config.steps[0]!.footer).toBe('<p onclick="x()">Footer</p>');
  });

  it("sanitises every block's HTML: each data key a block's schema reads as configuration HTML is one its definition lists", () => {
    for (const schema of BLOCK_SCHEMAS) {
      const component = schema.shape.component.def.values[0] as Block['component'];
      const dataShape = schema.shape.data.shape as Record<string, unknown>;
      // The HTML schema itself, or wrapped (optional, nullable, a default), as `footer` is.
      const isHtml = (part: unknown): boolean => {
        const inner = (part as { def?: { innerType?: unknown } } | undefined)?.def?.innerType;
        return part === configHtml || (inner !== undefined && isHtml(inner));
      };
      const html = Object.keys(dataShape).filter((key) => isHtml(dataShape[key]));
      expect({ component, html }).toEqual({ component, html: [...blockDefinition({ component } as Block).htmlData] });
    }
  });
});
