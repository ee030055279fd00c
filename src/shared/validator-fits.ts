import type { Rule, ValueKind } from './blocks';
import type { ValidatorName } from './form-items';
import type { PlatformName } from './platforms';

/**
 * The kinds of answer each validator fits (docs/configuration.md, "Form items"): the rules that
 * test typed text fit a text answer only, `digits` a phone number too (its subscriber number),
 * `maxLength` a text, a multi-select list or a phone number, `required` every kind. A count has
 * its own number rule and a choice its own options, so neither takes a text rule.
 *
 * The one table of it: the configuration check refuses a validator on an answer it does not fit
 * (config-checks.ts), and the builder offers only the validators that fit each answer
 * (src/admin/pages/answers.ts, `offeredRules`).
 */
export const VALIDATOR_FITS: Readonly<Record<ValidatorName, readonly ValueKind[]>> = {
  required: ['text', 'count', 'boolean', 'list', 'choice', 'phone'],
  notBlank: ['text'],
  email: ['text'],
  digits: ['text', 'phone'],
  zip: ['text'],
  handle: ['text'],
  url: ['text'],
  maxLength: ['text', 'list', 'phone'],
};

/** Whether validator `name` fits an answer of `kind` ({@link VALIDATOR_FITS}). */
export const validatorFits = (name: ValidatorName, kind: ValueKind): boolean => VALIDATOR_FITS[name].includes(kind);

/**
 * Validators no answer passes together (src/shared/rules.ts): an e-mail address has an `@`, which
 * digits, a ZIP, a user name (refused when it is an e-mail address) and a website URL (no user
 * name) never hold; a website URL has a dotted host, which digits and a ZIP never have.
 *
 * The one list of them: the configuration check refuses an answer whose rules (its block's own
 * included: `email` on the e-mail address, `handle` on a platform's user name) hold such a pair
 * (config-checks.ts), and the builder does not offer a rule that would make one.
 */
export const DISJOINT_VALIDATORS: readonly (readonly [ValidatorName, ValidatorName])[] = [
  ['email', 'digits'],
  ['email', 'zip'],
  ['email', 'handle'],
  ['email', 'url'],
  ['url', 'digits'],
  ['url', 'zip'],
];

/**
 * The validator among `others` that no answer passes together with `name` ({@link DISJOINT_VALIDATORS}),
 * or undefined. `others` may hold any rule names (a block's own `count`, say): those never clash.
 */
export function disjointWith(name: ValidatorName, others: readonly string[]): ValidatorName | undefined {
  for (const [one, other] of DISJOINT_VALIDATORS) {
    if (one === name && others.includes(other)) return other;
    if (other === name && others.includes(one)) return one;
  }
  return undefined;
}

/**
 * Validators no user name of a platform passes, by the platform's published rule (`USERNAME_RULES`
 * in src/shared/platforms.ts), beyond those no user name passes at all ({@link DISJOINT_VALIDATORS}
 * with `handle`): a name without dots (X, Twitch, Pinterest, LinkedIn, Reddit) is never a website
 * address, whose host is dotted; a name that starts with a letter (Snapchat) is never digits or a
 * ZIP code. The configuration check refuses such a validator on the platform's user name, and the
 * builder does not offer it there.
 */
export const USERNAME_REFUSES: Readonly<Partial<Record<PlatformName, readonly ValidatorName[]>>> = {
  twitter: ['url'],
  twitch: ['url'],
  pinterest: ['url'],
  linkedin: ['url'],
  reddit: ['url'],
  snapchat: ['digits', 'zip'],
};

/**
 * The platform whose user-name rule, among an answer's own rules (a platform row's `handle`),
 * no answer passes together with validator `name` ({@link USERNAME_REFUSES}), or undefined.
 */
export function usernameRefuses(name: ValidatorName, own: readonly Pick<Rule, 'name' | 'platform'>[]): PlatformName | undefined {
  for (const rule of own) {
    if (rule.name === 'handle' && rule.platform && USERNAME_REFUSES[rule.platform]?.includes(name)) return rule.platform;
  }
  return undefined;
}
