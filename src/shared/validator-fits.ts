import type { ValueKind } from './blocks';
import type { ValidatorName } from './form-items';

/**
 * The kinds of answer each validator fits (docs/configuration.md, "Form items"): the rules that
 * test typed text fit a text answer only, `digits` a phone number too (its subscriber number),
 * `maxLength` a text, a multi-select list or a phone number, `required` every kind. A count has
 * its own number rule and a choice its own options, so neither takes a text rule.
 *
 * The one table of it: the configuration check refuses a validator on an answer it does not fit
 * (config-checks.ts), and the builder offers only the validators that fit each answer
 * (src/admin/pages/block-forms.tsx).
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
