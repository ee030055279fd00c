/**
 * The live preview of a campaign page (docs/decisions/021): the builder in the inbox
 * frames `GET /preview/{id}` and talks to the wizard in the frame with `window.postMessage`, on
 * this origin only (each side checks `event.origin === location.origin` and the sender's window).
 * The builder sends the draft as typed on every change; the frame renders it at once (no save,
 * no reload, no network: the 300 ms allowed are the render's) and answers with what it
 * rendered and the draft's problems, so the builder can show them and go to any step.
 */

/** The preview route of a page: `/preview/{id}` (the page's draft, for a signed-in inbox user). */
export const previewPath = (pageId: string) => `/preview/${encodeURIComponent(pageId)}`;

/** A problem in the draft: its JSON path into the configuration and what is wrong. */
export interface PreviewProblem {
  path: string;
  message: string;
}

/** Builder → frame. */
export type PreviewCommand =
  /** Render this draft (the configuration as typed), on `step` (0-based) when given, else on the step shown. */
  | { type: 'wizard-preview:config'; config: unknown; step?: number }
  /** Show step `step` (0-based) of the draft shown. */
  | { type: 'wizard-preview:step'; step: number };

/** Frame → builder. */
export type PreviewEvent =
  /** The frame listens: send it the draft. */
  | { type: 'wizard-preview:ready' }
  /**
   * The frame rendered a draft: its step shown (0-based), the number of steps, and the draft's
   * problems (empty when it would publish). A draft with problems that still parses is rendered;
   * one that does not parse keeps the last one rendered (`rendered: false`).
   */
  | { type: 'wizard-preview:rendered'; rendered: boolean; step: number; steps: number; problems: PreviewProblem[] }
  /** The applicant in the frame submitted: nothing was stored. */
  | { type: 'wizard-preview:submitted' }
  /**
   * The team moved to another step inside the frame (Continue, Back): the step shown (0-based) and
   * the number of steps, so the builder's step picker can follow. Not sent for a step the builder
   * asked for (that answers `wizard-preview:rendered`).
   */
  | { type: 'wizard-preview:navigated'; step: number; steps: number };

/** Id of the `<script type="application/json">` element that marks a page as a preview and carries {@link PreviewMarker}. */
export const PREVIEW_ELEMENT_ID = 'wizard-preview';

/** What the preview route inlines beside the configuration (`GET /preview/{id}`). */
export interface PreviewMarker {
  /** The stored page's id (the draft's own `pageId` may differ: that is one of its problems). */
  pageId: string;
  /** The draft's problems as the server found them (the frame reports them until the builder sends a draft). */
  problems: PreviewProblem[];
}

/** Whether `data` is a {@link PreviewEvent} or {@link PreviewCommand} (its `type` starts `wizard-preview:`). */
export function isPreviewMessage(data: unknown): data is PreviewCommand | PreviewEvent {
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { type?: unknown }).type === 'string' &&
    (data as { type: string }).type.startsWith('wizard-preview:')
  );
}
