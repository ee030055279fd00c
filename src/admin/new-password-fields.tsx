import type { Ref } from 'react';
import { MIN_PASSWORD_LENGTH } from '../shared/admin';

/**
 * A new password and the same again (autocomplete `new-password`, so a password manager offers to
 * make one), with what the rule asks: the invitation's and the reset's pages, and Your account.
 * The form reads them as `password` and `again`; the server holds the password to the rule.
 */
export function NewPasswordFields({ label = 'New password', fieldRef }: { label?: string; fieldRef?: Ref<HTMLInputElement> }) {
  return (
    <>
      <label>
        {label}
        <span className="meta"> at least {MIN_PASSWORD_LENGTH} characters; a few words you will remember make a strong one</span>
        <input ref={fieldRef} name="password" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH} />
      </label>
      <label>
        The same password again
        <input name="again" type="password" autoComplete="new-password" required />
      </label>
    </>
  );
}
