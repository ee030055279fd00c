import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { RECOVERY_CODE_COUNT } from '../shared/team';
import { NewPasswordFields } from './new-password-fields';
import { usePasswordConfirmation } from './password-dialog';
import { announce } from './announcer';
import { errorsOf, failureSentence } from './api';
import { copyText } from './clipboard';
import { formatDateTime } from './format';
import { useAccountChanges, useSecurity, useSessions } from './features/account/api';
import { StackTableHead } from './stack-table';

/** Recovery codes just made: shown once, with what to do with them (copy them, or download them as a text file). */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const text = `Recovery codes of the applications inbox (${window.location.host}); each works once.\n\n${codes.join('\n')}\n`;
  // A data: address (no object URL to revoke): a few hundred bytes.
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
  const copy = () =>
    void copyText(text).then((copied) => {
      if (copied) return announce('The recovery codes are copied.');
      // No clipboard: the codes are selected, to copy by hand.
      const selection = window.getSelection();
      if (list.current && selection) selection.selectAllChildren(list.current);
      announce('Copying was refused: the codes are selected, copy them with your keyboard.');
    });
  return (
    <section aria-labelledby="recovery-heading" className="notice">
      <h2 id="recovery-heading" ref={heading} tabIndex={-1}>
        Your {RECOVERY_CODE_COUNT} recovery codes
      </h2>
      <p>Keep them somewhere safe: each signs you in once if you lose your phone. They are shown this once.</p>
      <ul className="recovery-codes" ref={list}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <p>
        <button type="button" className="secondary" onClick={copy}>
          Copy the codes
        </button>{' '}
        <a className="button secondary" href={download} download="inbox-recovery-codes.txt">
          Download them
        </a>
      </p>
      <button type="button" onClick={onDone}>
        I have kept them
      </button>
    </section>
  );
}

/** Your password changed: the one now, then the new one twice; every other session of yours ends. */
function PasswordChange() {
  const changes = useAccountChanges();
  // What went wrong, and the field it is about (marked invalid, described by it).
  const [error, setError] = useState<{ text: string; field?: 'current' | 'password' | 'again' }>();
  const [said, setSaid] = useState<string>();
  const errorId = useId();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const password = String(form.get('password') ?? '');
    setError(undefined);
    setSaid(undefined);
    if (password !== String(form.get('again') ?? '')) return setError({ text: 'The two new passwords differ.', field: 'again' });
    changes.changePassword.mutate(
      { current: String(form.get('current') ?? ''), password },
      {
        onSuccess: () => {
          formElement.reset();
          setSaid('Your password is changed; your other sessions have ended.');
        },
        onError: (caught) =>
          setError({
            text: failureSentence(caught),
            field: errorsOf(caught).find((entry) => entry.path === 'current' || entry.path === 'password')?.path as 'current' | 'password' | undefined,
          }),
      },
    );
  };
  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <form onSubmit={submit} noValidate aria-describedby={error && !error.field ? errorId : undefined}>
        <label>
          Password now
          <input
            name="current"
            type="password"
            autoComplete="current-password"
            required
            {...(error?.field === 'current' ? { 'aria-invalid': true, 'aria-describedby': errorId } : {})}
          />
        </label>
        <NewPasswordFields problem={error?.field === 'password' || error?.field === 'again' ? { field: error.field, id: errorId } : undefined} />
        {error ? (
          <p id={errorId} role="alert" className="error">
            {error.text}
          </p>
        ) : null}
        {said ? <p role="status">{said}</p> : null}
        <button type="submit" disabled={changes.changePassword.isPending}>
          Change the password
        </button>
      </form>
    </section>
  );
}

/**
 * Your account (`/admin/account`; docs/inbox.md, "The team"): your second factors — an
 * authenticator app enrolled from a QR code (or its key typed in), with ten recovery codes shown
 * once; passkeys — and your sessions (device, address, last used), each of which you can end.
 * Where the team requires a second factor and you have none, this is all a session shows until
 * you set one up (`enrolling`).
 */
