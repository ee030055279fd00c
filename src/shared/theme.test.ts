import { describe, expect, it } from 'vitest';
import { rawDefaultConfig } from '../../tests/factories/application';
import { parseWizardConfig } from './config';
import { themeContrastProblems } from './config-checks';
import { themeCss } from './theme';

describe('the theme tokens (styleConfig.theme, issue 15)', () => {
  it('become CSS custom properties, and nothing but hex colours and a pixel radius gets there', () => {
    expect(themeCss(undefined)).toBe('');
    expect(themeCss({})).toBe('');
    expect(themeCss({ primary: '#0b6e4f', radius: 4 })).toBe(':root{--brand:#0b6e4f;--radius:4px}');
    expect(themeCss({ primary: '#123', surface: '#fffdf7', text: '#222', radius: 0 })).toBe(':root{--brand:#123;--surface:#fffdf7;--text:#222;--radius:0px}');
    const raw = rawDefaultConfig();
    for (const primary of ['red', '#12345', '#000;}body{display:none', 'url(x)']) {
      raw.styleConfig = { theme: { primary } };
      expect(parseWizardConfig(raw).problems?.map((problem) => problem.path), primary).toEqual(['styleConfig.theme.primary']);
    }
    raw.styleConfig = { theme: { radius: 40 } };
    expect(parseWizardConfig(raw).problems?.map((problem) => problem.path)).toEqual(['styleConfig.theme.radius']);
  });

  it('keep text readable: a theme under 4.5:1 is refused at the token to change (WCAG 2.2, 1.4.3)', () => {
    expect(themeContrastProblems({})).toEqual([]);
    expect(themeContrastProblems({ primary: '#0b6e4f', surface: '#fffdf7' })).toEqual([]);
    // A light primary: white button text and links both fail.
    expect(themeContrastProblems({ primary: '#ffcc00' }).map((problem) => problem.path)).toEqual(['styleConfig.theme.primary', 'styleConfig.theme.primary']);
    expect(themeContrastProblems({ text: '#999999' }).map((problem) => problem.path)).toEqual(['styleConfig.theme.text']);
    // A dark surface: the text, the primary and the error red all fail on it.
    expect(themeContrastProblems({ surface: '#111111' }).map((problem) => problem.path)).toEqual(['styleConfig.theme.text', 'styleConfig.theme.primary', 'styleConfig.theme.surface']);
    const raw = rawDefaultConfig();
    raw.styleConfig = { theme: { primary: '#f0a0c0' } };
    const problems = parseWizardConfig(raw).problems ?? [];
    expect(problems[0]?.message).toMatch(/contrast of [\d.]+:1, under the 4\.5:1/);
  });
});
