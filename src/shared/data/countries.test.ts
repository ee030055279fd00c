import { describe, expect, it } from 'vitest';
import { getCallingCodeOptions, getCountries, getSubdivisions } from './countries';

describe('data lists (requirements §3 Lists)', () => {
  it('has about 250 countries by ISO alpha-2 with alpha-3, US first', () => {
    const countries = getCountries('en');
    expect(countries.length).toBeGreaterThanOrEqual(240);
    expect(countries.length).toBeLessThanOrEqual(250);
    expect(countries[0]).toMatchObject({ isoAlpha2: 'US', isoAlpha3: 'USA', callingCodes: ['1'], name: 'United States' });
    expect(countries.find((c) => c.isoAlpha2 === 'GB')).toMatchObject({ isoAlpha3: 'GBR', callingCodes: ['44'], name: 'United Kingdom' });
    const rest = countries.slice(1).map((c) => c.name);
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('names countries in the page language', () => {
    expect(getCountries('fr').find((c) => c.isoAlpha2 === 'DE')?.name).toBe('Allemagne');
    expect(getCountries('fr')[0]?.isoAlpha2).toBe('US');
  });

  it('builds each list once per language: every call returns the same array', () => {
    expect(getCountries('en')).toBe(getCountries('en'));
    expect(getCallingCodeOptions('en')).toBe(getCallingCodeOptions('en'));
    expect(getCountries('fr')).not.toBe(getCountries('en'));
    // A language the browser does not know falls back to English names, in English order.
    expect(getCountries('not a language').find((c) => c.isoAlpha2 === 'DE')?.name).toBe('Germany');
  });

  it('NANP members carry 1-area codes; some countries have several', () => {
    const byCode = (code: string) => getCountries('en').find((c) => c.isoAlpha2 === code);
    expect(byCode('AS')?.callingCodes).toEqual(['1-684']);
    expect(byCode('DO')?.callingCodes).toEqual(['1-809', '1-829', '1-849']);
    expect(byCode('PR')?.callingCodes).toEqual(['1-787', '1-939']);
    expect(byCode('CA')?.callingCodes).toEqual(['1']);
  });

  it('calling codes: code 1 first (US first), unique option ids', () => {
    const options = getCallingCodeOptions('en');
    expect(options[0]).toMatchObject({ id: 'US:1', callingCode: '1', label: '+1 United States' });
    expect(options[1]).toMatchObject({ isoAlpha2: 'CA', callingCode: '1' });
    expect(new Set(options.map((o) => o.id)).size).toBe(options.length);
  });

  it('US states with territories and armed forces; 13 Canadian provinces; nothing elsewhere', () => {
    const us = getSubdivisions('US')!;
    expect(us).toHaveLength(62);
    expect(us.map((s) => s.code)).toEqual(expect.arrayContaining(['NY', 'CA', 'PR', 'GU', 'AA', 'AE', 'AP']));
    const ca = getSubdivisions('CA')!;
    expect(ca).toHaveLength(13);
    expect(ca.find((s) => s.code === 'ON')?.name).toBe('Ontario');
    expect(getSubdivisions('GB')).toBeUndefined();
  });
});
