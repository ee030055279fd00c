// @vitest-environment happy-dom
import { createElement } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultConfig, rawDefaultConfig } from '../../tests/factories/application';
import { parseWizardConfig, type WizardConfig } from '../shared/config';
import { sanitizeConfig } from '../shared/sanitize-html';
import { WizardPage } from './page';
import { renderFirstStep } from './render-first-step';
import { browserServices } from './services/browser';

// The browser hydrates what the server rendered. React's development build reports
// every difference between the server's markup and the browser's first render (an attribute, a
// text, an element) on console.error or as a recoverable error: any one fails these tests.

let root: Root | undefined;
afterEach(() => {
  root?.unmount();
  root = undefined;
  document.body.innerHTML = '';
  sessionStorage.clear();
  vi.restoreAllMocks();
});

/** Renders `server` on the server, hydrates it in the DOM with `client`, and returns what React reported. */
async function hydrate(serverConfig: WizardConfig, clientConfig: WizardConfig): Promise<string[]> {
  // No server to send the funnel's beacons to (requestUrl "" sends nothing); the same on both sides.
  const [server, client] = [serverConfig, clientConfig].map((config) => ({ ...config, requestUrl: '' }));
  const reported: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void reported.push(args.map(String).join(' ')));
  const html = renderFirstStep(server!).replace(/^(?:<link [^>]*\/>)*/, '');
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  const wizard = container.querySelector('.wizard');
  root = hydrateRoot(container, createElement(WizardPage, { config: client!, services: browserServices }), {
    onRecoverableError: (error) => void reported.push(`recoverable: ${String(error)}`),
  });
  // Hydration has committed once React owns the server's elements (its fiber is on them).
  await vi.waitFor(() => expect(Object.keys(container.querySelector('.step-bar')!).some((key) => key.startsWith('__reactFiber'))).toBe(true));
  if (reported.length === 0) expect(container.querySelector('.wizard')).toBe(wizard);
  return reported;
}

describe('the server-rendered first step', () => {
  it('hydrates without a single difference, on the default page', async () => {
    const config = sanitizeConfig(defaultConfig());
    expect(await hydrate(config, config)).toEqual([]);
  });

  it('hydrates without a difference with a single cover, centred logo and footer, and no logo', async () => {
    const raw = rawDefaultConfig();
    Object.assign(raw, { singleCoverImg: '/images/cover-2.svg', centerLogo: true, centerFooterText: true, showLogo: false });
    raw.steps[0].footer = '<p>Read the <a href="https://example.com/terms">terms</a> &amp; <em>more</em>&nbsp;here.</p>';
    const config = sanitizeConfig(parseWizardConfig(raw).config!);
    expect(await hydrate(config, config)).toEqual([]);
  });

  it('fails when the browser would render other markup (the check can fail)', async () => {
    const server = sanitizeConfig(defaultConfig());
    const client = { ...server, buttonText: { continue: 'Start' } };
    expect((await hydrate(server, client)).join('\n')).toMatch(/hydrat|match/i);
  });
});
