import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getCallingCodeOptions, getCountries } from './countries';
import { FLAG_ICONS_DIR, FLAGS_PATH, flagFileNames, flagUrl } from './flags';

const packageRoot = dirname(createRequire(import.meta.url).resolve('flag-icons/package.json'));

describe('flags (SVG files of flag-icons, never emoji)', () => {
  it('every country of the Country select and of the calling-code select has its flag file in the package, and the build copies it', () => {
    const codes = new Set([...getCountries('en').map((country) => country.isoAlpha2), ...getCallingCodeOptions('en').map((option) => option.isoAlpha2)]);
    expect(codes.size).toBeGreaterThanOrEqual(240);
    const copied = new Set(flagFileNames());
    const missing = [...codes].filter((code) => !existsSync(join(packageRoot, FLAG_ICONS_DIR, `${code.toLowerCase()}.svg`)));
    expect(missing).toEqual([]);
    expect([...codes].filter((code) => !copied.has(`${code.toLowerCase()}.svg`))).toEqual([]);
    // Only the countries' flags: none of the package's regional or organisation flags.
    expect(copied.size).toBe(codes.size);
  });

  it('serves each flag at a path that names the package version, so it can be cached for good', () => {
    const { version } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string };
    expect(FLAGS_PATH).toBe(`/flags/${version}/4x3/`);
    expect(flagUrl('GB')).toBe(`/flags/${version}/4x3/gb.svg`);
    expect(FLAG_ICONS_DIR).toBe('flags/4x3');
  });
});
