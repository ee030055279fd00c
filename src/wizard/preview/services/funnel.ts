/**
 * The preview's funnel (docs/decisions/021 "Preview"): no beacon to `POST /api/funnel`,
 * so the inbox's funnel counts applicants only. Replaces `services/funnel.ts` in the preview build.
 */
import type { Analytics } from '../../services/analytics';

/** The analytics given, with no funnel beacons added. */
export function withFunnel(analytics: Analytics, _config: { pageId: string; requestUrl?: string | undefined }): Analytics {
  return analytics;
}
