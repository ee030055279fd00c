/**
 * `npm run check-config -- path/to/config.json [...]`: validates wizard
 * configurations and prints every problem with its JSON path and a hint, the
 * same text the server prints when it refuses to start. Exits 1 on any problem. Then prints what
 * reads as an oversight (`configWarnings`: English left on a page in another language, a step
 * without an <h1>) as warnings, which do not fail it. A `requestUrl` on another site is judged
 * against `SUBMIT_ORIGINS_ALLOWED` from the environment, as the server judges it.
 */
import { readFileSync } from 'node:fs';
import { formatConfigProblems, parseWizardConfig } from '../src/shared/config';
import { configWarnings, servedPageProblems } from '../src/shared/config-checks';
import { parseSubmitOrigins } from '../src/shared/urls';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: npm run check-config -- path/to/config.json [...]');
  process.exit(2);
}
let submitOrigins: string[];
try {
  submitOrigins = parseSubmitOrigins(process.env.SUBMIT_ORIGINS_ALLOWED ?? '');
} catch (error) {
  console.error(`SUBMIT_ORIGINS_ALLOWED: ${(error as Error).message}`);
  process.exit(2);
}
let failed = false;
for (const file of files) {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    console.error(`${file}: cannot read: ${error instanceof Error ? error.message : String(error)}`);
    failed = true;
    continue;
  }
  const result = parseWizardConfig(raw);
  const problems = result.problems ?? servedPageProblems(result.config, submitOrigins);
  if (problems.length > 0) {
    failed = true;
    console.error(`Invalid configuration ${file}:\n${formatConfigProblems(problems)}`);
  } else if (result.config) {
    console.log(`${file}: ok (${result.config.steps.length} steps, page "${result.config.pageId}")`);
    const warnings = configWarnings(result.config);
    if (warnings.length > 0) console.warn(`Warnings for ${file}:\n${formatConfigProblems(warnings)}`);
  }
}
process.exit(failed ? 1 : 0);
