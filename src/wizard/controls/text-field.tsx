import { useEffect, useRef, type FocusEvent, type Ref } from 'react';
import { FieldError, describedBy, leavesForSubmit } from './field-error';
import { markRequired } from './required-mark';

/** How long typing must pause before the value settles, in ms (requirements §5, §9). */
export const SETTLE_DELAY_MS = 500;

/** Props of {@link TextField}. */
export interface TextFieldProps {
  id: string;
  name: string;
  label?: string | undefined;
  placeholder?: string | undefined;
  /** A hint under the control. */
  footer?: string | undefined;
  /** A textarea instead of a single-line input. */
  multiline?: boolean | undefined;
  value: string;
  /** Called on every keystroke with the new text: nothing typed is ever held back. */
  onChange: (value: string) => void;
  onBlur?: () => void;
  /**
   * Called once typing has paused for {@link SETTLE_DELAY_MS} with a value that
   * differs from the last settled one (debounced and de-duplicated, requirements §5). While the field
   * shows an error, at once after each keystroke instead: the error leaves as soon as the text is
   * right, while the applicant types, not later under the pointer (an error leaving on the next
   * press moved the form up and the press landed on nothing, an outside review found).
   */
  onSettle?: (value: string) => void;
  error?: string | undefined;
  /**
   * Settles after each keystroke, as while it shows an error, because an error of its group shows
   * (the platforms' "Fill at least one platform"): that error leaves as soon as the row is right.
   */
  settleAtOnce?: boolean | undefined;
  disabled?: boolean | undefined;
  required?: boolean | undefined;
  inputRef?: Ref<HTMLInputElement | HTMLTextAreaElement>;
  type?: 'text' | 'email' | 'tel' | 'url';
  inputMode?: 'text' | 'email' | 'numeric' | 'tel' | 'url';
  autoComplete?: string;
  /** Accessible name when there is no visible label. */
  ariaLabel?: string;
  /**
   * Invalid for a rule of the group it belongs to, said once for the group (the platforms' "Fill the
   * required platforms"): marked invalid and described by that message's element, `invalidBy` its id.
   */
  invalidBy?: string | undefined;
}

/** A labelled text input or textarea with placeholder, footer and error. */
export function TextField(props: TextFieldProps) {
  const { id, name, label, placeholder, footer, multiline, value, onChange, onBlur, onSettle, error, disabled } = props;
  const { inputRef, type = 'text', inputMode, autoComplete, required, ariaLabel, invalidBy, settleAtOnce } = props;
  const settled = useRef(value);
  useEffect(() => {
    if (!onSettle || value === settled.current) return;
    const timer = setTimeout(
      () => {
        settled.current = value;
        onSettle(value);
      },
      error || settleAtOnce ? 0 : SETTLE_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [value, onSettle, error, settleAtOnce]);

  const errorId = `${id}-error`;
  const footerId = `${id}-footer`;
  const common = {
    id,
    name,
    value,
    placeholder,
    disabled,
    'aria-invalid': error || invalidBy ? true : undefined,
    'aria-describedby': describedBy(footer && footerId, error && errorId, !error && invalidBy),
    'aria-required': required || undefined,
    'aria-label': ariaLabel,
    // Left for Continue: the press checks the whole step (an error shown now would move the button away).
    onBlur: onBlur && ((event: FocusEvent<HTMLInputElement | HTMLTextAreaElement>) => (leavesForSubmit(event) ? undefined : onBlur())),
  };
  return (
    <div className="field">
      {label ? (
        <label className={markRequired('field-label', required)} htmlFor={id}>
          {label}
        </label>
      ) : null}
      {multiline ? (
        <textarea {...common} ref={inputRef as Ref<HTMLTextAreaElement>} rows={4} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input
          {...common}
          ref={inputRef as Ref<HTMLInputElement>}
          type={type}
          inputMode={inputMode}
          autoComplete={autoComplete}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {footer ? (
        <p id={footerId} className="field-footer">
          {footer}
        </p>
      ) : null}
      <FieldError id={errorId} message={error} />
    </div>
  );
}
