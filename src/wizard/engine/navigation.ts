/**
 * The wizard's navigation (requirements §4) as one pure reducer: the step, the Continue press under way
 * (busy), the error line and where focus goes next. The page (`wizard.tsx`) holds the state and
 * dispatches the applicant's presses; the engine carries out each press's task (validate, submit,
 * leave) and dispatches its outcome. No DOM, timers or React here.
 */

/** What the engine does for a Continue press: check the step's controls, send the application, or leave for the sign-up page. */
export interface Task {
  readonly run: 'validate' | 'submit' | 'leave';
  /** The step the press was made on (Back during a press does not change what it does). */
  readonly step: number;
}

/**
 * Where focus goes next (requirements §2): `heading`, the step's heading once it is shown (a step change);
 * `engine-heading`, the heading focused before the engine arrived is replaced by the engine's, which
 * takes focus if focus was lost with the old one (until the next step change); `field`, the first
 * invalid control (focused by the form as it checks the step); undefined, focus stays.
 */
export type FocusTarget = 'heading' | 'engine-heading' | 'field' | undefined;

/** The navigation state (see {@link navigate}). */
export interface NavigationState {
  /** The current step: 0, or a restored draft's step. */
  readonly step: number;
  /** How many steps the page has. */
  readonly steps: number;
  /** The configuration's `skipFinalStep`: the last step validates and submits before its redirect. */
  readonly skipFinalStep: boolean;
  /** The engine has arrived. A press made before (busy while not ready) is pending: it is carried out on arrival. */
  readonly ready?: boolean;
  /** The press under way: Continue shows progress and a second press does nothing. */
  readonly busy?: Task | undefined;
  /** The error line (a failed submit, requirements §2, §8); cleared on every step change. */
  readonly error?: string | undefined;
  readonly focus?: FocusTarget;
}

/** What happens: the applicant's presses, the engine's arrival and the outcomes of its tasks, focus moved. */
export type NavigationAction =
  | { type: 'continue' }
  | { type: 'back' }
  /** The engine has arrived. */
  | { type: 'ready' }
  /** The page moved focus to the heading. */
  | { type: 'focused' }
  /** The press's task succeeded: the step's controls are valid, the application is stored, or the redirect is under way. */
  | { type: 'ok' }
  /** A check failed; `step` holds the first invalid control when it is not the current one (the final check). */
  | { type: 'invalid'; step?: number }
  /** The task failed: the error line's text, and the step of the server's first field error. */
  | { type: 'failed'; error: string | undefined; step?: number };

/**
 * requirements §4's transitions. Continue: step 0 advances with no check (with three steps or more; with
 * two it is the submit step); a middle step is checked and advances when valid; the second-to-last
 * step is checked and submits, advancing on success (with `skipFinalStep` it only checks); the last
 * step leaves for the sign-up page (with `skipFinalStep` it checks and submits first). Back never
 * checks. A failed submit keeps the step and shows its error. A press while one is under way does
 * nothing; an outcome without a press is ignored.
 */
export function navigate(state: NavigationState, action: NavigationAction): NavigationState {
  const { step, busy } = state;
  const last = state.steps - 1;
  // The step the press under way was made on (Back during a press does not change what it does).
  const at = busy ? busy.step : step;
  // A step change ends the press and clears the error line; focus goes to the new step's heading.
  const go = (to: number): NavigationState => ({ ...state, step: to, busy: undefined, error: undefined, focus: 'heading' });
  const run = (task: Task['run']): NavigationState => ({ ...state, busy: { run: task, step: at } });
  const stay = (focus: FocusTarget): NavigationState => ({ ...state, busy: undefined, focus });
  switch (action.type) {
    case 'continue':
      return busy ? state : step === 0 && last > 1 ? go(1) : run(step === last && !state.skipFinalStep ? 'leave' : 'validate');
    case 'back':
      // Shown above step 0 and not on the last; a press under way goes on.
      return step > 0 && step < last ? { ...go(step - 1), busy } : state;
    case 'ready':
      return { ...state, ready: true };
    case 'focused':
      // The heading focused before the engine arrived: the engine's own takes over (engine.tsx).
      return { ...state, focus: state.ready ? undefined : 'engine-heading' };
  }
  if (!busy) return state;
  if (action.type === 'ok') {
    const checked = busy.run === 'validate';
    if (busy.run === 'leave') return stay(state.focus);
    // Checked: a middle step (or the second-to-last with skipFinalStep) advances, others submit; submitted: the second-to-last advances, the last leaves.
    return (checked ? at < last - 1 || (at < last && state.skipFinalStep) : at < last) ? go(at + 1) : run(checked ? 'submit' : 'leave');
  }
  // The step of the first invalid control, when it is not the current one: go there.
  const moved = action.step !== undefined && action.step !== step ? go(action.step) : undefined;
  return action.type === 'invalid' ? (moved ?? stay('field')) : { ...(moved ?? stay(undefined)), error: action.error };
}

/**
 * The step a draft returns the applicant to: its step, kept within the page's steps; the first
 * step (0) without a draft. The wizard starts there, and the page hydrates the server's rendering
 * only when it is 0 (the server renders the first step).
 * @param draft - the restored draft (`services/drafts.ts`), if any.
 * @param stepCount - the number of steps of the page.
 */
export function restoredStep(draft: { readonly step: number } | undefined, stepCount: number): number {
  return Math.min(Math.max(draft?.step ?? 0, 0), stepCount - 1);
}
