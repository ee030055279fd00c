import type { PreviewEvent } from '../../shared/preview';

/**
 * The frame's side of the preview's channel (src/shared/preview.ts): events go to the window that
 * frames this page, on this origin only. A preview opened in a tab of its own has no builder to
 * tell, and sends nothing.
 */
export function postToBuilder(event: PreviewEvent): void {
  if (window.parent === window) return;
  window.parent.postMessage(event, window.location.origin);
}
