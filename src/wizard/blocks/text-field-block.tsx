import type { BlockOf } from '../../shared/config';
import { TextField } from '../controls/text-field';
import { useField, useItemVisibility } from '../engine/wizard-context';

/** A text input or textarea bound to `data.path`. */
export function TextFieldBlock({ block }: { block: BlockOf<'textField'> }) {
  const { hidden, disabled } = useItemVisibility(block.data.path);
  if (hidden) return null;
  return <BoundTextField {...block.data} disabled={disabled} />;
}

function BoundTextField(props: BlockOf<'textField'>['data'] & { disabled: boolean }) {
  const field = useField<string | undefined>(props.path);
  return (
    <TextField
      id={field.id}
      name={field.name}
      label={props.label}
      placeholder={props.placeholder}
      footer={props.footer}
      multiline={props.multiline}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      onSettle={field.settle}
      error={field.error}
      required={field.required}
      disabled={props.disabled}
      inputRef={field.ref}
    />
  );
}
