import Bowser from 'bowser';

/**
 * A session's device as its member reads it, from the user agent (bowser): `Chrome 131 on macOS`,
 * `Safari on iOS`; `Unknown device` when there is none. Only what a browser says of itself: a
 * client may say anything, so this names a session, it proves nothing.
 */
export function deviceOf(userAgent: string): string {
  if (!userAgent.trim()) return 'Unknown device';
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split('.')[0];
  const browser = parsed.browser.name ? `${parsed.browser.name}${major ? ` ${major}` : ''}` : 'A browser';
  return parsed.os.name ? `${browser} on ${parsed.os.name}` : browser;
}
