import { describe, expect, it } from 'vitest';
import { rawDefaultConfig } from '../../tests/factories/application';
import { parseWizardConfig } from './config';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { THEME_MIXES, themeContrastProblems } from './config-checks';
import { themeCss } from './theme';

describe('the theme tokens (styleConfig.theme)', () => {
  it('become CSS custom properties, and nothing but hex colours and a pixel radius gets there', () => {
    expect(themeCss(undefined)).toBe('');
    expect(themeCss({})).toBe('');
    expect(themeCss({ primary: '#0b6e4f', radius: 4 })).toBe(':root{--brand:#0b6e4f;--radius:4px}');
    expect(themeCss({ primary: '#123', surface: '#fffdf7', text: '#222', radius: 0 })).toBe(':root{--brand:#123;--surface:#fffdf7;--text:#222;--radius:0px}');
    const raw = rawDefaultConfig();
    for (const primary of ['red', '#12345', '#000;}body{display:none', 'url(x)']) {
      raw.styleConfig = { theme: { primary } };
      expect(
        parseWizardConfig(raw).problems?.map((problem) => problem.path),
        primary,
      ).toEqual(['styleConfig.theme.primary']);
    }
    raw.styleConfig = { theme: { radius: 40 } };
    expect(parseWizardConfig(raw).problems?.map((problem) => problem.path)).toEqual(['styleConfig.theme.radius']);
  });

  it('keep text readable: a theme under 4.5:1 is refused at the token to change (WCAG 2.2, 1.4.3)', () => {
    expect(themeContrastProblems({})).toEqual([]);
    expect(themeContrastProblems({ primary: '#0b6e4f', surface: '#fffdf7' })).toEqual([]);
    // A light primary: white button text and links both fail.
    expect(themeContrastProblems({ primary: '#ffcc00' }).map((problem) => problem.path)).toEqual(['styleConfig.theme.primary', 'styleConfig.theme.primary']);
    expect(themeContrastProblems({ text: '#999999' }).map((problem) => problem.path)).toEqual([
      'styleConfig.theme.text',
      'styleConfig.theme.text',
      'styleConfig.theme.text',
    ]);
    // A dark surface: the text, the primary and the error red all fail on it.
    expect(new Set(themeContrastProblems({ surface: '#111111' }).map((problem) => problem.path))).toEqual(
      new Set(['styleConfig.theme.text', 'styleConfig.theme.primary', 'styleConfig.theme.surface']),
    );
    const raw = rawDefaultConfig();
    raw.styleConfig = { theme: { primary: '#f0a0c0' } };
    const problems = parseWizardConfig(raw).problems ?? [];
    expect(problems[0]?.message).toMatch(/contrast of [\d.]+:1, under the 4\.5:1/);
  });

  it('checks the mixes the style sheet makes: muted text 4.5:1 on the grey page, borders 3:1 (outside review)', () => {
    // 5.3:1 on white, but its muted mix is 3.6:1 and its border 2.1:1.
    expect(themeContrastProblems({ text: '#6b6b6b' }).map((problem) => problem.message)).toEqual([
      expect.stringMatching(
        /^the muted text \(#[0-9a-f]{6}, mixed from the text and the surface\) on the grey page has a contrast of [\d.]+:1, under the 4\.5:1/,
      ),
      expect.stringMatching(/^the controls' borders .* under the 3:1 that a control needs \(WCAG 2\.2, 1\.4\.11\)$/),
    ]);
    const css = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../wizard/styles.css'), 'utf8');
    expect(css).toContain(`--muted: color-mix(in srgb, var(--text) ${THEME_MIXES.muted * 100}%, var(--surface));`);
    expect(css).toContain(`--border: color-mix(in srgb, var(--text) ${THEME_MIXES.border * 100}%, var(--surface));`);
    expect(css).toContain(`--gray-bg: color-mix(in srgb, var(--text) ${THEME_MIXES.grayBg * 100}%, var(--surface));`);
  });
});
