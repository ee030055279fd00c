import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { USERNAME_RULES, type PlatformName } from './platforms';
import { isDigits, isHandle, isWebsiteUrl, isZip } from './rules';
import { USERNAME_REFUSES } from './validator-fits';

/** The validators a platform's own rule may rule out, with answers each one passes. */
const CHECKED = {
  url: { passes: isWebsiteUrl, answers: ['ada.makes', 'ab.cd', 'ada_1.studio', 'abc.de.fg'] },
  digits: { passes: isDigits, answers: ['12345', '1234567'] },
  zip: { passes: isZip, answers: ['12345', '1234-567'] },
} as const;

const platforms = Object.keys(USERNAME_RULES) as Exclude<PlatformName, 'website'>[];
/** A user name of the platform, as the wizard's rule takes it (the generic rule and the platform's own). */
const isUserName = (platform: Exclude<PlatformName, 'website'>, value: string) => isHandle(value) && USERNAME_RULES[platform].test(value);

describe('USERNAME_REFUSES, the validators no user name of a platform passes', () => {
  for (const platform of platforms) {
    for (const [name, { passes, answers }] of Object.entries(CHECKED)) {
      if (USERNAME_REFUSES[platform]?.includes(name as keyof typeof CHECKED)) {
        it(`${platform}: no user name passes ${name} (generated from the platform's rule)`, () => {
          fc.assert(
            fc.property(fc.stringMatching(USERNAME_RULES[platform]), (value) => !(isUserName(platform, value) && passes(value))),
            { numRuns: 2_000 },
          );
        });
      } else {
        it(`${platform}: some user name passes ${name}, so the builder may offer it`, () => {
          expect(answers.filter((value) => isUserName(platform, value) && passes(value))).not.toEqual([]);
        });
      }
    }
  }
});
