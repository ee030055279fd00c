import type { Ref } from 'react';
import { MIN_PASSWORD_LENGTH } from '../shared/admin';

/** Which of the two fields a problem is about, and the id of the element that says it. */
export interface NewPasswordProblem {
  field: 'password' | 'again';
  id: string;
}

/**
 * A new password and the same again (autocomplete `new-password`, so a password manager offers to
 * make one), with what the rule asks: the invitation's and the reset's pages, and Your account.
 * The form reads them as `password` and `again`; the server holds the password to the rule.
 * @param problem - the field a refusal is about: marked invalid and described by what says why.
 */
export function NewPasswordFields({
  label = 'New password',
  fieldRef,
  problem,
}: {
  label?: string;
  fieldRef?: Ref<HTMLInputElement>;
  problem?: NewPasswordProblem;
}) {
  const about = (field: NewPasswordProblem['field']) => (problem?.field === field ? { 'aria-invalid': true, 'aria-describedby': problem.id } : {});
  return (
    <>
      <label>
        {label}
        <span className="meta"> at least {MIN_PASSWORD_LENGTH} characters; a few words you will remember make a strong one</span>
        <input ref={fieldRef} name="password" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH} {...about('password')} />
      </label>
      <label>
        The same password again
        <input name="again" type="password" autoComplete="new-password" required {...about('again')} />
      </label>
    </>
  );
}
