/** The anti-forgery double-submit pair of requirements §13, named once for the server, the wizard and the inbox. */

/** Cookie carrying the anti-forgery token (readable by script, `SameSite=Strict`). */
export const XSRF_COOKIE = 'XSRF-TOKEN';
/** Header a mutating request echoes the cookie's value in. */
export const XSRF_HEADER = 'X-XSRF-TOKEN';

/** Reads a cookie by name from `document.cookie`; undefined when absent. */
export function readCookie(name: string, cookies: string = document.cookie): string | undefined {
  for (const part of cookies.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}
