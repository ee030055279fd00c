import { describe, expect, it } from 'vitest';
import { rawDefaultConfig } from '../../tests/factories/application';
import { parseWizardConfig } from './config';
import { MAX_HTML_DEPTH, MAX_HTML_LENGTH } from './schema-parts';
import { parseSubmitOrigins, submitOriginProblem } from './urls';

describe('WizardConfigSchema (requirements §3, requirements §14)', () => {
  it('the default configuration is valid and gets defaults', () => {
    const { config, problems } = parseWizardConfig(rawDefaultConfig());
    expect(problems).toBeUndefined();
    expect(config).toMatchObject({ showLogo: true, centerLogo: false, skipFinalStep: false, buttonText: {} });
    expect(config?.steps.map((s) => s.name)).toEqual(['Welcome', 'Introduce Yourself', 'More Details', 'Creator Hub']);
  });

  it('names the JSON path of each problem', () => {
    const raw = rawDefaultConfig();
    raw.steps[2].blocks[1].data.options = 'Super-Fan';
    raw.steps[0].blocks[0].component = 'carousel';
    const { problems } = parseWizardConfig(raw);
    expect(problems?.map((p) => p.path)).toEqual(expect.arrayContaining(['steps[2].blocks[1].data.options', 'steps[0].blocks[0].component']));
    expect(problems?.find((p) => p.path === 'steps[2].blocks[1].data.options')?.message).toMatch(/expected array/);
  });

  it('refuses unknown validators and keys', () => {
    const raw = rawDefaultConfig();
    raw.formItems[0].validators = ['reqired'];
    raw.colour = 'red';
    expect(parseWizardConfig(raw).problems?.map((p) => p.path)).toEqual(expect.arrayContaining(['formItems[0].validators[0]', '(root)']));
  });

  it('takes the names of states and provinces by their codes, and refuses a code it does not know', () => {
    const raw = rawDefaultConfig();
    raw.subdivisionNames = { 'US-CA': 'Californie', 'CA-QC': 'Québec' };
    expect(parseWizardConfig(raw).config?.subdivisionNames).toEqual({ 'US-CA': 'Californie', 'CA-QC': 'Québec' });
    raw.subdivisionNames = { 'US-XX': 'Nulle part', 'FR-75': 'Paris' };
    const problems = parseWizardConfig(raw).problems ?? [];
    expect(problems.map((p) => p.path)).toEqual(expect.arrayContaining(['subdivisionNames']));
    raw.subdivisionNames = { 'US-CA': '' };
    expect(parseWizardConfig(raw).problems?.map((p) => p.path)).toEqual(['subdivisionNames.US-CA']);
  });

  it('takes only URLs that parse, in every URL field and srcset candidate (fourth attack)', () => {
    const raw = rawDefaultConfig();
    raw.logo = 'https://';
    raw.signUpUrl = 'https://a b';
    raw.singleCoverImg = { src: '/uploads/a-480.webp', srcset: '/uploads/a-480.webp 480w, https://[ 1w' };
    raw.analytics = { token: 't', host: 'http://' };
    raw.errorReporting = { dsn: 'https://a b' };
    const problems = parseWizardConfig(raw).problems ?? [];
    expect(problems.map((p) => p.path).sort()).toEqual(['analytics.host', 'errorReporting.dsn', 'logo', 'signUpUrl', 'singleCoverImg.srcset'].sort());
    raw.logo = 'https://cdn.example/logo.png';
    raw.signUpUrl = '/sign-up';
    raw.singleCoverImg = { src: '/uploads/a-480.webp', srcset: '/uploads/a-480.webp 480w, https://cdn.example/a-960.webp 960w' };
    raw.analytics = { token: 't', host: 'https://eu.i.posthog.com' };
    raw.errorReporting = { dsn: 'https://key@o1.ingest.sentry.io/1' };
    expect(parseWizardConfig(raw).problems).toBeUndefined();
  });

  it('bounds every HTML field: its length and how deep its elements nest, as the sanitiser parses it (fourth attack)', () => {
    const nested = (depth: number) => `${'<div>'.repeat(depth)}x${'</div>'.repeat(depth)}`;
    const withHtml = (html: string) => {
      const raw = rawDefaultConfig();
      raw.steps[0].blocks = [
        { component: 'html', data: { html } },
        { component: 'checkbox', data: { path: 'fields.ok', label: html } },
      ];
      raw.steps[1].footer = html;
      return parseWizardConfig(raw).problems?.map((p) => `${p.path}: ${p.message}`) ?? [];
    };
    expect(withHtml(nested(MAX_HTML_DEPTH) + '<br><img src="/a.png"><p>a<p>b<p>c'.repeat(20))).toEqual([]);
    const paths = ['steps[0].blocks[0].data.html', 'steps[0].blocks[1].data.label', 'steps[1].footer'];
    expect(withHtml(nested(MAX_HTML_DEPTH + 1))).toEqual(paths.map((path) => `${path}: expected elements nested at most ${MAX_HTML_DEPTH} deep`));
    // Unclosed, and end tags hidden where the parser reads text (a comment, a textarea) count as open.
    expect(withHtml('<b>'.repeat(MAX_HTML_DEPTH + 1))).toHaveLength(3);
    expect(withHtml('<b><!--</b>-->'.repeat(MAX_HTML_DEPTH + 1))).toHaveLength(3);
    expect(withHtml('<i><textarea></i></textarea>'.repeat(MAX_HTML_DEPTH + 1))).toHaveLength(3);
    expect(withHtml('x'.repeat(MAX_HTML_LENGTH))).toEqual([]);
    expect(withHtml('<div>'.repeat(40_000))).toEqual(paths.map((path) => `${path}: expected at most ${MAX_HTML_LENGTH} characters of HTML`));
  });

  it("takes only real host names in URLs and only this site's paths, each refused at its JSON path (decision 021's outside attack on the submit path's edges)", () => {
    const raw = rawDefaultConfig();
    raw.logo = 'https://a.example;x/logo.png';
    raw.coverImages = ['/images/a.webp', { src: '/uploads/a-480.webp', srcset: '/uploads/a-480.webp 480w, https://cdn.example;x/a-960.webp 960w' }];
    raw.analytics = { token: 't', host: 'https://*' };
    raw.errorReporting = { dsn: 'https://key@o1.ingest_sentry.example/1' };
    raw.signUpUrl = '//evil.example/phish';
    raw.footerLinks = [
      { text: 'Terms', url: '/\\evil.example/phish' },
      { text: 'Privacy', url: '/\t/evil.example/phish' },
      { text: 'Help', url: 'https://*.brand.example/help' },
      { text: 'Blog', url: 'https://a.example,x/blog' },
    ];
    raw.singleCoverImg = 'https://a.example;x/cover.png';
    const problems = parseWizardConfig(raw).problems ?? [];
    expect(problems.map((p) => `${p.path}: ${p.message}`).sort()).toEqual(
      [
        'analytics.host: "*" is not a host name: a wildcard would allow every site; name the host (apply.brand.example)',
        'coverImages[1].srcset: "cdn.example;x" is not a host name: use letters, digits, hyphens and dots only (such as cdn.brand.example), in the candidate "https://cdn.example;x/a-960.webp"',
        'errorReporting.dsn: "o1.ingest_sentry.example" is not a host name: use letters, digits, hyphens and dots only (such as cdn.brand.example)',
        'footerLinks[0].url: expected a path on this site: one "/" first, not "//" or "/\\" (a browser reads those as another site\'s address)',
        'footerLinks[1].url: expected a path on this site: one "/" first, not "//" or "/\\" (a browser reads those as another site\'s address)',
        'footerLinks[2].url: "*.brand.example" is not a host name: a wildcard would allow every site; name the host (apply.brand.example)',
        'footerLinks[3].url: "a.example,x" is not a host name: use letters, digits, hyphens and dots only (such as cdn.brand.example)',
        'logo: "a.example;x" is not a host name: use letters, digits, hyphens and dots only (such as cdn.brand.example)',
        'signUpUrl: expected a path on this site: one "/" first, not "//" or "/\\" (a browser reads those as another site\'s address)',
        'singleCoverImg: "a.example;x" is not a host name: use letters, digits, hyphens and dots only (such as cdn.brand.example)',
      ].sort(),
    );
    // What stays allowed: host names (IDNs as the browser writes them), IPv4, ports, credentials in a DSN, this site's paths.
    raw.logo = 'https://Bücher.example:8443/logo.png';
    raw.coverImages = ['/images/a.webp', { src: '/uploads/a-480.webp', srcset: '/uploads/a-480.webp 480w, https://cdn.example/a-960.webp 960w' }];
    raw.analytics = { token: 't', host: 'http://127.0.0.1:9000' };
    raw.errorReporting = { dsn: 'https://key@o1.ingest.sentry.example/1' };
    raw.signUpUrl = '/sign-up?from=//x';
    raw.footerLinks = [{ text: 'Terms', url: '/terms' }];
    raw.singleCoverImg = 'https://cdn.example/cover;v=2.png';
    expect(parseWizardConfig(raw).problems).toBeUndefined();
  });

  it("sends applications to this server's own submit path, nowhere, or an origin the operator allows (decision 021's outside attack on the submit path's edges)", () => {
    const withRequestUrl = (requestUrl: string) => {
      const raw = rawDefaultConfig();
      raw.requestUrl = requestUrl;
      return parseWizardConfig(raw).problems?.map((p) => `${p.path}: ${p.message}`) ?? [];
    };
    expect(withRequestUrl('')).toEqual([]);
    expect(withRequestUrl('/api/syncPage/creators')).toEqual([]);
    expect(withRequestUrl('https://crm.brand.example/collect')).toEqual([]);
    expect(withRequestUrl('/api/admin/pages/x/draft')).toEqual([
      expect.stringMatching(/^requestUrl: "\/api\/admin\/pages\/x\/draft" is no submit path of this server/),
    ]);
    expect(withRequestUrl('/api/syncPage/%E0')).toEqual([expect.stringMatching(/^requestUrl: .* to page "%E0"/)]);
    expect(withRequestUrl('//evil.example/collect')).toEqual([expect.stringMatching(/^requestUrl: expected a path on this site/)]);
    expect(withRequestUrl('javascript:alert(1)')).toEqual([expect.stringMatching(/^requestUrl: expected "" \(nothing is sent\)/)]);
    expect(withRequestUrl('https://*/collect')).toEqual([expect.stringMatching(/^requestUrl: "\*" is not a host name/)]);

    // Another site's origin: only one the operator lists (SUBMIT_ORIGINS_ALLOWED).
    expect(submitOriginProblem('https://evil.example/collect', [])).toMatch(/not to https:\/\/evil\.example$/);
    expect(submitOriginProblem('https://crm.brand.example/collect', ['https://crm.brand.example'])).toBeUndefined();
    expect(submitOriginProblem('https://crm.brand.example:8443/collect', ['https://crm.brand.example'])).toBeDefined();
    expect(submitOriginProblem(undefined, [])).toBeUndefined();
    expect(submitOriginProblem('/api/syncPage/creators', [])).toBeUndefined();
    expect(parseSubmitOrigins(' https://CRM.brand.example/ , http://127.0.0.1:9000')).toEqual(['https://crm.brand.example', 'http://127.0.0.1:9000']);
    expect(parseSubmitOrigins('')).toEqual([]);
    for (const bad of [
      '*',
      'https://*',
      'https://crm.brand.example/collect',
      'https://a.example;x',
      'crm.brand.example',
      'https://a.example,',
      'https://user@crm.brand.example',
    ]) {
      expect(() => parseSubmitOrigins(bad), bad).toThrow(/origin|host name|http\(s\) URL|empty/);
    }
  });
});
