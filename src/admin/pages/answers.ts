import type { Block } from '../../shared/config';
import { blockDefinition, type PageField, type Rule } from '../../shared/blocks';
import { blockFields } from '../../shared/form-values';
import { VALIDATOR_NAMES, type ValidatorName } from '../../shared/form-items';
import { blockTargets } from '../../shared/validation';
import { disjointWith, usernameRefuses, validatorFits } from '../../shared/validator-fits';
import { asArray, isObject } from './draft';

/** The answers the draft's blocks ask: for the forms, the conditions and the places' names. */

/** The block components as the team names them, in the order "Add a block" offers them. */
export const BLOCK_LABELS: Record<Block['component'], string> = {
  html: 'Text (headline, paragraph)',
  personalInfo: 'Personal details',
  platforms: 'Social platforms',
  select: 'Choice question',
  yesNo: 'Yes / no question',
  textField: 'Text question',
  checkbox: 'Checkbox (agreement)',
  consent: 'Consent (recorded, can be withdrawn)',
};

/** The answer paths and kinds a block of the draft asks for (none while it is not a block the schema reads). */
export function answerFields(block: unknown): [string, PageField][] {
  return fromBlock(block, blockFields, []);
}

/** The draft's blocks, in order (whatever each holds: the schema has not read them). */
function draftBlocks(draft: unknown): unknown[] {
  const steps = isObject(draft) ? asArray(draft.steps) : [];
  return steps.flatMap((step) => (isObject(step) ? asArray(step.blocks) : []));
}

/** What a block of the draft gives, or `fallback` while it is not a block the schema reads. */
function fromBlock<T>(block: unknown, read: (block: Block) => T, fallback: T): T {
  try {
    return read(block as Block);
  } catch {
    return fallback;
  }
}

/** Every answer path the draft's blocks ask for, with its kind: what conditions can test. */
export function draftFields(draft: unknown): Map<string, PageField> {
  return new Map(draftBlocks(draft).flatMap(answerFields));
}

const ownRulesOf = new WeakMap<object, ReadonlyMap<string, readonly Rule[]>>();
const alwaysShownOf = new WeakMap<object, ReadonlySet<string>>();

/**
 * What `work` makes of a draft, made once per draft: an edit makes a new draft object (draft.ts),
 * and every answer's rules editor asks the same of it on each render.
 */
function perDraft<T>(cache: WeakMap<object, T>, draft: unknown, work: () => T): T {
  if (!isObject(draft)) return work();
  let found = cache.get(draft);
  if (found === undefined) cache.set(draft, (found = work()));
  return found;
}

/**
 * The rules each answer's block brings by itself, by path (`email` on the e-mail address, `handle`
 * on a platform's user name, with the platform whose published rule applies): what a rule the team
 * adds must not contradict (validator-fits.ts).
 */
export function draftOwnRules(draft: unknown): ReadonlyMap<string, readonly Rule[]> {
  return perDraft(ownRulesOf, draft, () => {
    const targets = draftBlocks(draft).flatMap((block) => fromBlock(block, blockTargets, []));
    return new Map(targets.map((target) => [target.path, target.rules]));
  });
}

/**
 * The answers a block always shows (a platform's rows, the phone's parts, the country, a yes/no
 * answer): no condition can hide them, and the configuration check refuses one on them.
 */
export function draftAlwaysShown(draft: unknown): ReadonlySet<string> {
  return perDraft(
    alwaysShownOf,
    draft,
    () => new Set(draftBlocks(draft).flatMap((block) => fromBlock(block, (read) => blockDefinition(read).shownUnconditionally?.(read) ?? [], []))),
  );
}

/**
 * The rules the builder offers on `answer` beside those `ticked` already: the ones that fit its kind
 * of answer (all, while it is no answer the draft's blocks ask) and that some answer could pass
 * together with its block's own rules and the ticked ones (validator-fits.ts), as the configuration
 * check judges them.
 */
export function offeredRules(draft: unknown, answer: string, ticked: readonly string[]): ValidatorName[] {
  const kind = draftFields(draft).get(answer)?.kind;
  const own = draftOwnRules(draft).get(answer) ?? [];
  const held = [...own.map((rule) => rule.name), ...ticked];
  return VALIDATOR_NAMES.filter(
    (name) => (kind === undefined || validatorFits(name, kind)) && disjointWith(name, held) === undefined && usernameRefuses(name, own) === undefined,
  );
}
