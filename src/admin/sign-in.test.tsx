import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { SignIn } from './sign-in';

/** The form as the inbox renders it: inside the app's TanStack Query client (its call is a mutation). */
const renderSignIn = () =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <SignIn expired={false} onSignedIn={() => undefined} />
    </QueryClientProvider>,
  );

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Answers every request with `status` and a problem+json body of `detail`. */
const answering = (status: number, detail: string) =>
  vi.fn(
    async () =>
      new Response(JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status, detail }), {
        status,
        headers: { 'content-type': 'application/problem+json' },
      }),
  );

const submit = () => {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ana@brand.example' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'ana password 123' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
};

it("says the server's reason when it answers 503 with one (a session it cannot store: docs/decisions/008)", async () => {
  const detail = 'Your e-mail and password are right, but the server cannot store a new session right now.';
  vi.stubGlobal('fetch', answering(503, detail));
  renderSignIn();
  submit();
  expect((await screen.findByRole('alert')).textContent).toBe(detail);
});

it('says the server cannot be reached when the network fails', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
  );
  renderSignIn();
  submit();
  expect((await screen.findByRole('alert')).textContent).toBe('The server cannot be reached. Try again in a moment.');
});

it('opens the second step with an empty code field (not the address typed a step before)', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify({ secondFactor: { totp: true, passkey: false } }), { status: 200, headers: { 'content-type': 'application/json' } }),
    ),
  );
  renderSignIn();
  submit();
  const code = (await screen.findByLabelText('Code from your authenticator app, or a recovery code')) as HTMLInputElement;
  expect(code.value).toBe('');
});
