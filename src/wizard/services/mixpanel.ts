/**
 * mixpanel-browser's core build (no session recorder, requirements §11), in a module of its own so
 * the lazily loaded chunk is recognisable (`mixpanel-*.js`): what only runs once analytics is
 * configured (the library, its settings, the property names' prettifying) stays out of the page's
 * first load.
 */
import mixpanel from 'mixpanel-browser/dist/mixpanel-core.cjs';

/** Splits camel case into capitalised words: `allStepsCount` → `All Steps Count` (requirements §7). */
export function prettifyPropertyName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(' ')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** Prettifies every property name of an event. */
export function prettifyProperties(properties: Record<string, string | number>): Record<string, string | number> {
  return Object.fromEntries(Object.entries(properties).map(([key, value]) => [prettifyPropertyName(key), value]));
}

/** Sends one event with its properties' names prettified, and calls `sent` once it is handed to the network (sendBeacon). */
export type SendEvent = (event: string, properties: Record<string, string | number>, sent: () => void) => void;

/**
 * Starts mixpanel (requirements §7): pointed at `host`, persistence disabled, no batching, no
 * automatic events, no IP geolocation.
 * @param token - the project's token (configuration `analytics.token`).
 * @param host - the API host (configuration `analytics.host`).
 * @returns the function that sends an event.
 */
export function startMixpanel(token: string, host: string): SendEvent {
  mixpanel.init(token, {
    api_host: host,
    disable_persistence: true,
    batch_requests: false,
    track_pageview: false,
    autocapture: false,
    ip: false,
  });
  return (event, properties, sent) => void mixpanel.track(event, prettifyProperties(properties), { transport: 'sendBeacon' }, sent);
}
