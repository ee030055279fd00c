import { describe, expect, it } from 'vitest';
import { getSubdivisions } from '../../shared/data/countries';
import { provinceOptions } from './personal-info-block';

describe('state and province options', () => {
  it('sort by name in the page language, not by code', () => {
    const names = provinceOptions('US', getSubdivisions('US')!, 'en').map((option) => option.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    // By code, Micronesia (FM) sat between the District of Columbia (DC) and Florida (FL).
    expect(names.indexOf('Micronesia')).toBeGreaterThan(names.indexOf('Michigan'));
    expect(names.indexOf('Florida')).toBe(names.indexOf('District of Columbia') + 1);
    expect(provinceOptions('CA', getSubdivisions('CA')!, 'fr').map((option) => option.value)).toHaveLength(13);
  });

  it('are built once per list and language', () => {
    const us = getSubdivisions('US')!;
    expect(provinceOptions('US', us, 'en')).toBe(provinceOptions('US', us, 'en'));
    const names = { 'US-CA': 'Californie' };
    expect(provinceOptions('US', us, 'fr', names)).toBe(provinceOptions('US', us, 'fr', names));
    expect(provinceOptions('US', us, 'fr', names)).not.toBe(provinceOptions('US', us, 'fr'));
  });

  it("take the page's own names (subdivisionNames), sorted by them in the page's language", () => {
    const names = { 'US-CA': 'Californie', 'US-NC': 'Caroline du Nord', 'US-SC': 'Caroline du Sud', 'US-FL': 'Floride' };
    const options = provinceOptions('US', getSubdivisions('US')!, 'fr', names);
    expect(options.find((option) => option.value === 'CA')?.name).toBe('Californie');
    expect(options.find((option) => option.value === 'TX')?.name).toBe('Texas');
    const shown = options.map((option) => option.name);
    expect(shown.indexOf('Caroline du Nord')).toBe(shown.indexOf('Californie') + 1);
    expect(shown).not.toContain('California');
  });
});
