import type { PostResult } from './http';

/**
 * When a delivery is tried again (docs/integrations.md, "Delivery"): attempts at once, then after
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (eight in all, about 28 hours), each wait stretched
 * by up to a tenth at random (jitter), so a receiver that comes back is not met by every delivery
 * at once. The waits in ms, after attempt 1, 2, ….
 */
export const RETRY_WAITS_MS: readonly number[] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** How many attempts a delivery has: the first and one after each wait. */
export const MAX_ATTEMPTS = RETRY_WAITS_MS.length + 1;

/** `waitMs` stretched by up to a tenth at random (jitter), so what failed together is not tried again all at once. */
export function withJitter(waitMs: number, random: () => number = Math.random): number {
  return waitMs * (1 + random() / 10);
}

/** The longest `Retry-After` honoured: the schedule's longest wait. */
const MAX_RETRY_AFTER_MS = 36_000_000;

/** What an attempt leads to: done, another attempt at `nextAttemptAt` (ms), or failed for good (`disable`: its endpoint too, and why). */
export type AttemptOutcome =
  | { state: 'delivered'; status: number; latencyMs: number }
  | { state: 'pending'; nextAttemptAt: number; status: number | null; error: string | null; latencyMs: number }
  | { state: 'failed'; status: number | null; error: string | null; latencyMs: number; disable?: string };

/**
 * The wait a `Retry-After` asks for, in ms: seconds, or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable.
 * @param now - the time now (ms), for a date.
 */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * What attempt number `attempt` (1 for the first) of a delivery comes to (docs/integrations.md,
 * "Delivery"): any 2xx is delivered; 410 Gone fails it and disables its endpoint; anything else
 * (another status, a redirect, a time-out, a refused address) is tried again after the next wait
 * of {@link RETRY_WAITS_MS}, or later when a 429 or 503 asks so with `Retry-After` (up to 10
 * hours; never sooner than the schedule); after the last attempt it fails and its endpoint is disabled.
 * @param now - the time the attempt ended (ms).
 * @param random - a number in [0, 1) for the jitter (tests give a fixed one).
 */
export function attemptOutcome(attempt: number, result: PostResult, now: number, random: () => number = Math.random): AttemptOutcome {
  const status = 'status' in result ? result.status : null;
  const error = 'error' in result ? result.error : status !== null && (status < 200 || status > 299) ? `The endpoint answered ${status}.` : null;
  const { latencyMs } = result;
  if (status !== null && status >= 200 && status <= 299) return { state: 'delivered', status, latencyMs };
  if (status === 410) return { state: 'failed', status, error, latencyMs, disable: 'The endpoint answered 410 Gone.' };
  if (attempt >= MAX_ATTEMPTS) {
    return { state: 'failed', status, error, latencyMs, disable: `Every attempt of a delivery failed (${MAX_ATTEMPTS} over about 28 hours).` };
  }
  const asked = status === 429 || status === 503 ? retryAfterMs('retryAfter' in result ? result.retryAfter : undefined, now) : undefined;
  const scheduled = withJitter(RETRY_WAITS_MS[attempt - 1]!, random);
  // Never sooner than the schedule (a `Retry-After: 0` would spend every attempt at once), later when asked.
  const wait = asked !== undefined ? Math.max(scheduled, Math.min(asked, MAX_RETRY_AFTER_MS)) : scheduled;
  return { state: 'pending', nextAttemptAt: Math.round(now + wait), status, error, latencyMs };
}
