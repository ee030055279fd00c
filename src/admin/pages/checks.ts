import { publishCheck } from '../../shared/page-checks';
import type { Problem } from './fields';

/**
 * The configuration's checks on the draft as typed, in the browser: the rulebook the
 * server runs when the page is published (`publishCheck`, src/shared/page-checks.ts;
 * docs/decisions/021, "Versioning"): the schema and the semantic checks, what a page whose
 * applications this server stores must ask, and that its `pageId` and submit path are the page's
 * own. Nothing of them is written again here; the server's publish check stays the judge (its 422
 * is shown at the fields too).
 * @param draft - the draft as typed.
 * @param id - the stored page's id.
 * @returns the problems, each with its JSON path; empty when the draft would publish.
 */
export function checkDraft(draft: unknown, id: string): Problem[] {
  return publishCheck(draft, id).problems ?? [];
}
