import { readFileSync } from 'node:fs';
import { parseWizardConfig, type WizardConfig } from '../shared/config';

/**
 * Reads and validates a configuration file.
 * @returns the parsed configuration and the JSON as written.
 * @throws Error naming the file and the JSON path of the first problem
 * (`config/wizard.json: steps[2].blocks[0].data.options: expected array`).
 */
export function loadWizardConfig(file: string): { config: WizardConfig; raw: unknown } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`WIZARD_CONFIG: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const result = parseWizardConfig(raw);
  if (result.problems) {
    const [first] = result.problems;
    throw new Error(`${file}: ${first?.path}: ${first?.message}`);
  }
  return { config: result.config, raw };
}
