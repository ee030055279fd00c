import type { WizardConfig } from '../../shared/config';
import { RESUME_HASH, type ResumeDraft } from '../../shared/resume';
import type { WizardServices } from '../engine/services';

/**
 * Opens a link to continue on another device (docs/requirements.md §22; docs/decisions/034), in a
 * chunk only such a link loads: takes the link's secret out of the address bar (a bookmark, a
 * shared screen or a copied address keeps no key to the answers), reads the draft
 * (`GET /api/drafts/{token}`) and keeps it as this device's draft, which the page then starts from
 * (its step, every answer). A link that no longer works (404, 410) or another page's says so on the
 * page's error line (`services.notice`); a failed request says the page's `submitError`.
 */
export async function resume(config: WizardConfig, services: WizardServices): Promise<void> {
  const token = location.hash.slice(RESUME_HASH.length);
  history.replaceState(history.state, '', location.pathname + location.search);
  const { messages } = config;
  let notice = messages.submitError;
  try {
    const response = await fetch(`/api/drafts/${encodeURIComponent(token)}`);
    const draft = response.ok ? ((await response.json()) as ResumeDraft & { pageId: string }) : undefined;
    if (draft?.pageId === config.pageId) {
      services.drafts(config).save({ step: draft.step, values: draft.values, screen: draft.screen });
      return;
    }
    if (draft || response.status === 404 || response.status === 410) notice = messages.resumeLinkGone;
  } catch {
    // Offline, say: the page starts as it is, and says the link could not be read.
  }
  services.notice = notice;
}
