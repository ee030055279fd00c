import type { WizardConfig } from './config-schema';

// Kept apart from config.ts so the browser's first chunk (the frame) does not pull in the schema library.

/**
 * The index of the step whose button sends the application (requirements §4): the last step with
 * `skipFinalStep` (it sends, then hands off to the sign-up page), else the one before the
 * thank-you step. Its button says so ("Submit application", `buttonText.submit`).
 */
export function sendingStepIndex(config: Pick<WizardConfig, 'steps' | 'skipFinalStep'>): number {
  return config.skipFinalStep ? config.steps.length - 1 : config.steps.length - 2;
}
