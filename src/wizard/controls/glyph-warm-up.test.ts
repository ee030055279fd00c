import { readFileSync } from 'node:fs';
import { URL as NodeURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { flagEmoji, getCountries } from '../../shared/data/countries';
import { callingCodeSelectOptions } from './phone-input';
import { GLYPH_PROBE_CLASS, REGIONAL_INDICATORS, warmUpGlyphs } from './glyph-warm-up';

const probes = () => [...document.querySelectorAll<HTMLElement>(`.${GLYPH_PROBE_CLASS}`)];
afterEach(() => probes().forEach((probe) => probe.remove()));
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

describe('the flags laid out ahead of the step that shows them (issue 12)', () => {
  it('the probe holds every character of every flag the selects can show, hidden from assistive technology, for one frame', async () => {
    const flags = [...getCountries('en').map((country) => flagEmoji(country.isoAlpha2)), ...callingCodeSelectOptions('en').map((option) => flagEmoji(option.value.slice(0, 2)))];
    const characters = new Set(flags.flatMap((flag) => [...flag]));
    warmUpGlyphs(REGIONAL_INDICATORS);
    const [probe] = probes();
    expect(probe?.getAttribute('aria-hidden')).toBe('true');
    for (const character of characters) expect([...probe!.textContent!]).toContain(character);
    await nextFrame();
    await nextFrame();
    expect(probes()).toEqual([]);
  });

  it('the probe is laid out (not display: none, no content-visibility) and unseen', () => {
    // Node's URL: under happy-dom the global URL is happy-dom's, which node:fs does not take.
    const css = readFileSync(new NodeURL('../styles.css', import.meta.url), 'utf8');
    const rule = new RegExp(`\\.${GLYPH_PROBE_CLASS}\\s*\\{([^}]*)\\}`).exec(css)?.[1] ?? '';
    expect(rule).toMatch(/visibility:\s*hidden/);
    expect(rule).toMatch(/position:\s*absolute/);
    expect(rule).not.toMatch(/display:\s*none|content-visibility/);
  });
});
