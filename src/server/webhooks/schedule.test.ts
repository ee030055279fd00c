import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, RETRY_WAITS_MS, attemptOutcome, retryAfterMs } from './schedule';

const NOW = Date.parse('2026-11-29T12:00:00Z');

describe('the retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h between eight attempts, each wait stretched by up to a tenth', () => {
    expect(MAX_ATTEMPTS).toBe(8);
    const waits = RETRY_WAITS_MS.map((_, index) => {
      const outcome = attemptOutcome(index + 1, { status: 500, latencyMs: 3 }, NOW, () => 0);
      return outcome.state === 'pending' ? outcome.nextAttemptAt - NOW : undefined;
    });
    expect(waits).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    const stretched = attemptOutcome(1, { error: 'connect ECONNREFUSED', latencyMs: 1 }, NOW, () => 0.999);
    expect(stretched).toMatchObject({ state: 'pending', status: null, error: 'connect ECONNREFUSED' });
    expect(stretched.state === 'pending' && stretched.nextAttemptAt - NOW).toBe(5_500);
  });

  it('delivers on any 2xx, fails and disables on 410 or after the last attempt, honours Retry-After on 429 and 503 only', () => {
    expect(attemptOutcome(3, { status: 204, latencyMs: 9 }, NOW)).toEqual({ state: 'delivered', status: 204, latencyMs: 9 });
    expect(attemptOutcome(1, { status: 410, latencyMs: 2 }, NOW)).toMatchObject({ state: 'failed', disable: 'The endpoint answered 410 Gone.' });
    expect(attemptOutcome(MAX_ATTEMPTS, { status: 500, latencyMs: 2 }, NOW)).toMatchObject({
      state: 'failed',
      disable: expect.stringContaining('Every attempt'),
    });
    // A redirect is not followed: a failure like another.
    expect(attemptOutcome(1, { status: 301, latencyMs: 2 }, NOW, () => 0)).toMatchObject({ state: 'pending', error: 'The endpoint answered 301.' });
    expect(attemptOutcome(1, { status: 503, retryAfter: '120', latencyMs: 2 }, NOW)).toMatchObject({ nextAttemptAt: NOW + 120_000 });
    // Never sooner than the schedule: a rate limiter's `Retry-After: 0` does not spend the attempts at once.
    expect(attemptOutcome(2, { status: 429, retryAfter: '0', latencyMs: 2 }, NOW, () => 0)).toMatchObject({ nextAttemptAt: NOW + 300_000 });
    expect(attemptOutcome(1, { status: 429, retryAfter: 'Sun, 29 Nov 2026 12:30:00 GMT', latencyMs: 2 }, NOW)).toMatchObject({
      nextAttemptAt: NOW + 1_800_000,
    });
    // At most the schedule's longest wait; ignored on another status.
    expect(attemptOutcome(1, { status: 429, retryAfter: '999999', latencyMs: 2 }, NOW)).toMatchObject({ nextAttemptAt: NOW + 36_000_000 });
    expect(attemptOutcome(1, { status: 500, retryAfter: '120', latencyMs: 2 }, NOW, () => 0)).toMatchObject({ nextAttemptAt: NOW + 5_000 });
    expect([retryAfterMs(undefined, NOW), retryAfterMs('soon', NOW), retryAfterMs(' 7 ', NOW)]).toEqual([undefined, undefined, 7_000]);
  });
});
