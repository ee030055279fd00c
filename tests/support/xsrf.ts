import { XsrfTokens } from '../../src/server/xsrf';

/** The `SECRET` tests build the app with, so they can make the anti-forgery tokens it accepts. */
export const TEST_SECRET = 'a test secret of at least thirty-two characters';

/**
 * A valid anti-forgery pair for an app built with {@link TEST_SECRET}: the token, the cookie
 * header and the headers a submit sends.
 * @param binding - the session id (SHA-256 of the session cookie) for inbox mutations; '' for the wizard.
 */
export function xsrfPair(binding = '', secret = TEST_SECRET) {
  const token = new XsrfTokens(secret).issue(binding);
  return { token, cookie: `XSRF-TOKEN=${token}`, headers: { cookie: `XSRF-TOKEN=${token}`, 'x-xsrf-token': token } };
}
