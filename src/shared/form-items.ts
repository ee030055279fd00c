import { z } from './zod';
import { nonEmpty } from './schema-parts';

/**
 * The primitives of a configuration's form items (requirements §3, §4, §14): conditions and
 * validators. Below the blocks, which bring rules and conditions of their own, and below the
 * configuration's schema (config-schema.ts), which lists its form items with them.
 */

/** A `showOnCondition`: compares the value at `path` (requirements §4 "Panels can be hidden or disabled by conditions"). */
export const ConditionSchema = z.strictObject({
  /** Form-value path whose value is tested. */
  path: nonEmpty,
  /** Holds when the value equals this. */
  equals: z.optional(z.union([z.string(), z.boolean(), z.number()])),
  /** Holds when the value is one of these. */
  oneOf: z.optional(z.array(z.union([z.string(), z.number()]))),
  /** Holds when the value is (true) or is not (false) filled in. */
  filled: z.optional(z.boolean()),
  /** What happens while the condition does not hold: the item is hidden (default) or disabled. */
  effect: z.optional(z.enum(['hide', 'disable'])),
});
export type Condition = z.infer<typeof ConditionSchema>;

/** Names of the validators a form item can list (requirements §14). */
export const VALIDATOR_NAMES = ['required', 'notBlank', 'email', 'digits', 'zip', 'handle', 'url', 'maxLength'] as const;
export type ValidatorName = (typeof VALIDATOR_NAMES)[number];

/** A validator by name, or with an argument: `"email"` or `{ "name": "maxLength", "value": 3 }`. */
export const ValidatorSpecSchema = z.union([z.enum(VALIDATOR_NAMES), z.strictObject({ name: z.enum(VALIDATOR_NAMES), value: z.optional(z.number()) })]);
export type ValidatorSpec = z.infer<typeof ValidatorSpecSchema>;

/** A form item: a form-value path with its validators and optional condition (requirements §3). */
export const FormItemSchema = z.strictObject({
  path: nonEmpty,
  validators: z._default(z.array(ValidatorSpecSchema), []),
  showOnCondition: z.optional(ConditionSchema),
});
export type FormItem = z.infer<typeof FormItemSchema>;
