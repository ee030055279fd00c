// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { AgeScreenSchema, ageVerdict, birthMonthProblem, DIGITAL_CONSENT_AGES, endsScreen, minimumAgeFor, youngestAge } from './age';

const at = (iso: string) => Date.parse(iso);

describe('youngestAge: the age at an instant, taken as the youngest the person can be', () => {
  it('counts a birthday as passed only once the birth month is over, anywhere on Earth', () => {
    // Born in March 2010: 16 once March 2026 has ended everywhere (the last day, 31 March, at UTC−12).
    expect(youngestAge('2010-03', at('2026-03-01T00:00:00Z'))).toBe(15);
    expect(youngestAge('2010-03', at('2026-03-31T11:59:59Z'))).toBe(15); // 30 March at UTC−12
    expect(youngestAge('2010-03', at('2026-03-31T12:00:00Z'))).toBe(16); // 31 March at UTC−12
    expect(youngestAge('2010-03', at('2026-04-01T00:00:00Z'))).toBe(16);
  });

  it('crosses a year boundary: born in December, the new year starts later at UTC−12', () => {
    expect(youngestAge('2012-12', at('2025-12-31T11:59:59Z'))).toBe(12);
    expect(youngestAge('2012-12', at('2025-12-31T12:00:00Z'))).toBe(13);
    // 1 January 2026 at 05:00 in Paris is still 31 December 2025 at UTC−12: 13 already.
    expect(youngestAge('2012-12', at('2026-01-01T04:00:00Z'))).toBe(13);
    expect(youngestAge('2013-01', at('2026-01-01T04:00:00Z'))).toBe(12);
  });

  it('takes the last day of February of the birth year: a leap-year February birthday passes on 1 March in other years', () => {
    expect(youngestAge('2012-02', at('2025-02-28T23:00:00Z'))).toBe(12);
    expect(youngestAge('2012-02', at('2025-03-01T12:00:00Z'))).toBe(13);
    expect(youngestAge('2012-02', at('2028-02-29T12:00:00Z'))).toBe(16);
  });

  it('is the same whatever the process time zone (it reads UTC only)', () => {
    const before = process.env.TZ;
    try {
      for (const zone of ['Pacific/Kiritimati', 'America/Los_Angeles', 'Etc/GMT+12', 'UTC']) {
        process.env.TZ = zone;
        expect(youngestAge('2010-03', at('2026-03-31T12:00:00Z'))).toBe(16);
      }
    } finally {
      process.env.TZ = before;
    }
  });

  it('reads only YYYY-MM', () => {
    expect(youngestAge('2010-13', 0)).toBeUndefined();
    expect(youngestAge('2010-3', 0)).toBeUndefined();
    expect(youngestAge(' 2010-03', 0)).toBeUndefined();
  });
});

describe('birthMonthProblem', () => {
  it('refuses a month that has not come anywhere on Earth, and years before 1900', () => {
    const now = at('2026-11-30T09:00:00Z'); // 30 November at UTC+14 is 23:00: December not yet anywhere
    expect(birthMonthProblem('2026-11', now)).toBeUndefined();
    expect(birthMonthProblem('2026-12', now)).toBe('birthMonthFuture');
    expect(birthMonthProblem('2026-12', at('2026-11-30T10:00:00Z'))).toBeUndefined(); // 1 December at UTC+14
    expect(birthMonthProblem('2031-01', now)).toBe('birthMonthFuture');
    expect(birthMonthProblem('1899-12', now)).toBe('birthYearTooEarly');
    expect(birthMonthProblem('99-12', now)).toBe('birthYearInvalid');
    expect(birthMonthProblem('1900-01', now)).toBeUndefined();
  });
});

describe('ageVerdict', () => {
  const now = at('2026-11-30T12:00:00Z');
  const fixed = AgeScreenSchema.parse({ minimumAge: 13, minors: 'guardian' });

  it('sorts under the minimum, minors up to the adult age, and adults', () => {
    expect(ageVerdict(fixed, { birthMonth: '2013-11' }, now)).toBe('minor'); // 13 since 30 November at UTC−12
    expect(ageVerdict(fixed, { birthMonth: '2013-12' }, now)).toBe('under');
    expect(ageVerdict(fixed, { birthMonth: '2008-11' }, now)).toBe('adult');
    expect(ageVerdict(fixed, { birthMonth: '2008-12' }, now)).toBe('minor');
  });

  it('by country, reads the age of digital consent of the country named (16 where none is listed)', () => {
    const byCountry = AgeScreenSchema.parse({ minimumAge: 'byCountry' });
    expect(DIGITAL_CONSENT_AGES.FR).toBe(15);
    expect(minimumAgeFor(byCountry, 'FR')).toBe(15);
    expect(minimumAgeFor(byCountry, 'DE')).toBe(16);
    expect(minimumAgeFor(byCountry, 'BE')).toBe(13);
    expect(minimumAgeFor(byCountry, 'BR')).toBe(16);
    expect(minimumAgeFor(byCountry, undefined)).toBe(16);
    // 14 years old: in Belgium a minor, in France under the minimum.
    expect(ageVerdict(byCountry, { birthMonth: '2012-06', countryCode: 'BE' }, now)).toBe('minor');
    expect(ageVerdict(byCountry, { birthMonth: '2012-06', countryCode: 'FR' }, now)).toBe('under');
  });

  it('ends the screen under the minimum, and for a minor where the page refuses minors', () => {
    const refusing = AgeScreenSchema.parse({ minimumAge: 13 });
    expect(refusing.minors).toBe('refuse');
    expect(refusing.adultAge).toBe(18);
    expect(endsScreen(refusing, 'under')).toBe(true);
    expect(endsScreen(refusing, 'minor')).toBe(true);
    expect(endsScreen(refusing, 'adult')).toBe(false);
    expect(endsScreen(fixed, 'minor')).toBe(false);
  });
});
