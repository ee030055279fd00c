import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { isEmail } from '../shared/rules';
import { announce } from './announcer';
import { failureSentence } from './api';
import { personExportPath, useErasePerson } from './features/privacy/api';

/**
 * Privacy (`/admin/privacy`; docs/privacy.md): a person's data, found by the e-mail address they
 * applied with, on every page — downloaded as one JSON file, or erased (asked twice). Editors
 * only; a viewer is told so.
 */
export default function PrivacyView({ canEdit }: { canEdit: boolean }) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const erase = useErasePerson();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [said, setSaid] = useState('');
  // The address whose erasure waits for its second, explicit confirmation.
  const [confirming, setConfirming] = useState<string>();
  useEffect(() => heading.current?.focus(), []);

  /** The address typed, or undefined after saying why it is none (focus back on the field). */
  const address = (): string | undefined => {
    const value = email.trim();
    if (isEmail(value)) return value;
    setError('Enter the e-mail address the person applied with.');
    field.current?.focus();
    return undefined;
  };
  const download = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setSaid('');
    const value = address();
    if (!value) return;
    // The browser downloads it (the answer is an attachment): the file never passes through this page.
    window.location.assign(personExportPath(value));
    setSaid(`Their data is being downloaded as a JSON file.`);
    announce('Their data is being downloaded as a JSON file.');
  };
  const eraseConfirmed = async (value: string) => {
    setConfirming(undefined);
    try {
      const { erased } = await erase.mutateAsync(value);
      const text =
        erased === 0
          ? `No application was given as ${value}: nothing to erase.`
          : `Erased ${erased} application${erased === 1 ? '' : 's'} of ${value}, with their answers, notes, tags, e-mails and webhook deliveries.`;
      setSaid(text);
      announce(text);
      setEmail('');
    } catch (caught) {
      setError(failureSentence(caught));
    }
  };

  return (
    <div className="privacy-view">
      <h1 ref={heading} tabIndex={-1}>
        Privacy
      </h1>
      <section aria-labelledby={`${id}-person`}>
        <h2 id={`${id}-person`}>A person's data</h2>
        <p className="hint">
          When someone asks what is kept about them, or asks for it to be erased: everything about the person who applied with an address, on every page — their
          applications and answers, the team's notes, tags and decisions, the e-mails made about them, the events sent to webhooks.
        </p>
        {!canEdit ? (
          <p>Your account may read applications but not export or erase a person's data: ask an editor.</p>
        ) : (
          <form onSubmit={download} noValidate>
            <label htmlFor={`${id}-email`}>E-mail address they applied with</label>
            <input
              id={`${id}-email`}
              ref={field}
              type="email"
              autoComplete="off"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
            {error ? (
              <p id={`${id}-error`} role="alert" className="error">
                {error}
              </p>
            ) : null}
            <div className="privacy-actions">
              <button type="submit">Download their data</button>
              <button
                type="button"
                className="danger"
                disabled={erase.isPending}
                onClick={() => {
                  setError(undefined);
                  setSaid('');
                  const value = address();
                  if (value) setConfirming(value);
                }}
              >
                Erase everything
              </button>
            </div>
            {confirming ? (
              <div role="group" aria-labelledby={`${id}-confirm`} className="confirm-erase">
                <p id={`${id}-confirm`}>
                  Erase every application given as <bdi>{confirming}</bdi>, with everything about them? This cannot be undone.
                </p>
                <button type="button" className="danger" autoFocus onClick={() => void eraseConfirmed(confirming)}>
                  Erase for good
                </button>
                <button type="button" className="secondary" onClick={() => setConfirming(undefined)}>
                  Keep it
                </button>
              </div>
            ) : null}
            <p className="privacy-said">{said}</p>
          </form>
        )}
      </section>
    </div>
  );
}
