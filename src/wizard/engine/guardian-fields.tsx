import { useEffect, useRef, useState, type Ref } from 'react';
import type { Messages } from '../../shared/messages';
import { formatMessage } from '../../shared/messages';
import { isEmail, isNotBlank, isPlainText } from '../../shared/rules';
import { TextField } from '../controls/text-field';

/** A parent's or guardian's name and e-mail address as a minor types them (requirements §20). */
export interface GuardianAnswer {
  name: string;
  emailAddress: string;
}

/** Which of a guardian's answers cannot be taken, with the message to show at it; empty when both can (the server's rules, src/shared/application-check.ts). */
export function guardianProblems(guardian: GuardianAnswer, messages: Messages): { name?: string; emailAddress?: string } {
  const found: { name?: string; emailAddress?: string } = {};
  if (!isNotBlank(guardian.name)) found.name = messages.required;
  else if (!isPlainText(guardian.name)) found.name = messages.plainText;
  if (guardian.emailAddress.trim() === '') found.emailAddress = messages.required;
  else if (!isEmail(guardian.emailAddress.trim())) found.emailAddress = messages.email;
  return found;
}

/** Props of {@link GuardianFields}. */
export interface GuardianFieldsProps {
  value: GuardianAnswer;
  onChange(value: GuardianAnswer): void;
  errors: { name?: string | undefined; emailAddress?: string | undefined };
  messages: Messages;
  /** Prefix of the two inputs' ids (two places may show them). */
  idPrefix: string;
  nameRef?: Ref<HTMLInputElement | HTMLTextAreaElement>;
  emailRef?: Ref<HTMLInputElement | HTMLTextAreaElement>;
}

/** The parent's or guardian's name and e-mail address: the age screen asks them; the step that sends the application lets them be changed. */
export function GuardianFields({ value, onChange, errors, messages, idPrefix, nameRef, emailRef }: GuardianFieldsProps) {
  return (
    <>
      <TextField
        id={`${idPrefix}-name`}
        name="guardian.name"
        label={messages.guardianNameLabel}
        value={value.name}
        onChange={(name) => onChange({ ...value, name })}
        error={errors.name}
        required
        autoComplete="off"
        inputRef={nameRef}
      />
      <TextField
        id={`${idPrefix}-email`}
        name="guardian.emailAddress"
        label={messages.guardianEmailLabel}
        value={value.emailAddress}
        onChange={(emailAddress) => onChange({ ...value, emailAddress })}
        error={errors.emailAddress}
        required
        type="email"
        inputMode="email"
        autoComplete="off"
        inputRef={emailRef}
      />
    </>
  );
}

/** Props of {@link GuardianReview}. */
export interface GuardianReviewProps {
  guardian: GuardianAnswer;
  /** The answers changed: the page keeps them (sent with the application). */
  onChange(guardian: GuardianAnswer): void;
  /** Errors a send found (shown at their fields, which then open). */
  errors: { name?: string | undefined; emailAddress?: string | undefined };
  messages: Messages;
}

/**
 * On the step that sends a minor's application: whom the brand will ask to agree, and **Change**,
 * which opens the two fields where the age screen asked them (a mistyped address is caught before
 * the e-mail goes nowhere). The age itself cannot be changed (the age screen is asked once).
 */
export function GuardianReview({ guardian, onChange, errors, messages }: GuardianReviewProps) {
  const [open, setOpen] = useState(false);
  const nameRef = useRef<HTMLInputElement | HTMLTextAreaElement>(null);
  const emailRef = useRef<HTMLInputElement | HTMLTextAreaElement>(null);
  const shown = open || errors.name !== undefined || errors.emailAddress !== undefined;
  // A send that found a problem: its first field takes focus.
  useEffect(() => {
    if (errors.name) nameRef.current?.focus();
    else if (errors.emailAddress) emailRef.current?.focus();
  }, [errors]);
  return (
    <div className="guardian-review">
      <p>{formatMessage(messages.guardianReview, { name: guardian.name.trim(), email: guardian.emailAddress.trim() })}</p>
      {shown ? (
        <GuardianFields
          value={guardian}
          onChange={onChange}
          errors={errors}
          messages={messages}
          idPrefix="guardian-review"
          nameRef={nameRef}
          emailRef={emailRef}
        />
      ) : (
        <button
          type="button"
          className="button button-secondary"
          onClick={() => {
            setOpen(true);
            requestAnimationFrame(() => nameRef.current?.focus());
          }}
        >
          {messages.guardianChange}
        </button>
      )}
    </div>
  );
}
