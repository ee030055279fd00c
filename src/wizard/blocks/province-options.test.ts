import { describe, expect, it } from 'vitest';
import { getSubdivisions } from '../../shared/data/countries';
import { provinceOptions } from './personal-info-block';

describe('state and province options (issue 15)', () => {
  it('sort by name in the page language, not by code', () => {
    const names = provinceOptions(getSubdivisions('US')!, 'en').map((option) => option.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    // By code, Micronesia (FM) sat between the District of Columbia (DC) and Florida (FL).
    expect(names.indexOf('Micronesia')).toBeGreaterThan(names.indexOf('Michigan'));
    expect(names.indexOf('Florida')).toBe(names.indexOf('District of Columbia') + 1);
    expect(provinceOptions(getSubdivisions('CA')!, 'fr').map((option) => option.value)).toHaveLength(13);
  });

  it('are built once per list and language', () => {
    const us = getSubdivisions('US')!;
    expect(provinceOptions(us, 'en')).toBe(provinceOptions(us, 'en'));
  });
});
