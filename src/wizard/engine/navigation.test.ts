import { describe, expect, it } from 'vitest';
import { navigate, type NavigationAction, type NavigationState } from './navigation';

/** A state of a page with `steps` steps, the engine there, at `step`; frozen, so a reducer that mutates throws. */
function at(step: number, steps = 4, more: Partial<NavigationState> = {}): NavigationState {
  const state = { step, steps, skipFinalStep: false, ready: true, ...more };
  if (state.busy) Object.freeze(state.busy);
  return Object.freeze(state);
}

/** Applies `actions` in turn. */
function run(state: NavigationState, ...actions: NavigationAction[]): NavigationState {
  return actions.reduce((current, action) => {
    const next = navigate(current, action);
    Object.freeze(next);
    return next;
  }, state);
}

/**
 * What each action leads to, one word each: `validate@2` (the engine checks step 2), `submit@2`,
 * `leave@3` (tracks and redirects), `step 3` (idle on step 3).
 */
function trace(state: NavigationState, actions: NavigationAction[]): string[] {
  const seen: string[] = [];
  actions.reduce((current, action) => {
    const next = navigate(current, action);
    seen.push(next.busy ? `${next.busy.run}@${next.busy.step}` : `step ${next.step}`);
    return next;
  }, state);
  return seen;
}

const CONTINUE: NavigationAction = { type: 'continue' };
const BACK: NavigationAction = { type: 'back' };
const OK: NavigationAction = { type: 'ok' };
const INVALID: NavigationAction = { type: 'invalid' };

describe('requirements §4: step 0 advances with no validation', () => {
  it.each([3, 4, 6])('with %i steps, Continue on step 0 shows step 1 at once, the engine there or not', (steps) => {
    for (const ready of [true, false]) {
      const next = run(at(0, steps, { ready, error: 'Offline' }), CONTINUE);
      expect(next).toEqual({ step: 1, steps, skipFinalStep: false, ready, busy: undefined, error: undefined, focus: 'heading' });
    }
  });

  it('with two steps, step 0 is the second-to-last: it is checked and submits', () => {
    expect(trace(at(0, 2), [CONTINUE, OK, OK])).toEqual(['validate@0', 'submit@0', 'step 1']);
  });
});

describe('requirements §4: Continue, step by step', () => {
  it.each<[string, number, number, boolean, NavigationAction[], string[]]>([
    ['a middle step advances when valid', 4, 1, false, [CONTINUE, OK], ['validate@1', 'step 2']],
    ['a middle step stays when invalid', 4, 1, false, [CONTINUE, INVALID], ['validate@1', 'step 1']],
    ['each attempt on a middle step checks again', 4, 1, false, [CONTINUE, INVALID, CONTINUE, OK], ['validate@1', 'step 1', 'validate@1', 'step 2']],
    ['a later middle step', 6, 3, false, [CONTINUE, OK], ['validate@3', 'step 4']],
    ['the second-to-last step checks, submits, then advances', 4, 2, false, [CONTINUE, OK, OK], ['validate@2', 'submit@2', 'step 3']],
    ['the second-to-last step does not submit when invalid', 4, 2, false, [CONTINUE, INVALID], ['validate@2', 'step 2']],
    ['the second-to-last step with skipFinalStep checks and advances without a submit', 4, 2, true, [CONTINUE, OK], ['validate@2', 'step 3']],
    ['the last step leaves for the sign-up page without a check', 4, 3, false, [CONTINUE, OK], ['leave@3', 'step 3']],
    ['the last step with skipFinalStep checks, submits, then leaves', 4, 3, true, [CONTINUE, OK, OK, OK], ['validate@3', 'submit@3', 'leave@3', 'step 3']],
    ['the last step with skipFinalStep does not submit when invalid', 4, 3, true, [CONTINUE, INVALID], ['validate@3', 'step 3']],
    ['a one-step page leaves', 1, 0, false, [CONTINUE, OK], ['leave@0', 'step 0']],
  ])('%s', (_, steps, step, skipFinalStep, actions, expected) => {
    expect(trace(at(step, steps, { skipFinalStep }), actions)).toEqual(expected);
  });

  it('an advance clears the error line and sends focus to the new heading', () => {
    expect(run(at(1, 4, { error: 'Offline' }), CONTINUE, OK)).toMatchObject({ step: 2, error: undefined, focus: 'heading', busy: undefined });
  });

  it('a press keeps the error line until its outcome', () => {
    expect(run(at(2, 4, { error: 'Offline' }), CONTINUE).error).toBe('Offline');
  });
});

describe('requirements §4: Back goes to the previous step and never validates', () => {
  it.each([1, 2])('from step %i of 4', (step) => {
    expect(run(at(step, 4, { error: 'Offline' }), BACK)).toEqual({ ...at(step - 1, 4), busy: undefined, error: undefined, focus: 'heading' });
  });

  it.each([0, 3])('does nothing on step %i of 4 (Back is not shown there)', (step) => {
    const state = at(step, 4);
    expect(navigate(state, BACK)).toBe(state);
  });

  it('a press under way goes on: its outcome concerns the step it was pressed on', () => {
    const pressed = run(at(2, 4), CONTINUE, BACK);
    expect(pressed).toMatchObject({ step: 1, busy: { run: 'validate', step: 2 } });
    expect(trace(pressed, [OK, OK])).toEqual(['submit@2', 'step 3']);
  });
});