export default function AccountView({ enrolling, onEnrolled }: { enrolling: boolean; onEnrolled: () => void }) {
  const security = useSecurity();
  const sessions = useSessions(!enrolling);
  const changes = useAccountChanges();
  const heading = useRef<HTMLHeadingElement>(null);
  const [setup, setSetup] = useState<{ secret: string; qrSvg: string }>();
  const [codes, setCodes] = useState<string[]>();
  const [error, setError] = useState<string>();
  const [passkeyName, setPasskeyName] = useState('');
  const codeId = useId();
  const passwordConfirmation = usePasswordConfirmation();
  useEffect(() => heading.current?.focus(), []);

  /** Runs a change, saying in the alert what went wrong. */
  const run = async (work: () => Promise<void>) => {
    setError(undefined);
    try {
      await work();
    } catch (caught) {
      setError(
        caught instanceof Error && caught.name === 'NotAllowedError' ? 'The passkey was not added: the browser was cancelled.' : failureSentence(caught),
      );
    }
  };
  /** The password again, but while setting up what the team requires; undefined: asked and cancelled. */
  /** Runs `work` with the password asked again for `purpose` (the dialog says a wrong one and asks again; cancelled, nothing happens). */
  const withPassword = (purpose: string, work: (password: string) => Promise<void>) =>
    run(async () => {
      await passwordConfirmation.confirm(purpose, work);
    });
  /** A new second factor: the password asked again, but while setting up what the team requires, which the sign-in has just asked for. */
  const newFactor = (purpose: string, work: (password: string | undefined) => Promise<void>) =>
    enrolling ? run(() => work(undefined)) : withPassword(purpose, work);
  const startTotp = () => newFactor('To set up an authenticator app.', async (password) => setSetup(await changes.startTotp.mutateAsync(password)));
  const confirmTotp = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code') ?? '');
    void run(async () => {
      const made = await changes.confirmTotp.mutateAsync(code);
      setSetup(undefined);
      setCodes(made.recoveryCodes);
      announce('The authenticator app is set up.');
    });
  };
  const finishCodes = () => {
    setCodes(undefined);
    if (enrolling) onEnrolled();
  };
  const addPasskey = async (event: FormEvent) => {
    event.preventDefault();
    await newFactor('To add a passkey.', async (password) => {
      await changes.addPasskey.mutateAsync({ name: passkeyName, password });
      setPasskeyName('');
      announce('The passkey is added.');
      if (enrolling) onEnrolled();
    });
  };

  const data = security.data;
  return (
    <>
      <h1 ref={heading} tabIndex={-1}>
        Your account
      </h1>
      {enrolling ? (
        <p className="notice" role="status">
          The team requires a second factor: set up an authenticator app or a passkey to use the inbox.
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      {codes ? <RecoveryCodes codes={codes} onDone={finishCodes} /> : null}
      <section aria-labelledby="factors-heading">
        <h2 id="factors-heading">Second factors</h2>
        {!data ? (
          <p aria-busy="true">Loading…</p>
        ) : (
          <>
            <h3>Authenticator app</h3>
            {data.totp ? (
              <p>
                Set up. {data.recoveryCodesLeft} recovery code{data.recoveryCodesLeft === 1 ? '' : 's'} left.{' '}
                <button
                  type="button"
                  className="secondary"
                  onClick={() =>
                    void withPassword('To make new recovery codes (the ones you have stop working).', async (password) =>
                      setCodes((await changes.newRecoveryCodes.mutateAsync(password)).recoveryCodes),
                    )
                  }
                >
                  New recovery codes
                </button>{' '}
                <button
                  type="button"
                  className="danger"
                  onClick={() =>
                    void withPassword('To remove the authenticator app.', (password) =>
                      changes.removeTotp.mutateAsync(password).then(() => announce('The authenticator app is removed.')),
                    )
                  }
                >
                  Remove the app
                </button>
              </p>
            ) : setup ? (
              <form onSubmit={confirmTotp} noValidate>
                <p>Scan this code with your authenticator app (or type the key in), then enter the six digits it shows.</p>
                <div className="qr" role="img" aria-label="QR code of your authenticator app's key" dangerouslySetInnerHTML={{ __html: setup.qrSvg }} />
                <p>
                  {/* In groups of four, as apps show and take it (spaces are ignored where it is typed). */}
                  Key: <code>{setup.secret.replace(/(.{4})(?=.)/g, '$1 ')}</code>
                </p>
                <label htmlFor={codeId}>Code from the app</label>
                <input id={codeId} name="code" inputMode="numeric" autoComplete="one-time-code" required autoFocus />
                <button type="submit">Confirm</button>{' '}
                <button type="button" className="secondary" onClick={() => setSetup(undefined)}>
                  Cancel
                </button>
              </form>
            ) : (
              <p>
                <button type="button" onClick={() => void startTotp()}>
                  Set up an authenticator app
                </button>
              </p>
            )}
            <h3>Passkeys</h3>
            {data.passkeys.length > 0 ? (
              <ul>
                {data.passkeys.map((passkey) => (
                  <li key={passkey.id}>
                    {passkey.name} <span className="meta">added {formatDateTime(passkey.createdAt)}</span>{' '}
                    <button
                      type="button"
                      className="danger"
                      aria-label={`Remove the passkey ${passkey.name}`}
                      onClick={() =>
                        void withPassword(`To remove the passkey ${passkey.name}.`, (password) =>
                          changes.removePasskey.mutateAsync({ id: passkey.id, password }).then(() => announce('The passkey is removed.')),
                        )
                      }
                    >
                      Remove
                    </button>
                  </li>
                ))}
              </ul>
            ) : (
              <p>None yet.</p>
            )}
            <form onSubmit={(event) => void addPasskey(event)} className="filters">
              <label>
                Name of the new passkey
                <input value={passkeyName} onChange={(event) => setPasskeyName(event.target.value)} placeholder="Work laptop" maxLength={60} />
              </label>
              <button type="submit">Add a passkey</button>
            </form>
          </>
        )}
      </section>
      {enrolling ? null : <PasswordChange />}
      {enrolling ? null : (
        <section aria-labelledby="sessions-heading">
          <h2 id="sessions-heading">Your sessions</h2>
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Your sessions table">
            <table className="stack-table" role="table">
              <StackTableHead columns={['Device', 'Address', 'Signed in', 'Last used']} actions />
              <tbody role="rowgroup">
                {(sessions.data ?? []).map((session) => (
                  <tr role="row" key={session.id}>
                    <th scope="row" role="rowheader">
                      {session.device}
                      {session.current ? ' (this session)' : ''}
                    </th>
                    <td role="cell" data-label="Address">
                      {session.address}
                    </td>
                    <td role="cell" data-label="Signed in">
                      {formatDateTime(session.createdAt)}
                    </td>
                    <td role="cell" data-label="Last used">
                      {formatDateTime(session.lastUsedAt)}
                    </td>
                    <td role="cell">
                      {session.current ? null : (
                        <button
                          type="button"
                          className="secondary"
                          aria-label={`End the session on ${session.device}`}
                          onClick={() => void run(() => changes.endSession.mutateAsync(session.id).then(() => announce('The session is ended.')))}
                        >
                          End
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
      {passwordConfirmation.dialog}
    </>
  );
}
