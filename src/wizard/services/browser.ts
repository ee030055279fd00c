import type { WizardServices } from '../engine/services';
import { createAnalytics } from './analytics';
import { createDraftStore } from './drafts';
import { reportError } from './error-reporting';
import { withFunnel } from './funnel';

/**
 * The browser's services for the page (`WizardServices`): drafts in the storage the configuration
 * names, analytics with the funnel's beacons, error reporting, and the engine's chunk imported on
 * demand. In the live preview's build each module imported here is replaced by its preview twin
 * (src/wizard/preview/replaced.ts): drafts in memory, no analytics, beacons or reports.
 */
export const browserServices: WizardServices = {
  drafts: (config) => createDraftStore(config.drafts, config.pageId),
  analytics: (config) => withFunnel(createAnalytics(config.analytics), config),
  reportError,
  loadEngine: () => import('../wizard-engine'),
};
