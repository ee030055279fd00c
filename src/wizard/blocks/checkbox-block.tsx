import type { BlockOf } from '../../shared/config';
import { Checkbox } from '../controls/checkbox';
import { useField, useItemVisibility } from '../engine/wizard-context';

/** A checkbox with an HTML label bound to `data.path` (e.g. an agreement; never sent). */
export function CheckboxBlock({ block }: { block: BlockOf<'checkbox'> }) {
  const { hidden, disabled } = useItemVisibility(block.data.path);
  if (hidden) return null;
  return <BoundCheckbox path={block.data.path} label={block.data.label} disabled={disabled} />;
}

/** A checkbox with an HTML label bound to the form value at `path` (the checkbox and consent blocks'). */
export function BoundCheckbox({ path, label, disabled = false }: { path: string; label: string; disabled?: boolean }) {
  const field = useField<boolean | undefined>(path);
  return (
    <Checkbox
      id={field.id}
      name={field.name}
      labelHtml={label}
      checked={field.value === true}
      onChange={(checked) => {
        field.onChange(checked);
        // A choice is made at once: its error goes as the box is ticked, not at blur. At blur, the
        // error line's going would move the button under a press already begun, and lose it.
        field.settle();
      }}
      onBlur={field.onBlur}
      error={field.error}
      required={field.required}
      disabled={disabled}
      inputRef={field.ref}
    />
  );
}
