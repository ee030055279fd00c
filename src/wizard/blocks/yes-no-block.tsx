import { yesNoPaths } from '../../shared/blocks/yes-no';
import type { BlockOf } from '../../shared/config';
import { RadioGroup } from '../controls/radio-group';
import { TextField } from '../controls/text-field';
import { useField, useItemVisibility, useWizard } from '../engine/wizard-context';

/**
 * The yes/no panel (requirements §4): a radio group at `{path}.value`; the text box at
 * `{path}.text` shows, and is required, only while the answer is Yes.
 */
export function YesNoBlock({ block }: { block: BlockOf<'yesNo'> }) {
  const { messages } = useWizard();
  const { path, label, textLabel, textPlaceholder } = block.data;
  const paths = yesNoPaths(path);
  const answer = useField<boolean | undefined>(paths.value);
  const text = useItemVisibility(paths.text);
  return (
    <div className="yes-no">
      <RadioGroup
        id={answer.id}
        name={answer.name}
        label={label}
        options={[
          { label: messages.yes, value: true },
          { label: messages.no, value: false },
        ]}
        value={answer.value}
        onChange={(value) => {
          answer.onChange(value);
          answer.settle();
        }}
        onBlur={answer.onBlur}
        error={answer.error}
        required={answer.required}
        inputRef={answer.ref}
      />
      {text.hidden ? null : <YesNoText path={paths.text} label={textLabel} placeholder={textPlaceholder} disabled={text.disabled} />}
    </div>
  );
}

function YesNoText({ path, label, placeholder, disabled }: { path: string; label: string; placeholder?: string | undefined; disabled: boolean }) {
  const field = useField<string | undefined>(path);
  return (
    <TextField
      id={field.id}
      name={field.name}
      label={label}
      placeholder={placeholder}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      onSettle={field.settle}
      error={field.error}
      required={field.required}
      disabled={disabled}
      inputRef={field.ref}
    />
  );
}
