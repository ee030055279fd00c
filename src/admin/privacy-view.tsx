import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { personErasedSentence } from '../shared/person';
import { isEmail } from '../shared/rules';
import { announce } from './announcer';
import { failureSentence } from './api';
import { erasureCount, exportPerson, useErasePerson } from './features/privacy/api';

/**
 * Privacy (`/admin/privacy`; docs/privacy.md): a person's data, found by the e-mail address they
 * applied with, on every page — downloaded as one JSON file, or erased (asked twice). Editors
 * only; a viewer is told so.
 */
export default function PrivacyView({ canEdit }: { canEdit: boolean }) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const eraseButton = useRef<HTMLButtonElement>(null);
  const saidRef = useRef<HTMLParagraphElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const erase = useErasePerson();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [said, setSaid] = useState('');
  // The address whose erasure waits for its second, explicit confirmation, and how many applications it takes.
  const [confirming, setConfirming] = useState<{ email: string; count: number }>();
  const [downloading, setDownloading] = useState(false);
  useEffect(() => heading.current?.focus(), []);
  // The confirmation, once shown, takes focus on its safe choice: a second Enter keeps the data.
  useEffect(() => {
    if (confirming) keep.current?.focus();
  }, [confirming]);

  /** The address typed, or undefined after saying why it is none (focus back on the field). */
  const address = (): string | undefined => {
    const value = email.trim();
    if (isEmail(value)) return value;
    setError('Enter the e-mail address the person applied with.');
    field.current?.focus();
    return undefined;
  };
  const download = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setSaid('');
    const value = address();
    if (!value) return;
    setDownloading(true);
    try {
      // Read here, then saved by the browser: a refusal is said on this page, not shown instead of it.
      const document = await exportPerson(value);
      const url = URL.createObjectURL(new Blob([JSON.stringify(document, null, 2)], { type: 'application/json' }));
      const link = Object.assign(window.document.createElement('a'), { href: url, download: `person-${document.about.exportedAt.slice(0, 10)}.json` });
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      // Their own, those held for a guardian's answer, and those they consented to as a minor's guardian.
      const count = document.applications.length + document.awaitingGuardian.length + document.consentedAsGuardian.length;
      const text =
        count === 0
          ? `No application was given as ${value}: the file holds none.`
          : `Their data (${count} application${count === 1 ? '' : 's'}) was saved as a JSON file. Notes are as the team wrote them: read them before sending, they may name others.`;
      setSaid(text);
      announce(text);
    } catch (caught) {
      setError(failureSentence(caught));
    } finally {
      setDownloading(false);
    }
  };
  /** Says what an erasure of the address would take, and asks; with nothing to take, says so. */
  const askToErase = async () => {
    setError(undefined);
    setSaid('');
    const value = address();
    if (!value) return;
    try {
      const count = await erasureCount(value);
      if (count > 0) return setConfirming({ email: value, count });
      const text = personErasedSentence(value, 0);
      setSaid(text);
      announce(text);
    } catch (caught) {
      setError(failureSentence(caught));
    }
  };
  /** Closes the confirmation and gives focus back to what opened it. */
  const keepIt = () => {
    setConfirming(undefined);
    eraseButton.current?.focus();
  };
  const eraseConfirmed = async (value: string) => {
    setConfirming(undefined);
    try {
      const { erased } = await erase.mutateAsync(value);
      const text = personErasedSentence(value, erased);
      setSaid(text);
      announce(text);
      setEmail('');
      saidRef.current?.focus();
    } catch (caught) {
      setError(failureSentence(caught));
      eraseButton.current?.focus();
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
          <form onSubmit={(event) => void download(event)} noValidate>
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
              <button type="submit" disabled={downloading}>
                {downloading ? 'Preparing the file…' : 'Download their data'}
              </button>
              <button ref={eraseButton} type="button" className="danger" disabled={erase.isPending} onClick={() => void askToErase()}>
                Erase everything
              </button>
            </div>
            {confirming ? (
              <div
                role="group"
                aria-labelledby={`${id}-confirm`}
                className="confirm-erase"
                onKeyDown={(event) => {
                  if (event.key === 'Escape') keepIt();
                }}
              >
                <p id={`${id}-confirm`}>
                  Erase {confirming.count === 1 ? 'the application' : `the ${confirming.count} applications`} of <bdi>{confirming.email}</bdi>, with everything
                  about them? This cannot be undone.
                </p>
                <button ref={keep} type="button" className="secondary" onClick={keepIt}>
                  Keep it
                </button>
                <button type="button" className="danger" onClick={() => void eraseConfirmed(confirming.email)}>
                  Erase for good
                </button>
              </div>
            ) : null}
            <p className="privacy-said" ref={saidRef} tabIndex={-1}>
              {said}
            </p>
          </form>
        )}
      </section>
    </div>
  );
}