describe('requirements §4: a failed submission keeps the applicant on the step', () => {
  const submitting = run(at(2, 4), CONTINUE, OK);

  it.each<[string, NavigationAction, Partial<NavigationState>]>([
    ['a failed send shows its error', { type: 'failed', error: 'The server is busy' }, { step: 2, error: 'The server is busy', focus: undefined }],
    ['offline: nothing is sent', { type: 'failed', error: 'You are offline' }, { step: 2, error: 'You are offline' }],
    [
      'every server error shown at its field on this step: no error line',
      { type: 'failed', error: undefined, step: 2 },
      { step: 2, error: undefined, focus: undefined },
    ],
    [
      'a server error on an earlier step goes back to it',
      { type: 'failed', error: 'Also: bad key', step: 1 },
      { step: 1, error: 'Also: bad key', focus: 'heading' },
    ],
    ['the final check failing on this step', { type: 'invalid', step: 2 }, { step: 2, focus: 'field' }],
    ['the final check failing on an earlier step goes back to it', { type: 'invalid', step: 1 }, { step: 1, focus: 'heading' }],
  ])('%s', (_, outcome, expected) => {
    expect(submitting.busy).toEqual({ run: 'submit', step: 2 });
    const next = run(submitting, outcome);
    expect(next).toMatchObject({ busy: undefined, ...expected });
  });

  it('the next press checks and submits again', () => {
    const failed = run(submitting, { type: 'failed', error: 'The server is busy' });
    expect(trace(failed, [CONTINUE, OK, OK])).toEqual(['validate@2', 'submit@2', 'step 3']);
  });
});

describe('a press made before the engine arrived is pending until it does', () => {
  it.each<[string, number, boolean, string]>([
    ['a middle step', 1, false, 'validate@1'],
    ['the second-to-last step', 2, false, 'validate@2'],
    ['the last step', 3, false, 'leave@3'],
    ['the last step with skipFinalStep', 3, true, 'validate@3'],
  ])('%s: Continue shows progress; the engine arrives and carries it out', (_, step, skipFinalStep, task) => {
    const pending = run(at(step, 4, { ready: false, skipFinalStep }), CONTINUE);
    expect(pending.busy && `${pending.busy.run}@${pending.busy.step}`).toBe(task);
    const arrived = run(pending, { type: 'ready' });
    expect(arrived).toEqual({ ...pending, ready: true });
  });

  it('the pending press then advances like any other', () => {
    expect(trace(at(1, 4, { ready: false }), [CONTINUE, { type: 'ready' }, OK])).toEqual(['validate@1', 'validate@1', 'step 2']);
  });
});

describe('a press under way blocks another (double clicks send once)', () => {
  it.each<[string, NavigationState]>([
    ['while checking', run(at(1), CONTINUE)],
    ['while submitting', run(at(2), CONTINUE, OK)],
    ['while leaving', run(at(3), CONTINUE)],
    ['while pending', run(at(2, 4, { ready: false }), CONTINUE)],
  ])('%s, Continue does nothing', (_, busy) => {
    expect(busy.busy).toBeDefined();
    expect(navigate(busy, CONTINUE)).toBe(busy);
  });

  it('a double click on the submit step submits once', () => {
    expect(trace(at(2), [CONTINUE, CONTINUE, OK, CONTINUE, OK, CONTINUE])).toEqual(['validate@2', 'validate@2', 'submit@2', 'submit@2', 'step 3', 'leave@3']);
  });

  it.each<[string, NavigationAction]>([
    ['ok', OK],
    ['invalid', INVALID],
    ['failed', { type: 'failed', error: 'x' }],
  ])('an outcome (%s) without a press changes nothing', (_, outcome) => {
    const idle = at(1);
    expect(navigate(idle, outcome)).toBe(idle);
  });
});

describe('focus targets (requirements §2)', () => {
  it.each<[string, NavigationState, NavigationAction[], NavigationState['focus']]>([
    ['a step change: the new heading', at(0), [CONTINUE], 'heading'],
    ['Back: the previous heading', at(2), [BACK], 'heading'],
    ['the heading focused, the engine there: focus stays', at(0), [CONTINUE, { type: 'focused' }], undefined],
    ['the heading focused before the engine: its heading takes over', at(0, 4, { ready: false }), [CONTINUE, { type: 'focused' }], 'engine-heading'],
    ['the engine arrived and took over', at(0, 4, { ready: false }), [CONTINUE, { type: 'focused' }, { type: 'ready' }, { type: 'focused' }], undefined],
    ['a failed check: the first invalid control', at(1), [CONTINUE, INVALID], 'field'],
    ['a failed send: focus stays', at(2), [CONTINUE, OK, { type: 'failed', error: 'x' }], undefined],
    ['a press starting: focus stays', at(1, 4, { focus: 'heading' }), [CONTINUE], 'heading'],
    ['the redirect under way: focus stays', at(3), [CONTINUE, OK], undefined],
  ])('%s', (_, state, actions, focus) => {
    expect(run(state, ...actions).focus).toBe(focus);
  });
});
