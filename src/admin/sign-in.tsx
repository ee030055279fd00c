import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { SecondFactorNeeded } from '../shared/team';
import { ApiError } from './api';
import { giveCode, requestPasswordReset, signInWithPasskey, useSignIn } from './features/session/api';

/** What a failed call says to the person signing in: the server's words where it gave them. */
function failure(caught: unknown): string {
  if (caught instanceof ApiError && caught.status === 401) return caught.problem?.detail ?? 'The e-mail or the password is not right.';
  if (caught instanceof ApiError && caught.status === 400) return 'Fill in every field.';
  // The server's own words when it answered but cannot sign in now (a session it cannot store, too many tries).
  if (caught instanceof ApiError && caught.problem?.detail) return caught.problem.detail;
  if (caught instanceof Error && (caught.name === 'NotAllowedError' || caught.name === 'AbortError'))
    return 'The passkey was not used. Try again, or enter a code instead.';
  return 'The server cannot be reached. Try again in a moment.';
}

/**
 * The sign-in (requirements §17; docs/inbox.md, "The team"): the e-mail and password, then — for a
 * member with a second factor — the code from their authenticator app (or a recovery code) or their
 * passkey; and "Forgot your password?", which asks for a reset link. Every refusal is announced in an
 * alert; what was typed stays.
 */
export function SignIn({ expired, onSignedIn }: { expired: boolean; onSignedIn: () => void }) {
  const [error, setError] = useState<string>();
  const [step, setStep] = useState<'password' | 'second-factor' | 'forgot'>('password');
  const [factors, setFactors] = useState<SecondFactorNeeded['secondFactor']>();
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<string>();
  const signingIn = useSignIn();
  const errorId = useId();
  const firstField = useRef<HTMLInputElement>(null);
  // Each step starts at its first field: the digits typed next go where they belong.
  useEffect(() => firstField.current?.focus(), [step]);

  /** Runs `work`, saying what went wrong in the alert (focus back on the first field). */
  const attempt = async (work: () => Promise<void>) => {
    setError(undefined);
    setBusy(true);
    try {
      await work();
    } catch (caught) {
      setError(failure(caught));
      firstField.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  const submitPassword = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void attempt(async () => {
      const answer = await signingIn.mutateAsync({ email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') });
      if (!answer) return onSignedIn();
      setFactors(answer.secondFactor);
      setStep('second-factor');
    });
  };
  const submitCode = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code') ?? '');
    void attempt(async () => {
      await giveCode(code);
      onSignedIn();
    });
  };
  const usePasskey = () =>
    void attempt(async () => {
      await signInWithPasskey();
      onSignedIn();
    });
  const submitForgot = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    void attempt(async () => setSaid((await requestPasswordReset(email)).detail));
  };

  const alert = error ? (
    <p id={errorId} role="alert" className="error">
      {error}
    </p>
  ) : null;
  const describedBy = error ? errorId : undefined;

  if (step === 'second-factor')
    return (
      <main key="second-factor" id="main" className="sign-in">
        <h1>Confirm it is you</h1>
        {factors?.passkey ? (
          <p>
            <button type="button" onClick={usePasskey} disabled={busy}>
              Use your passkey
            </button>
          </p>
        ) : null}
        <form onSubmit={submitCode} noValidate aria-describedby={describedBy}>
          <label>
            {factors?.totp ? 'Code from your authenticator app, or a recovery code' : 'Recovery code'}
            <input
              ref={firstField}
              name="code"
              autoComplete="one-time-code"
              inputMode="text"
              required
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy}
            />
          </label>
          {alert}
          <button type="submit" disabled={busy}>
            {busy ? 'Checking…' : 'Sign in'}
          </button>
        </form>
        <p>
          <button type="button" className="secondary" onClick={() => setStep('password')}>
            Start again
          </button>
        </p>
      </main>
    );

  if (step === 'forgot')
    return (
      <main key="forgot" id="main" className="sign-in">
        <h1>Reset your password</h1>
        <p>Enter the address of your account: a link to choose a new password will be sent to it.</p>
        <form onSubmit={submitForgot} noValidate aria-describedby={describedBy}>
          <label>
            Email
            <input ref={firstField} name="email" type="email" autoComplete="username" required />
          </label>
          {alert}
          {said ? (
            <p role="status" className="notice">
              {said}
            </p>
          ) : null}
          <button type="submit" disabled={busy}>
            {busy ? 'Sending…' : 'Send the link'}
          </button>
        </form>
        <p>
          <button type="button" className="secondary" onClick={() => setStep('password')}>
            Back to sign in
          </button>
        </p>
      </main>
    );

  return (
    <main key="password" id="main" className="sign-in">
      <h1>Sign in to the applications inbox</h1>
      {expired ? <p className="notice">Your session has ended. Sign in again to go on.</p> : null}
      <form onSubmit={submitPassword} noValidate aria-describedby={describedBy}>
        <label>
          Email
          <input ref={firstField} name="email" type="email" autoComplete="username" required autoFocus />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        {alert}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p>
        <button type="button" className="secondary" onClick={() => setStep('forgot')}>
          Forgot your password?
        </button>
      </p>
    </main>
  );
}
