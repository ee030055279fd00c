import type { AgeAnswer } from '../../shared/age';
import type { AgeVerdict } from '../../shared/age-rules';
import type { AgeScreenLock } from '../services/age-screen-lock';
import type { Submission } from '../engine/engine';
import type { WizardServices } from '../engine/services';
import { createDraftStore } from './services/drafts';
import { previewFocusHeading } from './focus-heading';
import { previewSubmit } from './services/submit';

const NO_ANALYTICS = { track: () => Promise.resolve() };

/**
 * The live preview's services (`WizardServices`; docs/decisions/021 "Preview"), given to the real
 * wizard in place of the public page's: drafts in memory (never in the browser's storage), no
 * analytics, funnel beacons or error reports, and no focus taken from the builder while its frame
 * is not focused; with its engine, a submit that sends nothing and tells the builder
 * ({@link previewSubmission}).
 * None of the public page's service modules is in the preview's build.
 */
export const previewServices: WizardServices = {
  drafts: (config) => createDraftStore(config.drafts, config.pageId),
  analytics: () => NO_ANALYTICS,
  reportError: () => undefined,
  focusHeading: previewFocusHeading,
};

/** How the preview's engine sends an application: it does not (it tells the builder), under a fixed Idempotency-Key. */
export const previewSubmission: Submission = {
  submit: previewSubmit,
  idempotencyKeys: { get: () => 'preview', clear: () => undefined },
};

/** The preview's age screen lock: in memory, so trying the screen never locks the builder's browser for a day. */
export function previewAgeScreenLock(): AgeScreenLock {
  let kept: AgeVerdict | undefined;
  let minor: AgeAnswer | undefined;
  return {
    ended: () => kept,
    end: (verdict) => void (kept = verdict),
    minorAnswer: () => minor,
    keepMinorAnswer: (age) => void (minor = age),
  };
}
