import type { WizardConfig } from '../../shared/config';
import { previewCheck } from '../../shared/page-checks';
import { isPreviewMessage, type PreviewEvent, type PreviewProblem } from '../../shared/preview';
import { sanitizeConfig } from '../../shared/sanitize-html';

/** What the controller asks of the page: render a configuration on a step. */
export interface PreviewView {
  /**
   * Renders `config` (parsed and sanitised) on step `step` (0-based, within its steps).
   * @returns a promise settled once React has committed it: true when it rendered, false when it
   * threw while rendering (the view then shows again the configuration it showed before).
   */
  show(config: WizardConfig, step: number): Promise<boolean>;
}

/** The frame's side of the preview protocol (src/shared/preview.ts). */
export interface PreviewController {
  /** A `message` event: acted on only when it is a `PreviewCommand` from the framing window on this origin. */
  receive(event: Pick<MessageEvent, 'data' | 'origin' | 'source'>): void;
  /** The wizard shows step `step` of `steps` (the engine tells, on every step change). */
  stepShown(step: number, steps: number): void;
}

/** What {@link createPreviewController} needs. */
export interface PreviewControllerOptions {
  /** The stored page's id (the publish check compares the draft's `pageId` with it). */
  pageId: string;
  view: PreviewView;
  /** Sends an event to the builder. */
  post: (event: PreviewEvent) => void;
  /** The page's origin: commands from any other are ignored. */
  origin: string;
  /** The framing window (`window.parent`): commands from any other window are ignored. */
  parent: unknown;
  /** What the page shows when the controller starts: the configuration the server inlined (none for an empty shell) and its problems. */
  initial: { config: WizardConfig | undefined; problems: PreviewProblem[] };
}

/** A step of a command: a whole number from 0, else undefined (the command is then taken without it). */
const stepOf = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined);

/**
 * The preview frame's handling of the builder's commands (docs/decisions/021
 * "Preview"): `wizard-preview:config` is checked with the publish check (`previewCheck`, the
 * rulebook the server publishes by), sanitised with the server's `sanitizeConfig` and rendered on
 * the step asked for, else on the step shown (kept within the draft's steps); a draft the schema
 * refuses keeps what is shown. `wizard-preview:step` shows any step of the draft shown, answers
 * or not. Each is answered with `wizard-preview:rendered` once React has committed it, with the
 * draft's problems. A step the team reaches inside the frame is told with `wizard-preview:navigated`.
 * Commands are taken from the framing window on this origin only.
 */
export function createPreviewController(options: PreviewControllerOptions): PreviewController {
  const { pageId, view, post, origin, parent } = options;
  let shown = options.initial.config;
  let problems = options.initial.problems;
  let step = 0;
  // One command at a time, in the order they came: a render answers before the next starts.
  let queue = Promise.resolve();
  // Drafts sent while one renders: only the last is rendered (the builder sends one a change).
  let draftsWaiting = 0;

  const rendered = (ok: boolean) => post({ type: 'wizard-preview:rendered', rendered: ok, step, steps: shown?.steps.length ?? 0, problems });
  const clamp = (config: WizardConfig, at: number) => Math.min(at, config.steps.length - 1);

  /** Shows `config` on `at`; on a failed render, keeps the configuration and step shown before. */
  const render = async (config: WizardConfig, at: number) => {
    const before = { shown, step };
    // Set first: the engine tells the step it mounts on, which is this one and no navigation.
    shown = config;
    step = at;
    const ok = await view.show(config, at);
    if (!ok) ({ shown, step } = before);
    rendered(ok);
  };

  const take = (data: unknown) => {
    if (!isPreviewMessage(data)) return;
    if (data.type === 'wizard-preview:config') {
      if (--draftsWaiting > 0) return;
      const checked = previewCheck(data.config, pageId);
      problems = checked.problems;
      if (!checked.config) return rendered(false);
      const config = sanitizeConfig(checked.config);
      return render(config, clamp(config, stepOf(data.step) ?? step));
    }
    if (data.type === 'wizard-preview:step') {
      const at = stepOf(data.step);
      if (at === undefined) return;
      if (!shown) return rendered(false);
      return render(shown, clamp(shown, at));
    }
  };

  return {
    receive(event) {
      if (event.origin !== origin || event.source !== parent || parent === null) return;
      const { data } = event as { data: unknown };
      if (isPreviewMessage(data) && data.type === 'wizard-preview:config') draftsWaiting++;
      queue = queue.then(() => take(data)).catch((error: unknown) => console.error(error));
    },
    stepShown(at, steps) {
      if (at === step && steps === shown?.steps.length) return;
      step = at;
      post({ type: 'wizard-preview:navigated', step, steps });
    },
  };
}
