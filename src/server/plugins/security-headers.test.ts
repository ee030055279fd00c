import { describe, expect, it } from 'vitest';
import type { WizardConfig } from '../../shared/config';
import { defaultConfig } from '../../../tests/factories/application';
import { contentSecurityPolicy } from './security-headers';

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
