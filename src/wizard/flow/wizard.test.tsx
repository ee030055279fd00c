import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseWizardConfig, type WizardConfigInput } from '../../shared/config';
import { Wizard } from '../engine/wizard';
import { browserServices } from '../services/browser';
import * as engine from '../wizard-engine';
import { manualTimers } from '../../../tests/support/manual-timers';

afterEach(cleanup);

function config(overrides: Partial<WizardConfigInput> = {}) {
  const input: WizardConfigInput = {
    title: 'Test page',
    lang: 'en',
    pageId: 'test',
    requestUrl: '',
    signUpUrl: 'https://example.com/sign-up',
    steps: [
      { name: 'Hello', blocks: [{ component: 'html', data: { html: '<h1>Hello</h1>' } }] },
      { name: 'Name', blocks: [{ component: 'textField', data: { path: 'fields.firstName', label: 'First name' } }] },
      { name: 'Dream', blocks: [{ component: 'textField', data: { path: 'fields.dream', label: 'Dream' } }] },
      { name: 'Thanks', blocks: [{ component: 'html', data: { html: '<h2>Thanks</h2>' } }] },
    ],
    formItems: [
      { path: 'fields.firstName', validators: ['required'] },
      { path: 'fields.dream', validators: ['required'] },
    ],
    ...overrides,
  };
  const result = parseWizardConfig(input);
  if (!result.config) throw new Error(JSON.stringify(result.problems));
  return result.config;
}

const current = () => document.querySelector('[aria-current="step"] .step-label')?.textContent;

/**
 * A real server that records each PUT's Idempotency-Key and answers the n-th with `status(n)`
 * (cross-origin from the test page, so it answers CORS too).
 */
