import { focusHeading } from '../engine/focus-heading';
import type { WizardServices } from '../engine/services';
import { createAnalytics } from './analytics';
import { createDraftStore } from './drafts';
import { reportError } from './error-reporting';
import { withFunnel } from './funnel';
import { clearIdempotencyKey, getIdempotencyKey } from './idempotency';
import { submitApplication } from './submit';

/**
 * The public page's services (`WizardServices`): drafts in the storage the configuration names,
 * analytics with the funnel's beacons, error reporting, the submit with its Idempotency-Key, focus
 * to the step's heading. The page's entry (`main.tsx`) adds the engine's chunk, imported on demand.
 */
export const browserServices: WizardServices = {
  drafts: (config) => createDraftStore(config.drafts, config.pageId),
  analytics: (config) => withFunnel(createAnalytics(config.analytics), config),
  reportError,
  submit: submitApplication,
  idempotencyKeys: { get: getIdempotencyKey, clear: clearIdempotencyKey },
  focusHeading,
};
