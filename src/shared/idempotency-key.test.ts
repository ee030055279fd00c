import { describe, expect, it } from 'vitest';
import { UUID_PATTERN } from '../server/constants';
import { newIdempotencyKey } from './idempotency-key';

describe('newIdempotencyKey', () => {
  it('is a lower-case UUID version 7 the submit route accepts', () => {
    const key = newIdempotencyKey();
    expect(key).toMatch(UUID_PATTERN);
    expect(key).toBe(key.toLowerCase());
    expect(key[14]).toBe('7');
  });

  it('is time-ordered and unique: each key sorts after the one before (RFC 9562 §6.2)', () => {
    const keys = Array.from({ length: 2000 }, () => newIdempotencyKey());
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual(keys);
    expect(Number.parseInt(keys[0]!.replace(/-/g, '').slice(0, 12), 16)).toBeGreaterThan(Date.now() - 60_000);
  });
});
