import { describe, expect, it } from 'vitest';
import { clientNetwork } from './client-address';

describe('clientNetwork (per-address limits)', () => {
  it('counts IPv4 as it is, IPv4-mapped IPv6 as its IPv4, and other IPv6 by its /64', () => {
    expect(clientNetwork('203.0.113.9')).toBe('203.0.113.9');
    expect(clientNetwork('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientNetwork('2001:db8:0:9::1')).toBe('2001:db8:0:9::/64');
    expect(clientNetwork('2001:db8:0:9:ffff:1:2:3')).toBe('2001:db8:0:9::/64');
    expect(clientNetwork('2001:db8:0:a::1')).toBe('2001:db8:0:a::/64');
  });
});
