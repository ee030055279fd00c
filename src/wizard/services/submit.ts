import type { ApplicationPayload, FieldError } from '../../shared/payload';
import { XSRF_COOKIE, XSRF_HEADER, readCookie } from '../../shared/xsrf';
import { systemTimers, type Timers } from './timers';

/** Whether `url` is this server's (a path), not another site's: only this server gets the anti-forgery header and the proof of work. */
export const isOwnUrl = (url: string) => url.startsWith('/') && !url.startsWith('//');

/** The submit URL: configured `requestUrl`, or `/api/syncPage/{pageId}` (requirements §14). */
export function submitUrl(requestUrl: string | undefined, pageId: string): string {
  return requestUrl ?? `/api/syncPage/${encodeURIComponent(pageId)}`;
}

/**
 * The outcome of a submit: success, or the HTTP status (0 for a network failure) and, for a 400
 * problem+json (RFC 9457), the server's field errors (`[{ path, message }]`, payload paths, in the
 * page's language).
 */
/**
 * A send's outcome: stored (`guardianAsked` false when the server held a minor's application but
 * could not e-mail their parent or guardian: their mailbox had its requests for the day), or not.
 */
export type SubmitResult = { ok: true; guardianAsked?: boolean } | { ok: false; status: number; errors?: FieldError[] };

/** The field errors of a problem-details body, or undefined when it has none (any other shape). */
async function fieldErrors(response: Response): Promise<FieldError[] | undefined> {
  const body: unknown = await response.json().catch(() => undefined);
  const errors = typeof body === 'object' && body !== null ? (body as { errors?: unknown }).errors : undefined;
  if (!Array.isArray(errors)) return undefined;
  const valid = errors.filter((error): error is FieldError => typeof error?.path === 'string' && typeof error?.message === 'string');
  return valid.length > 0 ? valid : undefined;
}

/** Retry policy of {@link submitApplication}. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** First back-off, in ms; doubled each time, with jitter. */
  baseDelayMs: number;
  /** Longest wait between attempts, in ms (a longer Retry-After is cut to it). */
  maxDelayMs: number;
  /** Waits `ms`; replaceable in tests. */
  sleep: (ms: number) => Promise<void>;
  /**
   * Told before each wait for another attempt: `attempt` is the attempt that failed (1-based),
   * `delayMs` the wait in ms. The wizard says "Still sending…" from then on.
   */
  onRetry?: (attempt: number, delayMs: number) => void;
}

/**
 * Three attempts: about two seconds after network failures, at most ten under Retry-After.
 * @param timers - what the back-off waits on (default: the browser's timers).
 */
export function defaultRetry(timers: Timers = systemTimers): RetryPolicy {
  return { attempts: 3, baseDelayMs: 600, maxDelayMs: 5000, sleep: (ms) => new Promise((resolve) => void timers.set(resolve, ms)) };
}

/** {@link defaultRetry} on the browser's timers. */
export const DEFAULT_RETRY: RetryPolicy = defaultRetry();

/** Statuses worth retrying: the network (0), rate limited, overloaded or store down. */
const RETRYABLE = new Set([0, 429, 502, 503, 504]);

/**
 * The wait before retry number `attempt` (1-based): the server's Retry-After
 * when it gave one, else exponential back-off with full jitter; capped.
 */
export function retryDelayMs(attempt: number, retryAfter: string | null, policy: RetryPolicy, random = Math.random): number {
  const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, policy.maxDelayMs);
  const ceiling = Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * Sends an application (requirements §7): `PUT` with JSON, `Accept: application/json`,
 * the `Idempotency-Key`, and — for a relative URL only — the anti-forgery
 * header read from the `XSRF-TOKEN` cookie. A network failure, 429 or 503 is
 * retried with the same key (so the server stores it once) after the
 * Retry-After or an exponential back-off with jitter. An empty `url` sends
 * nothing and succeeds (requirements §7: no request URL configured). `more`: further headers (the
 * bot check's `Altcha`, `services/submission.ts`).
 * @returns `{ ok: true }` on a 2xx answer; never throws.
 */
export async function submitApplication(
  url: string,
  payload: ApplicationPayload,
  idempotencyKey: string,
  policy: RetryPolicy = DEFAULT_RETRY,
  more: Record<string, string> = {},
): Promise<SubmitResult> {
  if (url === '') return { ok: true };
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'Idempotency-Key': idempotencyKey,
    ...more,
  };
  const body = JSON.stringify(payload);
  let result: SubmitResult = { ok: false, status: 0 };
  for (let attempt = 1; attempt <= policy.attempts; attempt++) {
    let retryAfter: string | null = null;
    try {
      // Read the token on every attempt: a reload in another tab may have renewed it.
      const token = isOwnUrl(url) ? readCookie(XSRF_COOKIE) : undefined;
      const response = await fetch(url, {
        method: 'PUT',
        headers: token ? { ...headers, [XSRF_HEADER]: token } : headers,
        body,
        credentials: 'same-origin',
      });
      if (response.ok) {
        // Another site's answer (an allowed `requestUrl`) may be anything: only this server's false counts.
        const body: unknown = await response.json().catch(() => undefined);
        return typeof body === 'object' && body !== null && (body as { guardianAsked?: unknown }).guardianAsked === false
          ? { ok: true, guardianAsked: false }
          : { ok: true };
      }
      result = { ok: false, status: response.status };
      if (response.status === 400) {
        const errors = await fieldErrors(response);
        if (errors) result.errors = errors;
      }
      retryAfter = response.headers.get('Retry-After');
    } catch {
      result = { ok: false, status: 0 };
    }
    if (!RETRYABLE.has(result.status) || attempt === policy.attempts) break;
    const delayMs = retryDelayMs(attempt, retryAfter, policy);
    policy.onRetry?.(attempt, delayMs);
    await policy.sleep(delayMs);
  }
  return result;
}
