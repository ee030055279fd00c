import type { Ref } from 'react';
import { FieldError, describedBy } from './field-error';
import { markRequired } from './required-mark';

/** One choice of a {@link RadioGroup}. */
export interface RadioOption<V extends string | boolean> {
  label: string;
  value: V;
}

/** Props of {@link RadioGroup}. */
export interface RadioGroupProps<V extends string | boolean> {
  id: string;
  name: string;
  label: string;
  options: RadioOption<V>[];
  value: V | undefined;
  onChange: (value: V) => void;
  onBlur?: () => void;
  error?: string | undefined;
  disabled?: boolean | undefined;
  /** Required by the question's rules: marked (`markRequired`) and announced (`aria-required`). */
  required?: boolean | undefined;
  /** Receives the first radio, so a failed step can focus the group. */
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * A WAI-ARIA radio group of native radios: Tab enters the group, arrow keys
 * move the choice (requirements §4 yes/no panel).
 */
export function RadioGroup<V extends string | boolean>(props: RadioGroupProps<V>) {
  const { id, name, label, options, value, onChange, onBlur, error, disabled, required, inputRef } = props;
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <div
        role="radiogroup"
        aria-labelledby={labelId}
        aria-describedby={describedBy(error && errorId)}
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        className="radio-group"
      >
        <span id={labelId} className={markRequired('field-label', required)}>
          {label}
        </span>
        <div className="radio-options">
          {options.map((option, index) => {
            const optionId = `${id}-${index}`;
            return (
              <label key={String(option.value)} className={value === option.value ? 'radio-option checked' : 'radio-option'} htmlFor={optionId}>
                <input
                  id={optionId}
                  ref={index === 0 ? inputRef : undefined}
                  type="radio"
                  name={name}
                  checked={value === option.value}
                  disabled={disabled}
                  onChange={() => onChange(option.value)}
                  onBlur={onBlur}
                />
                <span>{option.label}</span>
              </label>
            );
          })}
        </div>
      </div>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
