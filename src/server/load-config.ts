import { readFileSync } from 'node:fs';
import { formatConfigProblems, parseWizardConfig, type WizardConfig } from '../shared/config';
import { storedPageProblems } from '../shared/config-checks';

/**
 * Reads and validates a configuration file.
 * @returns the parsed configuration, defaults applied.
 * @throws Error naming the file and every problem with its JSON path and a hint, as
 * `npm run check-config` prints them (`steps[2].blocks[0].data.options: … expected array …`).
 */
export function loadWizardConfig(file: string): WizardConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`WIZARD_CONFIG: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const result = parseWizardConfig(raw);
  const problems = result.problems ?? storedPageProblems(result.config);
  if (problems.length > 0) throw new Error(`Invalid configuration ${file}:\n${formatConfigProblems(problems)}`);
  return result.config!;
}
