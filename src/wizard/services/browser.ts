import { focusHeading } from '../engine/focus-heading';
import type { WizardServices } from '../engine/services';
import { createAnalytics } from './analytics';
import { createDraftStore } from './drafts';
import { reportError } from './error-reporting';
import { withFunnel } from './funnel';

/**
 * The public page's services (`WizardServices`): drafts in the storage the configuration names,
 * analytics with the funnel's beacons, error reporting, focus to the step's heading. The page's
 * entry (`main.tsx`) adds the engine's chunk, imported on demand, which brings the submit
 * (`services/submission.ts`).
 */
export const browserServices: WizardServices = {
  drafts: (config) => createDraftStore(config.drafts, config.pageId),
  analytics: (config) => withFunnel(createAnalytics(config.analytics), config),
  reportError,
  focusHeading,
};
