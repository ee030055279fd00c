import type { Condition } from './form-items';
import { getPath } from './paths';
import { isEmpty } from './rules';

/**
 * Whether a condition's tests pass for the value at its path. Every test given
 * must pass: `equals`, `oneOf`, `filled`.
 */
export function testCondition(condition: Condition, value: unknown): boolean {
  if (condition.equals !== undefined && value !== condition.equals) return false;
  if (condition.oneOf !== undefined && !condition.oneOf.some((option) => option === value)) return false;
  if (condition.filled !== undefined && isEmpty(value) === condition.filled) return false;
  return true;
}

/**
 * Whether a `showOnCondition` holds for the current form values (requirements §4:
 * panels hidden or disabled by conditions, the province field shown by country,
 * the campaign text box shown on Yes).
 * @param condition - the condition; `undefined` always holds.
 * @param values - the form values (nested, as the wizard keeps them).
 */
export function conditionHolds(condition: Condition | undefined, values: unknown): boolean {
  if (condition === undefined) return true;
  // Judged on the value as it will be sent (trimmed), as the server judges it.
  const value = getPath(values, condition.path);
  return testCondition(condition, typeof value === 'string' ? value.trim() : value);
}
