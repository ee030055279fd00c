import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';

/**
 * The password asked again before a change to one's second factors (docs/inbox.md, "The team"):
 * a modal dialog (React Aria: focus held inside, Escape closes it) with a masked field a password
 * manager fills (`autocomplete="current-password"`), rather than the browser's prompt, which shows
 * what is typed.
 * @returns `ask`, which opens the dialog and resolves to the password, or undefined when cancelled;
 *   and the `dialog` to render.
 */
export function usePasswordConfirmation(): { ask: (purpose: string) => Promise<string | undefined>; dialog: ReactNode } {
  const [purpose, setPurpose] = useState<string>();
  const [password, setPassword] = useState('');
  const settle = useRef<(password: string | undefined) => void>(undefined);

  const finish = (value: string | undefined) => {
    const resolve = settle.current;
    settle.current = undefined;
    setPurpose(undefined);
    setPassword('');
    resolve?.(value);
  };
  const ask = (why: string) =>
    new Promise<string | undefined>((resolve) => {
      settle.current?.(undefined);
      settle.current = resolve;
      setPassword('');
      setPurpose(why);
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password !== '') finish(password);
  };

  const dialog = (
    <ModalOverlay className="modal-overlay" isOpen={purpose !== undefined} onOpenChange={(open) => open || finish(undefined)} isDismissable>
      <Modal className="modal">
        <Dialog className="dialog">
          <Heading slot="title">Enter your password</Heading>
          <form onSubmit={submit}>
            <p>{purpose}</p>
            <label>
              Password
              <input
                type="password"
                name="password"
                autoComplete="current-password"
                required
                autoFocus
                value={password}
                onChange={(event) => setPassword(event.target.value)}
              />
            </label>
            <p>
              <button type="submit">Confirm</button>{' '}
              <button type="button" className="secondary" onClick={() => finish(undefined)}>
                Cancel
              </button>
            </p>
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
  return { ask, dialog };
}
