import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { ApiError, errorsOf } from './api';

/** A change waiting for the password: what it is for, the change itself, and how it ends. */
interface Request {
  purpose: string;
  work: (password: string) => Promise<void>;
  settle: (done: boolean) => void;
  fail: (error: unknown) => void;
}

/**
 * The password asked again before a change to one's second factors (docs/inbox.md, "The team"):
 * a modal dialog (React Aria: focus held inside, Escape closes it) with a masked field a password
 * manager fills (`autocomplete="current-password"`), rather than the browser's prompt, which shows
 * what is typed. The change is made from the dialog: a password the server finds wrong (403 naming
 * `password`) is said there, the dialog kept open to type it again.
 * @returns `confirm`, which opens the dialog and resolves to whether the change was made (false:
 *   cancelled), rejecting with any other failure of `work`; and the `dialog` to render.
 */
export function usePasswordConfirmation(): {
  confirm: (purpose: string, work: (password: string) => Promise<void>) => Promise<boolean>;
  dialog: ReactNode;
} {
  const [request, setRequest] = useState<Request>();
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const problemId = useId();

  const close = () => {
    setRequest(undefined);
    setPassword('');
    setProblem(undefined);
  };
  const confirm = (purpose: string, work: (password: string) => Promise<void>) =>
    new Promise<boolean>((settle, fail) => {
      request?.settle(false);
      setPassword('');
      setProblem(undefined);
      setRequest({ purpose, work, settle, fail });
    });
  const cancel = () => {
    if (busy) return;
    request?.settle(false);
    close();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!request || busy) return;
    if (password === '') {
      setProblem('Enter your password.');
      return;
    }
    setBusy(true);
    try {
      await request.work(password);
      close();
      request.settle(true);
    } catch (caught) {
      const wrong = caught instanceof ApiError && caught.status === 403 && errorsOf(caught).find((entry) => entry.path === 'password');
      if (wrong) {
        setProblem(`${wrong.message} Enter it again.`);
        setPassword('');
        field.current?.focus();
      } else {
        close();
        request.fail(caught);
      }
    } finally {
      setBusy(false);
    }
  };

  const dialog = (
    <ModalOverlay className="modal-overlay" isOpen={request !== undefined} onOpenChange={(open) => open || cancel()} isDismissable={!busy}>
      <Modal className="modal">
        <Dialog className="dialog">
          <Heading slot="title">Enter your password</Heading>
          <form onSubmit={(event) => void submit(event)} noValidate>
            <p>{request?.purpose}</p>
            <label>
              Password
              <input
                ref={field}
                type="password"
                name="password"
                autoComplete="current-password"
                required
                autoFocus
                value={password}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? problemId : undefined}
                onChange={(event) => setPassword(event.target.value)}
              />
            </label>
            {problem ? (
              <p id={problemId} role="alert" className="error">
                {problem}
              </p>
            ) : null}
            <p>
              <button type="submit" disabled={busy}>
                {busy ? 'Checking…' : 'Confirm'}
              </button>{' '}
              <button type="button" className="secondary" onClick={cancel} disabled={busy}>
                Cancel
              </button>
            </p>
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
  return { confirm, dialog };
}
