import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { Messages } from '../../shared/messages';
import type { ValidationTarget } from '../../shared/blocks';
import { validateTargets } from '../../shared/validation';

/**
 * The starting values with a saved draft laid over them: plain objects are
 * merged key by key, anything else in the draft wins.
 */
export function withDraft(initial: FieldValues, draft: Record<string, unknown> | undefined): FieldValues {
  if (!draft) return initial;
  const isPlain = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  const merge = (base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> => {
    const result: Record<string, unknown> = { ...base };
    for (const [key, value] of Object.entries(over)) {
      if (key === '__proto__' || key === 'constructor') continue;
      result[key] = isPlain(value) && isPlain(base[key]) ? merge(base[key], value) : value;
    }
    return result;
  };
  return merge(initial, draft);
}

/** Turns `{ 'a.b': message }` into react-hook-form's nested errors. */
export function toFieldErrors(errors: Record<string, string>): FieldErrors {
  const result: Record<string, unknown> = {};
  for (const [path, message] of Object.entries(errors)) {
    const keys = path.split('.');
    let node = result;
    keys.forEach((key, index) => {
      if (index === keys.length - 1) node[key] = { type: 'validate', message };
      else node = (node[key] ??= {}) as Record<string, unknown>;
    });
  }
  return result as FieldErrors;
}

/**
 * A react-hook-form resolver over the shared validation targets (requirements §5), so
 * the wizard and the tests run the very same rules.
 * @param extra - further errors by path (the server's, kept while their answer is unchanged);
 * the shared rules' own message wins where both name a path.
 */
export function createResolver(
  targets: readonly ValidationTarget[],
  messages: Messages,
  extra: (values: FieldValues) => Record<string, string> = () => ({}),
): Resolver {
  return (values) => {
    const errors = { ...extra(values), ...validateTargets(targets, values, messages) };
    return Object.keys(errors).length === 0 ? { values, errors: {} } : { values: {}, errors: toFieldErrors(errors) };
  };
}
