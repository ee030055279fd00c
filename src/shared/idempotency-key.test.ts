import { describe, expect, it } from 'vitest';
import { newIdempotencyKey } from './idempotency-key';

describe('newIdempotencyKey', () => {
  it('is a UUID version 7 in canonical lower-case form (RFC 9562 §4, §5.7: version 7, variant 10)', () => {
    expect(newIdempotencyKey()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('is time-ordered and unique: each key sorts after the one before (RFC 9562 §6.2)', () => {
    const keys = Array.from({ length: 2000 }, () => newIdempotencyKey());
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual(keys);
    expect(Number.parseInt(keys[0]!.replace(/-/g, '').slice(0, 12), 16)).toBeGreaterThan(Date.now() - 60_000);
  });
});
