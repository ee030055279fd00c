import { parseWizardConfig } from '../../shared/config';
import { storedPageProblems } from '../../shared/config-checks';
import type { Problem } from './fields';

/**
 * The configuration's checks on the draft as typed, in the browser (issue 17): the rulebook the
 * server runs when the page is published (docs/decisions/021, "Versioning"): the schema and the
 * semantic checks (`parseWizardConfig`), then what a page whose applications this server stores
 * must ask (`storedPageProblems`). Nothing of them is written again here; the server's publish
 * check stays the judge (its 422 is shown at the fields too).
 * @returns the problems, each with its JSON path; empty when the draft would publish.
 */
export function checkDraft(draft: unknown): Problem[] {
  const parsed = parseWizardConfig(draft);
  const problems = parsed.problems ?? storedPageProblems(parsed.config);
  return problems.map(({ path, message, hint }) => ({ path, message, hint }));
}
