import type { z } from './zod';
import { checkConfigSemantics } from './config-checks';
import { BLOCK_COMPONENTS, VALIDATOR_NAMES, WizardConfigSchema, type ConfigProblem, type WizardConfig } from './config-schema';

/**
 * The configuration's parser, above everything it checks: the schema (config-schema.ts, whose
 * names this module passes on) and the semantic checks (config-checks.ts).
 */
export * from './config-schema';

function hintFor(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return `remove ${issue.keys.map((key) => `"${key}"`).join(', ')} or check the spelling; config/wizard.schema.json lists the allowed keys`;
    case 'invalid_union':
      return issue.path.at(-1) === 'component' || ('note' in issue && issue.note === 'No matching discriminator')
        ? `"component" must be one of: ${BLOCK_COMPONENTS.join(', ')}`
        : issue.path.includes('validators')
          ? `use a validator name (${VALIDATOR_NAMES.join(', ')}) or { "name": …, "value": … }`
          : 'write it in one of the forms config/wizard.schema.json accepts';
    case 'invalid_value':
      return `use one of: ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'invalid_type':
      return `give ${issue.expected === 'array' ? 'an array' : `a ${issue.expected}`} here`;
    case 'too_small':
      return issue.origin === 'string' && Number(issue.minimum) === 1
        ? 'type at least one character'
        : `give at least ${counted(Number(issue.minimum), issue.origin)}`;
    case 'too_big':
      return `give at most ${counted(Number(issue.maximum), issue.origin)}`;
    default:
      return 'correct the value';
  }
}

/** "1 item", "3 characters", "5": a bound of a `too_small` or `too_big` issue in words. */
function counted(bound: number, origin: string): string {
  const unit = origin === 'array' ? 'item' : origin === 'string' ? 'character' : '';
  return unit ? `${bound} ${unit}${bound === 1 ? '' : 's'}` : String(bound);
}

/**
 * The message of a schema issue in plain words (a newcomer's review, decision 021: zod's "Too small:
 * expected string to have >=1 characters" and bare "Invalid input" read as an engineer's). The
 * checks' own messages (a regex's "expected a hex colour such as #5a2d82") are kept.
 */
function messageFor(issue: z.core.$ZodIssue): string {
  // A check's own message stays; zod's English defaults start "Too small", "Too big", "Invalid".
  if (!/^(?:Too small|Too big|Invalid (?:input|option))/.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'This cannot be empty';
      return `Too short: at least ${counted(Number(issue.minimum), issue.origin)}${issue.origin === 'array' || issue.origin === 'string' ? '' : ' is the least allowed'}`;
    case 'too_big':
      return `Too long: at most ${counted(Number(issue.maximum), issue.origin)}${issue.origin === 'array' || issue.origin === 'string' ? '' : ' is the most allowed'}`;
    case 'invalid_union':
      return issue.path.at(-1) === 'component' || ('note' in issue && issue.note === 'No matching discriminator')
        ? 'Not a kind of block the page knows'
        : 'Not in a form the page accepts';
    case 'invalid_value':
      return 'Not one of the values allowed';
    default:
      return issue.message;
  }
}

/**
 * Formats problems as check-config and the server print them, one per line:
 * `steps[2].blocks[0].data.options: Invalid input: expected array, received string (hint: give an array here)`.
 */
export function formatConfigProblems(problems: readonly ConfigProblem[]): string {
  return problems.map((problem) => `${problem.path}: ${problem.message} (hint: ${problem.hint})`).join('\n');
}

/** Formats a zod issue path as a JSON path: `steps[2].blocks[0].data`. */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`)).join('');
}

/**
 * Parses a configuration.
 * @param input - the configuration's JSON value.
 * @returns `{ config }` with defaults applied, or `{ problems }` (each with a JSON path): the
 * schema's, then the semantic checks' ({@link checkConfigSemantics}: paths, condition values,
 * loops, a required province that can never be filled, duplicates, validator arguments and fit).
 */
export function parseWizardConfig(input: unknown): { config: WizardConfig; problems?: never } | { config?: never; problems: ConfigProblem[] } {
  const result = WizardConfigSchema.safeParse(input);
  if (result.success) {
    const problems = checkConfigSemantics(result.data);
    return problems.length > 0 ? { problems } : { config: result.data };
  }
  return {
    problems: result.error.issues.map((issue) => ({
      path: formatJsonPath(issue.path) || '(root)',
      message: messageFor(issue),
      hint: hintFor(issue),
    })),
  };
}
