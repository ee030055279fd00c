/**
 * Analytics (requirements §7) with mixpanel-browser's core build, loaded lazily and
 * only when the configuration has `analytics.token`: pointed at
 * `analytics.host`, persistence disabled, no batching, no automatic events.
 */

/**
 * The events the wizard sends (requirements §7). 'Age Screen Ended' goes to the inbox's funnel only,
 * never to the brand's analytics (requirements §20: an anonymous count is all that is kept).
 */
export type AnalyticsEvent = 'Step Reached' | 'Form Submitted' | 'Sign In Clicked' | 'Age Screen Ended';

/** What the wizard needs of analytics. */
export interface Analytics {
  /**
   * Sends an event; property names are prettified ('allStepsCount' → 'All Steps Count').
   * @returns a promise settled once the event is handed to the network (sendBeacon), or after
   * `timeoutMs`, so a redirect that follows does not lose it. Never rejects.
   */
  track(event: AnalyticsEvent, properties: Record<string, string | number>, timeoutMs?: number): Promise<void>;
}

const NO_ANALYTICS: Analytics = { track: () => Promise.resolve() };

/**
 * Creates the analytics service.
 * @param settings - `analytics` from the configuration; absent or without token = no analytics.
 */
export function createAnalytics(settings: { token: string; host: string } | undefined): Analytics {
  if (!settings?.token) return NO_ANALYTICS;
  let loading: Promise<import('./mixpanel').SendEvent | undefined> | undefined;
  const load = () =>
    (loading ??= import('./mixpanel').then(
      ({ startMixpanel }) => startMixpanel(settings.token, settings.host),
      () => undefined,
    ));
  return {
    async track(event, properties, timeoutMs = 1000) {
      if (event === 'Age Screen Ended') return;
      const send = await load();
      if (!send) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        send(event, properties, () => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
