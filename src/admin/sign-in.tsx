import { useId, useRef, useState, type FormEvent } from 'react';
import { ApiError } from './api';
import { useSignIn } from './features/session/api';

/**
 * The sign-in form (requirements §17 `POST /api/admin/session`). Wrong credentials, too many attempts
 * and a server that answered 503 with its reason (a session it cannot store while its disk is
 * full: docs/decisions/008) are announced in an alert; what was typed stays.
 */
export function SignIn({ expired, onSignedIn }: { expired: boolean; onSignedIn: () => void }) {
  const [error, setError] = useState<string>();
  const signingIn = useSignIn();
  const busy = signingIn.isPending;
  const errorId = useId();
  const emailRef = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(undefined);
    try {
      await signingIn.mutateAsync({ email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') });
      onSignedIn();
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 401) setError('The e-mail or the password is not right.');
      else if (caught instanceof ApiError && caught.status === 429) setError(caught.message);
      else if (caught instanceof ApiError && caught.status === 400) setError('Enter your e-mail and your password.');
      // The server's own words when it answered but cannot sign in now (a session it cannot store).
      else if (caught instanceof ApiError && caught.status === 503 && caught.problem?.detail) setError(caught.problem.detail);
      else setError('The server cannot be reached. Try again in a moment.');
      emailRef.current?.focus();
    }
  };

  return (
    <main id="main" className="sign-in">
      <h1>Sign in to the applications inbox</h1>
      {expired ? <p className="notice">Your session has ended. Sign in again to go on.</p> : null}
      <form onSubmit={(event) => void submit(event)} noValidate aria-describedby={error ? errorId : undefined}>
        <label>
          Email
          <input ref={emailRef} name="email" type="email" autoComplete="username" required autoFocus />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        {error ? (
          <p id={errorId} role="alert" className="error">
            {error}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
