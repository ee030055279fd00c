import { draftFields } from './answers';
import { asArray, isObject, setAt, type DraftPath } from './draft';

/**
 * What removing an element of the draft takes with it: a block or
 * a step that asked questions takes their rules (`formItems` of the answers no block asks any
 * more), and the conditions of other questions that tested those answers. Nothing else is
 * touched: rules that were already left behind before the removal stay for the team to judge.
 */
export interface Removal {
  /** The draft without the element, its rules and the conditions on its answers. */
  draft: unknown;
  /** The answers no block asks any more (their paths). */
  answers: string[];
  /** How many answers' rules went with it. */
  rules: number;
  /** How many conditions of other questions went with it (they tested a removed answer). */
  conditions: number;
}

/** Whether the answer `path` is `answer` or inside it (`personalInfo.phone.subscriber` in `personalInfo.phone`). */
const within = (path: unknown, answer: string) => typeof path === 'string' && (path === answer || path.startsWith(`${answer}.`));

/**
 * The draft with the element `index` of the list at `path` removed, and with it the rules and
 * conditions of the answers it alone asked.
 */
export function removeElement(draft: unknown, path: DraftPath, index: number): Removal {
  const without = setAt(draft, [...path, index], undefined);
  const before = draftFields(draft);
  const after = draftFields(without);
  const answers = [...before.keys()].filter((answer) => !after.has(answer));
  if (answers.length === 0 || !isObject(without)) return { draft: without, answers, rules: 0, conditions: 0 };
  const gone = (value: unknown) => answers.some((answer) => within(value, answer));
  let rules = 0;
  let conditions = 0;
  const items = asArray(without.formItems).flatMap((item) => {
    if (!isObject(item)) return [item];
    if (gone(item.path)) {
      rules++;
      return [];
    }
    if (isObject(item.showOnCondition) && gone(item.showOnCondition.path)) {
      conditions++;
      const rest = { ...item };
      delete rest.showOnCondition;
      // An item left with neither rules nor a condition says nothing: it goes too.
      return asArray(rest.validators).length === 0 ? [] : [rest];
    }
    return [item];
  });
  return { draft: rules + conditions > 0 ? { ...without, formItems: items } : without, answers, rules, conditions };
}

/** "and its 2 rules, and 1 condition of another question": what went with a removal, for its message ('' for nothing). */
export function removalExtras({ rules, conditions }: Pick<Removal, 'rules' | 'conditions'>): string {
  const parts = [
    rules > 0 ? `the rules of ${rules === 1 ? 'its answer' : `its ${rules} answers`}` : '',
    conditions > 0 ? `${conditions === 1 ? 'the condition' : `the ${conditions} conditions`} of other questions on ${rules > 1 ? 'them' : 'it'}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? `, with ${parts.join(' and ')}` : '';
}
