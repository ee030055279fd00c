import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes } from './page';

const sha256 = (code: string) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`;

describe('inlineScriptHashes', () => {
  it("allows the page's inline scripts by their hash, and nothing for script files or JSON data", () => {
    const template = [
      '<head><script type="module" crossorigin src="/assets/a.js"></script><!--wizard-config--></head>',
      '<body><script type="application/json" id="x">{"a":1}</script>',
      '<script type="module">import("/assets/main.js")</script>',
      '<script>\n  one();\n</script></body>',
    ].join('');
    expect(inlineScriptHashes(template)).toEqual([sha256('import("/assets/main.js")'), sha256('\n  one();\n')]);
  });

  it('is empty for a page without inline scripts', () => {
    expect(inlineScriptHashes('<html><head><title>t</title></head><body></body></html>')).toEqual([]);
  });
});
