import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FONT_RANGES, codePoints } from './generate-font';

// Paths, not `new URL(…, import.meta.url)`: Vite would take a style sheet or font so named for an asset of the test.
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const css = readFileSync(join(root, 'src/wizard/styles.css'), 'utf8');
const faces = [...css.matchAll(/@font-face\s*{([^}]*)}/g)].map(([, body]) => body!);

describe('the web font', () => {
  it('styles.css declares each generated file with the ranges it was cut to, swapped in, never waited for', () => {
    for (const [name, ranges] of Object.entries(FONT_RANGES)) {
      const face = faces.find((body) => body.includes(`fonts/nunito-${name}.woff2`));
      expect(face, name).toBeDefined();
      expect(face).toContain(`unicode-range: ${ranges.join(', ')};`);
      expect(face).toContain('font-display: swap;');
    }
  });

  it('is subset: the Latin file every page loads stays within 32 KiB, the extension within 16 KiB', () => {
    expect(statSync(join(root, 'src/wizard/fonts/nunito-latin.woff2')).size).toBeLessThanOrEqual(32 * 1024);
    expect(statSync(join(root, 'src/wizard/fonts/nunito-latin-ext.woff2')).size).toBeLessThanOrEqual(16 * 1024);
  });

  it('reads unicode ranges as code points', () => {
    expect(codePoints(['U+0041-0043', 'U+2026'])).toEqual([0x41, 0x42, 0x43, 0x2026]);
  });
});
