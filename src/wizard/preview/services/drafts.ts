/**
 * The preview's drafts (docs/decisions/021 "Preview"): kept in memory, never in
 * sessionStorage or localStorage (a team member's trial answers are not an applicant's draft, and
 * must not come back on the public page); `previewServices` gives them to the wizard.
 *
 * The preview also uses the draft to re-render a new configuration, or jump to a step, without a
 * reload: it sets the draft ({@link setPreviewDraft}) and mounts the wizard afresh, which starts on
 * the draft's step with its answers, as a reload does on the public page.
 */
import type { Draft, DraftMode, DraftStore } from '../../services/drafts';

export { type Draft, type DraftMode, type DraftStore } from '../../services/drafts';

let held: Draft | undefined;
// Set by the preview for the next mount: until that mount reads it, the wizard being replaced
// may still save (its save waits a frame, or 300 ms of typing, or a timer after a step change):
// its answers are taken, but not its step, or the new mount would start on the old step.
let pinned = false;

const MEMORY: DraftStore = {
  load() {
    pinned = false;
    return held;
  },
  save(draft) {
    held = pinned && held ? { ...draft, step: held.step } : draft;
  },
  clear() {
    held = undefined;
  },
};

/** The one draft store of the preview, in memory, whatever the configuration's `drafts`. */
export function createDraftStore(_mode: DraftMode, _pageId: string): DraftStore {
  return MEMORY;
}

/** The answers the wizard saved last (none before it saved or after a submit). */
export function previewAnswers(): Record<string, unknown> {
  return held?.values ?? {};
}

/**
 * Sets the draft the next mount of the wizard starts from: its step and answers. Saves made
 * before that mount reads it (by the wizard it replaces) change its answers, never its step.
 */
export function setPreviewDraft(draft: Draft): void {
  held = draft;
  pinned = true;
}
