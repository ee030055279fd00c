import type { FunnelBeacon } from '../../shared/admin';
import type { Analytics, AnalyticsEvent } from './analytics';

const FUNNEL_EVENTS: Record<AnalyticsEvent, FunnelBeacon['event']> = {
  'Step Reached': 'stepReached',
  'Form Submitted': 'submitted',
  'Sign In Clicked': 'signInClicked',
  'Age Screen Ended': 'ageEnded',
};

/**
 * Adds the inbox's funnel to analytics: each event also goes to
 * `POST /api/funnel/{pageId}` on this server with `navigator.sendBeacon` —
 * the event and the step (from 0) only, no personal data, no cookies needed.
 * Sent only when applications go to this server (`requestUrl` unset or a
 * path); a page without a server (`requestUrl: ""`) or posting elsewhere sends none.
 * A beacon leaves in the task after the event (a beacon costs the main thread ~10 ms on a
 * phone, and 'Step Reached' comes with the step change the applicant waits to see),
 * or at `pagehide` if the page goes first.
 */
export function withFunnel(analytics: Analytics, config: { pageId: string; requestUrl?: string | undefined }): Analytics {
  const sameServer = config.requestUrl === undefined || config.requestUrl.startsWith('/');
  if (!sameServer || typeof navigator === 'undefined' || typeof navigator.sendBeacon !== 'function') return analytics;
  const url = `/api/funnel/${encodeURIComponent(config.pageId)}`;
  const pending: FunnelBeacon[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    for (const beacon of pending.splice(0)) {
      try {
        navigator.sendBeacon(url, new Blob([JSON.stringify(beacon)], { type: 'application/json' }));
      } catch {
        // A beacon the browser refuses is a count lost, never an applicant's problem.
      }
    }
  };
  if (typeof window !== 'undefined') window.addEventListener('pagehide', flush);
  return {
    track(event, properties, timeoutMs) {
      const beacon: FunnelBeacon = { event: FUNNEL_EVENTS[event] };
      if (event === 'Step Reached' && typeof properties.step === 'number') beacon.step = properties.step - 1;
      pending.push(beacon);
      timer ??= setTimeout(flush, 0);
      return analytics.track(event, properties, timeoutMs);
    },
  };
}
