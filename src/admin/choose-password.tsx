import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ROLE_DESCRIPTIONS, type InvitationOffer, type ResetOffer } from '../shared/team';
import { ApiError, errorsOf } from './api';
import { NewPasswordFields, type NewPasswordProblem } from './new-password-fields';
import { formatDateTime } from './format';
import { acceptInvitation, completePasswordReset, readInvitation, readReset } from './features/session/api';

/** The link's secret: the fragment of the address (`#{id}.{mac}`), which the browser never sends to a server. */
const tokenOfLocation = () => decodeURIComponent(window.location.hash.slice(1));

/**
 * The pages an invitation's and a password reset's links open (`/admin/invitation#…`,
 * `/admin/reset-password#…`; docs/inbox.md, "The team"): a new password, twice, held to the
 * inbox's rule by the server (which says why one is refused, in an alert; what was typed stays).
 * The link is read first (a used, revoked or expired one says so before anything is typed). An
 * invitation says who invited whom as what, and signs the new member in; a reset names the
 * account and sends them to sign in with the new password.
 */
export function ChoosePassword({ kind, onSignedIn }: { kind: 'invitation' | 'reset'; onSignedIn: () => void }) {
  const [token] = useState(tokenOfLocation);
  const [offer, setOffer] = useState<InvitationOffer | ResetOffer>();
  const [linkError, setLinkError] = useState<string>();
  const [error, setError] = useState<{ text: string; field?: NewPasswordProblem['field'] }>();
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  const field = useRef<HTMLInputElement>(null);

  // The first field takes focus once the page shows it (after the invitation is read).
  useEffect(() => field.current?.focus(), [offer]);
  useEffect(() => {
    // The secret leaves the address bar (and the history) once read.
    window.history.replaceState(null, '', window.location.pathname);
    (kind === 'invitation' ? readInvitation(token) : readReset(token)).then(setOffer, (caught: unknown) =>
      setLinkError(caught instanceof ApiError && caught.problem?.detail ? caught.problem.detail : 'The server cannot be reached. Reload the page.'),
    );
  }, [kind, token]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password') ?? '');
    setError(undefined);
    if (password !== String(form.get('again') ?? '')) {
      setError({ text: 'The two passwords differ.', field: 'again' });
      field.current?.focus();
      return;
    }
    setBusy(true);
    try {
      if (kind === 'invitation') {
        await acceptInvitation(token, password);
        window.history.replaceState(null, '', '/admin/');
        onSignedIn();
      } else {
        await completePasswordReset(token, password);
        setDone(true);
      }
    } catch (caught) {
      const detail = caught instanceof ApiError ? caught.problem?.detail : undefined;
      if (caught instanceof ApiError && (caught.status === 404 || caught.status === 410)) setLinkError(detail);
      else
        setError({
          text: detail ?? 'The server cannot be reached. Try again in a moment.',
          field: errorsOf(caught).some((entry) => entry.path === 'password') ? 'password' : undefined,
        });
      field.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  const title = kind === 'invitation' ? 'Join the applications inbox' : 'Choose a new password';
  if (linkError)
    return (
      <main id="main" className="sign-in">
        <h1>{title}</h1>
        <p role="alert" className="error">
          {linkError}
        </p>
        <p>
          <a href="/admin/">Go to the sign-in</a>
        </p>
      </main>
    );
  if (done)
    return (
      <main id="main" className="sign-in">
        <h1>{title}</h1>
        <p role="status">Your password is changed, and you are signed out everywhere.</p>
        <p>
          <a href="/admin/">Sign in with your new password</a>
        </p>
      </main>
    );
  if (!offer)
    return (
      <p className="loading" aria-busy="true">
        Loading…
      </p>
    );
  return (
    <main id="main" className="sign-in">
      <h1>{title}</h1>
      {'role' in offer ? (
        <p>
          {offer.invitedBy} invited <strong>{offer.email}</strong> as {offer.role}: {ROLE_DESCRIPTIONS[offer.role].toLowerCase()}.
        </p>
      ) : (
        <p>
          For <strong>{offer.email}</strong>; the link works until {formatDateTime(offer.expiresAt)}.
        </p>
      )}
      <form onSubmit={(event) => void submit(event)} noValidate aria-describedby={error && !error.field ? errorId : undefined}>
        <input type="hidden" name="username" autoComplete="username" value={offer.email} />
        <NewPasswordFields fieldRef={field} problem={error?.field ? { field: error.field, id: errorId } : undefined} />
        {error ? (
          <p id={errorId} role="alert" className="error">
            {error.text}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : kind === 'invitation' ? 'Join and sign in' : 'Save the new password'}
        </button>
      </form>
    </main>
  );
}
