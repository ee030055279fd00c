/**
 * The preview's analytics (docs/decisions/021 "Preview"): none. The preview build
 * (vite.preview.config.ts) puts this module where the wizard imports `services/analytics.ts`, so
 * no event of a team member trying their draft reaches the brand's analytics, and mixpanel is not
 * in the preview's bundle at all.
 */
import type { Analytics } from '../../services/analytics';

export type { Analytics, AnalyticsEvent } from '../../services/analytics';

const NO_ANALYTICS: Analytics = { track: () => Promise.resolve() };

/** Analytics that send nothing, whatever the configuration's `analytics`. */
export function createAnalytics(_settings: { token: string; host: string } | undefined): Analytics {
  return NO_ANALYTICS;
}
