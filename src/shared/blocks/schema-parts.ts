import * as z from 'zod/mini';

/**
 * What the block modules build their data schemas with. `z` is zod/mini itself, without the English
 * messages `src/shared/zod.ts` loads (config.ts loads them wherever a configuration is parsed):
 * the wizard imports the block modules for their rules, never their schemas, and its build drops
 * the schemas and zod with them (vite.config.ts marks `z` calls pure; issue 12's byte budget).
 */
export { z };

/** A string of at least one character: a path, an option's name or value, a step's name. */
export const nonEmpty = z.string().check(z.minLength(1));

/** A yes/no answer or a checkbox holds a boolean (the payload's 'Yes' / 'No', SPEC §7). */
export const YES_OR_NO_OPTIONS: readonly boolean[] = [true, false];
