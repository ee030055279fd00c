import type { ApplicationPayload } from '../../shared/payload';

/** The cookie holding the anti-forgery token, and the header that echoes it (DESIGN §4). */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';

/** Reads a cookie by name from `document.cookie`; undefined when absent. */
export function readCookie(name: string, cookies: string = document.cookie): string | undefined {
  for (const part of cookies.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** The submit URL: configured `requestUrl`, or `/api/syncPage/{pageId}` (DESIGN §5). */
export function submitUrl(requestUrl: string | undefined, pageId: string): string {
  return requestUrl ?? `/api/syncPage/${encodeURIComponent(pageId)}`;
}

/** The outcome of a submit: success, or the HTTP status (0 for a network failure). */
export type SubmitResult = { ok: true } | { ok: false; status: number };

/**
 * Sends an application (SPEC §7): `PUT` with JSON, `Accept: application/json`,
 * the `Idempotency-Key`, and — for a relative URL only — the anti-forgery
 * header read from the `XSRF-TOKEN` cookie. An empty `url` sends nothing and
 * succeeds (SPEC §7: no request URL configured).
 * @returns `{ ok: true }` on a 2xx answer; never throws.
 */
export async function submitApplication(url: string, payload: ApplicationPayload, idempotencyKey: string): Promise<SubmitResult> {
  if (url === '') return { ok: true };
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'Idempotency-Key': idempotencyKey,
  };
  const relative = url.startsWith('/') && !url.startsWith('//');
  const token = relative ? readCookie(XSRF_COOKIE) : undefined;
  if (token) headers[XSRF_HEADER] = token;
  try {
    const response = await fetch(url, { method: 'PUT', headers, body: JSON.stringify(payload), credentials: 'same-origin' });
    return response.ok ? { ok: true } : { ok: false, status: response.status };
  } catch {
    return { ok: false, status: 0 };
  }
}
