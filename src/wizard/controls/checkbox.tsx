import type { Ref } from 'react';
import { FieldError, describedBy } from './field-error';
import { markRequired } from './required-mark';
import { SafeHtml } from './safe-html';

/** Props of {@link Checkbox}. */
export interface CheckboxProps {
  id: string;
  name: string;
  /** Label HTML from configuration (sanitised), e.g. an agreement with a link. */
  labelHtml: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  onBlur?: () => void;
  error?: string | undefined;
  disabled?: boolean | undefined;
  /** Required by the question's rules: marked (`markRequired`) and announced (`aria-required`). */
  required?: boolean | undefined;
  inputRef?: Ref<HTMLInputElement>;
}

/** A checkbox with an HTML label (requirements §2 Reusable controls). */
export function Checkbox({ id, name, labelHtml, checked, onChange, onBlur, error, disabled, required, inputRef }: CheckboxProps) {
  const errorId = `${id}-error`;
  return (
    <div className="field field-checkbox">
      <input
        id={id}
        name={name}
        ref={inputRef}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        aria-describedby={describedBy(error && errorId)}
        onChange={(event) => onChange(event.target.checked)}
        onBlur={onBlur}
      />
      <label htmlFor={id} className={markRequired('', required) || undefined}>
        <SafeHtml as="span" html={labelHtml} />
      </label>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
