import { describe, expect, it } from 'vitest';
import { parseEnv, parseTrustProxy } from './env';

describe('TRUST_PROXY (decision 006)', () => {
  it('is off by default', () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: 'off' }).TRUST_PROXY).toBe(false);
  });

  it('takes a hop count or a list of proxy addresses and CIDRs', () => {
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy(' 10.0.0.0/8, 127.0.0.1 ')).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(parseTrustProxy('::1,fd00::/8,192.168.1.1/32')).toEqual(['::1', 'fd00::/8', '192.168.1.1/32']);
    expect(parseTrustProxy('::ffff:10.0.0.0/104,10.0.0.0/8')).toEqual(['::ffff:10.0.0.0/104', '10.0.0.0/8']);
  });

  it.each([
    ['on', /^"on" would believe any client's X-Forwarded-For; expected off, a hop count \(1\) or a comma-separated list of proxy addresses and CIDRs/],
    ['true', /^"true" would believe any client's X-Forwarded-For/],
    ['yes', /^"yes" would believe/],
    ['0', /^a hop count is 1 or more/],
    ['1.5', /^"1\.5" is not an IP address or CIDR/],
    ['0.0.0.0/0', /^"0\.0\.0\.0\/0" would trust every address/],
    ['::/0', /^"::\/0" would trust every address/],
    ['10.0.0.0/33', /^"10\.0\.0\.0\/33" is not an IP address or CIDR/],
    ['fd00::/129', /^"fd00::\/129" is not an IP address or CIDR/],
    ['10.0.0.1/x', /is not an IP address or CIDR/],
    ['10.0.0.0/8/1', /is not an IP address or CIDR/],
    ['10.0.0.1,,127.0.0.1', /^an entry is empty/],
    ['loopback', /^"loopback" is not an IP address or CIDR/],
    ['10.0.0.300', /is not an IP address or CIDR/],
    // Ranges that add up to most of the internet (decision 006: a range wider than a proxy network is refused).
    ['0.0.0.0/1,128.0.0.0/1', /^"0\.0\.0\.0\/1" is wider than a proxy network/],
    ['10.0.0.0/7', /is wider than a proxy network/],
    ['::ffff:0:0/96', /^"::ffff:0:0\/96" is wider than a proxy network/],
    ['::ffff:0.0.0.0/96', /is wider than a proxy network/],
    ['::fffe:0:0/95', /is wider than a proxy network/],
    ['::/1,8000::/1', /^"::\/1" is wider than a proxy network/],
    ['2000::/3', /^"2000::\/3" is wider than a proxy network/],
    ['fc00::/6', /is wider than a proxy network/],
  ])('refuses %s naming the accepted forms', (value, message) => {
    expect(() => parseTrustProxy(value)).toThrow(message);
    expect(() => parseEnv({ TRUST_PROXY: value })).toThrow(
      /^TRUST_PROXY: .*expected off, a hop count \(1\) or a comma-separated list of proxy addresses and CIDRs \(10\.0\.0\.0\/8,127\.0\.0\.1\) \(got "/,
    );
  });
});

describe('SUBMIT_ORIGINS_ALLOWED (decision 021’s outside attack on the submit path’s edges)', () => {
  it('is none by default, and a list of origins otherwise; anything else stops start-up naming the variable', () => {
    expect(parseEnv({}).SUBMIT_ORIGINS_ALLOWED).toEqual([]);
    expect(parseEnv({ SUBMIT_ORIGINS_ALLOWED: 'https://CRM.brand.example/, http://127.0.0.1:9000' }).SUBMIT_ORIGINS_ALLOWED).toEqual([
      'https://crm.brand.example',
      'http://127.0.0.1:9000',
    ]);
    expect(() => parseEnv({ SUBMIT_ORIGINS_ALLOWED: '*' })).toThrow(
      /^SUBMIT_ORIGINS_ALLOWED: expected an http\(s\) URL \("\*"\); expected a comma-separated list of origins/,
    );
    expect(() => parseEnv({ SUBMIT_ORIGINS_ALLOWED: 'https://*.brand.example' })).toThrow(
      /^SUBMIT_ORIGINS_ALLOWED: "\*\.brand\.example" is not a host name: a wildcard/,
    );
    expect(() => parseEnv({ SUBMIT_ORIGINS_ALLOWED: 'https://crm.brand.example/collect' })).toThrow(
      /^SUBMIT_ORIGINS_ALLOWED: "https:\/\/crm\.brand\.example\/collect" is not an origin/,
    );
  });
});
