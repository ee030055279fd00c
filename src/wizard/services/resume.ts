import type { WizardConfig } from '../../shared/config';
import { RESUME_HASH, type ResumeDraft } from '../../shared/resume';
import type { WizardServices } from '../engine/services';

/**
 * Opens a link to continue on another device (docs/requirements.md §22; docs/decisions/034), in a
 * chunk only such a link loads: takes the link's secret out of the address bar (a bookmark, a
 * shared screen or a copied address keeps no key to the answers), reads the draft
 * (`POST /api/draft-links/open`, the secret in the body) and keeps it as this device's draft, which the page then starts from
 * (its step, every answer); once that application is stored, the link's draft is erased
 * (`POST /api/draft-links/erase`). A link changed on its way (404), past its days or erased (410), or
 * another page's says so on the page's error line (`services.notice`); a failed request says the
 * page's `submitError`.
 */
export async function resume(config: WizardConfig, services: WizardServices): Promise<void> {
  const token = location.hash.slice(RESUME_HASH.length);
  history.replaceState(history.state, '', location.pathname + location.search);
  const { messages } = config;
  let notice = messages.submitError;
  // The link's secret goes in a body: a URL's path or query stays in access logs.
  const post = (path: string) => fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) });
  try {
    const response = await post('/api/draft-links/open');
    const draft = response.ok ? ((await response.json()) as ResumeDraft & { pageId: string }) : undefined;
    if (draft?.pageId === config.pageId) {
      const store = services.drafts(config);
      store.save({ step: draft.step, values: draft.values, screen: draft.screen });
      // The page's draft store from now on, this one: once the application is stored (the page clears
      // its draft), the link's draft is erased too, and the link then says it no longer works.
      const clear = store.clear.bind(store);
      store.clear = () => {
        clear();
        void post('/api/draft-links/erase').catch(() => undefined);
      };
      services.drafts = () => store;
      return;
    }
    // Another page's link, or one past its days: gone; one changed on its way (cut short, say): broken.
    notice = response.status === 404 ? messages.resumeLinkBroken : messages.resumeLinkGone;
  } catch {
    // Offline, say: the page starts as it is, and says the link could not be read.
  }
  services.notice = notice;
}
