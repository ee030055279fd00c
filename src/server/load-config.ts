import { readFileSync } from 'node:fs';
import { formatConfigProblems, parseWizardConfig, type WizardConfig } from '../shared/config';
import { servedPageProblems } from '../shared/config-checks';

/**
 * Reads and validates a configuration file.
 * @param options.submitOrigins - the origins `requestUrl` may send to besides this server (`SUBMIT_ORIGINS_ALLOWED`); default none.
 * @returns the parsed configuration, defaults applied.
 * @throws Error naming the file and every problem with its JSON path and a hint, as
 * `npm run check-config` prints them (`steps[2].blocks[0].data.options: … expected array …`).
 */
export function loadWizardConfig(file: string, options: { submitOrigins?: readonly string[] } = {}): WizardConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`WIZARD_CONFIG: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const result = parseWizardConfig(raw);
  const problems = result.problems ?? servedPageProblems(result.config, options.submitOrigins ?? []);
  if (problems.length > 0) throw new Error(`Invalid configuration ${file}:\n${formatConfigProblems(problems)}`);
  return result.config!;
}