async function submitServer(status: (index: number) => number = () => 201) {
  const keys: string[] = [];
  const server = createServer((request, response) => {
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.setHeader('Access-Control-Allow-Methods', 'PUT');
    response.setHeader('Access-Control-Allow-Headers', 'Content-Type, Accept, Idempotency-Key');
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    const code = status(keys.length);
    keys.push(String(request.headers['idempotency-key']));
    request.resume().on('end', () => {
      response.writeHead(code, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ id: '0193a8f0-0000-7000-8000-000000000001', receivedAt: new Date().toISOString() }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    keys,
    requestUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/syncPage/test`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * Fills the test configuration's two questions and presses the third step's button: "Submit
 * application" where it sends, Continue with `skipFinalStep` (the last step sends then).
 */
async function answerAndSubmit(user: ReturnType<typeof userEvent.setup>, button: 'Submit application' | 'Continue' = 'Submit application') {
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.type(screen.getByLabelText('First name'), 'Ada');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await waitFor(() => expect(current()).toBe('Dream'));
  await user.type(screen.getByLabelText('Dream'), 'Putty');
  await user.click(screen.getByRole('button', { name: button }));
}

describe('Wizard state transitions (requirements §4)', () => {
  it('step 0 advances without validation; a middle step only when valid; last redirects', async () => {
    const user = userEvent.setup();
    const redirect = vi.fn();
    render(<Wizard services={browserServices} engine={engine} config={config()} redirect={redirect} />);
    expect(current()).toBe('Hello');
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(current()).toBe('Name');

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByText('This field is required');
    expect(current()).toBe('Name');
    await user.type(screen.getByLabelText('First name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(current()).toBe('Dream'));

    // The second-to-last step submits (no request URL: succeeds without a call) and advances; its
    // button says so.
    await user.type(screen.getByLabelText('Dream'), 'Putty');
    await user.click(screen.getByRole('button', { name: 'Submit application' }));
    await waitFor(() => expect(current()).toBe('Thanks'));
    expect(screen.queryAllByRole('button', { name: 'Back' })).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(redirect).toHaveBeenCalledWith('https://example.com/sign-up');
  });

  it('Back returns to the previous step and keeps the answers', async () => {
    const user = userEvent.setup();
    render(<Wizard services={browserServices} engine={engine} config={config()} redirect={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.type(screen.getByLabelText('First name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(current()).toBe('Dream'));
    await user.click(screen.getAllByRole('button', { name: 'Back' })[0]!);
    expect(current()).toBe('Name');
    expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('Ada');
  });

  it('the cover image changes per step', async () => {
    const user = userEvent.setup();
    const { container } = render(
      <Wizard
        services={browserServices}
        engine={engine}
        config={config({ coverImages: ['/a.svg', '/b.svg', '/c.svg', '/d.svg'] })}
        redirect={() => undefined}
      />,
    );
    expect(container.querySelector('.cover img')?.getAttribute('src')).toBe('/a.svg');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(container.querySelector('.cover img')?.getAttribute('src')).toBe('/b.svg');
  });

  it('never sends a submitted application again: a second press on the submit step only redirects', async () => {
    const server = await submitServer();
    try {
      const user = userEvent.setup();
      // The redirect keeps the page (as during a navigation that has not finished): Continue stays pressable.
      const redirect = vi.fn();
      render(<Wizard services={browserServices} engine={engine} config={config({ requestUrl: server.requestUrl, skipFinalStep: true })} redirect={redirect} />);
      await answerAndSubmit(user, 'Continue');
      await waitFor(() => expect(current()).toBe('Thanks'));

      // With skipFinalStep the last step's button (Submit application) submits, then redirects.
      await user.click(screen.getByRole('button', { name: 'Submit application' }));
      await waitFor(() => expect(redirect).toHaveBeenCalledTimes(1));
      await user.click(screen.getByRole('button', { name: 'Submit application' }));
      await waitFor(() => expect(redirect).toHaveBeenCalledTimes(2));
      expect(server.keys).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('sends the answers under a new Idempotency-Key when the server says the key went with other answers (422)', async () => {
    const server = await submitServer((index) => (index === 0 ? 422 : 201));
    try {
      const user = userEvent.setup();
      render(<Wizard services={browserServices} engine={engine} config={config({ requestUrl: server.requestUrl })} redirect={() => undefined} />);
      await answerAndSubmit(user);
      await waitFor(() => expect(current()).toBe('Thanks'));
      expect(server.keys).toHaveLength(2);
      expect(server.keys[1]).not.toBe(server.keys[0]);
    } finally {
      await server.close();
    }
  });

  it('says the page closed, in its own words, when the server answers 410 (its dates or cap passed while the applicant typed)', async () => {
    const server = await submitServer(() => 410);
    try {
      const user = userEvent.setup();
      render(
        <Wizard
          services={browserServices}
          engine={engine}
          config={config({ requestUrl: server.requestUrl, messages: { closed: 'Spring is full: thank you!' } })}
          redirect={() => undefined}
        />,
      );
      await answerAndSubmit(user);
      await waitFor(() => expect(screen.getByText('Spring is full: thank you!')).toBeTruthy());
      expect(server.keys).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('opens footer links in a new tab', () => {
    render(
      <Wizard
        services={browserServices}
        engine={engine}
        config={config({ footerLinks: [{ text: 'Privacy', url: 'https://example.com/privacy' }] })}
        redirect={() => undefined}
      />,
    );
    expect(screen.getByRole('link', { name: 'Privacy' }).getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('link', { name: 'Privacy' }).getAttribute('rel')).toContain('noopener');
  });
});

describe('Wizard step change (phone speed)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads no layout inside the Continue event; after the paint it scrolls to the step and focuses its heading', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    const rect = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect');
    const withHeading = config({
      steps: [
        { name: 'Hello', blocks: [{ component: 'html', data: { html: '<h1>Hello</h1>' } }] },
        {
          name: 'Name',
          blocks: [
            { component: 'html', data: { html: '<h2>Your name</h2>' } },
            { component: 'textField', data: { path: 'fields.firstName', label: 'First name' } },
          ],
        },
        { name: 'Thanks', blocks: [{ component: 'html', data: { html: '<h2>Thanks</h2>' } }] },
      ],
      formItems: [{ path: 'fields.firstName', validators: ['required'] }],
    });
    render(<Wizard services={browserServices} engine={engine} config={withHeading} redirect={() => undefined} />);
    rect.mockClear();
    // fireEvent runs the click, React's commit and its effects synchronously, as a browser's event does.
    act(() => void fireEvent.click(screen.getByRole('button', { name: 'Continue' })));
    expect(current()).toBe('Name');
    expect(rect).not.toHaveBeenCalled();
    expect(scrollTo).not.toHaveBeenCalled();
    expect(document.activeElement?.textContent).toBe('Your name');
    await waitFor(() => expect(scrollTo).toHaveBeenCalledTimes(1));
    expect(scrollTo.mock.calls[0]![0]).toMatchObject({ top: expect.any(Number) as number });
  });
});

describe('waiting on an injected clock (no test waits for real time)', () => {
  /** The engine with `timers` in place of the browser's. */
  const engineOn = (timers: ReturnType<typeof manualTimers>) => ({
    ...engine,
    Engine: (props: Parameters<typeof engine.Engine>[0]) => <engine.Engine {...props} timers={timers} />,
  });
  const draftOf = (pageId: string) =>
    JSON.parse(sessionStorage.getItem(`wizard:${pageId}:draft`) ?? 'null') as { values?: { fields?: { firstName?: string } } } | null;

  it('saves the draft 300 ms of the clock after the last keystroke, not before', async () => {
    sessionStorage.clear();
    const timers = manualTimers();
    const user = userEvent.setup();
    render(<Wizard services={browserServices} engine={engineOn(timers)} config={config({ pageId: 'drafts-clock', drafts: 'session' })} />);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(current()).toBe('Name'));
    await user.type(screen.getByLabelText('First name'), 'Ada');
    act(() => timers.advance(299));
    expect(draftOf('drafts-clock')?.values?.fields?.firstName).toBeUndefined();
    act(() => timers.advance(1));
    expect(draftOf('drafts-clock')?.values?.fields?.firstName).toBe('Ada');
  });

  it('retries a failed submit when the injected clock reaches the back-off', async () => {
    const server = await submitServer((index) => (index === 0 ? 503 : 201));
    try {
      const timers = manualTimers();
      const user = userEvent.setup();
      render(
        <Wizard
          services={browserServices}
          engine={engineOn(timers)}
          config={config({ pageId: 'retry-clock', requestUrl: server.requestUrl, drafts: 'off' })}
        />,
      );
      await answerAndSubmit(user);
      // The first send failed: the retry waits for the clock, which does not move by itself.
      await waitFor(() => expect(server.keys).toHaveLength(1));
      // The back-off (600 ms or more, beside the draft's 300 ms debounce) is on the injected clock.
      await waitFor(() => expect(Math.max(...timers.pending())).toBeGreaterThan(300));
      expect(current()).toBe('Dream');
      expect(server.keys).toHaveLength(1);
      // The applicant is told, not left with a spinner.
      // …in one status region: "Sending…" becomes "Still sending…", no second region speaks.
      expect(screen.getByText(/^Still sending…/).closest('[role="status"]')).not.toBeNull();
      expect(screen.getAllByRole('status').filter((region) => /sending/i.test(region.textContent ?? ''))).toHaveLength(1);
      act(() => timers.advance(10_000));
      await waitFor(() => expect(current()).toBe('Thanks'));
      expect(screen.queryByText(/Still sending/)).toBeNull();
      // The same application: the same Idempotency-Key.
      expect(server.keys).toHaveLength(2);
      expect(server.keys[1]).toBe(server.keys[0]);
    } finally {
      await server.close();
    }
  });
});
