import { describe, expect, it } from 'vitest';
import type { WizardConfig } from '../../shared/config';
import { defaultConfig } from '../../../tests/factories/application';
import { contentSecurityPolicy, documentHeaders } from './security-headers';

describe('contentSecurityPolicy', () => {
  it('never throws on a URL that does not parse (a draft or a version stored before the schema refused it): it adds no source', () => {
    const config = {
      ...defaultConfig(),
      logo: 'https://',
      singleCoverImg: { src: 'https://cdn.example/a.webp', srcset: 'https://[ 1w, https://img.example/b.webp 960w' },
      coverImages: [],
      analytics: { token: 't', host: 'http://' },
      errorReporting: { dsn: 'https://a b' },
    } as WizardConfig;
    const policy = contentSecurityPolicy(config);
    expect(policy.imgSrc).toEqual(["'self'", 'data:', 'https://cdn.example', 'https://img.example']);
    expect(policy.connectSrc).toEqual(["'self'"]);
  });
});

describe('the policy of values no schema checked (decision 021’s outside attack on the submit path’s edges)', () => {
  it('names no host that is not a host name, so helmet never throws: a ";" or "," in a host, a wildcard', () => {
    const config = {
      ...defaultConfig(),
      logo: 'https://a.example;x/logo.png',
      singleCoverImg: { src: 'https://*/a.webp', srcset: 'https://cdn.example;x/a.webp 480w, https://img.example/b.webp 960w' },
      coverImages: ['https://a.example,x/c.webp'],
      analytics: { token: 't', host: 'https://*' },
      errorReporting: { dsn: 'https://key@sentry.example;script-src *;/1' },
      requestUrl: 'https://crm.brand.example/collect',
    } as WizardConfig;
    const policy = contentSecurityPolicy(config);
    expect(policy.imgSrc).toEqual(["'self'", 'data:', 'https://img.example']);
    // A requestUrl on another site (one the operator allows: only such a page is served) may be reached.
    expect(policy.connectSrc).toEqual(["'self'", 'https://crm.brand.example']);
    const headers = documentHeaders(policy);
    expect(headers['content-security-policy']).toContain("connect-src 'self' https://crm.brand.example;");
    expect(headers['content-security-policy']).not.toMatch(/\*|;x|,x/);
  });
});
