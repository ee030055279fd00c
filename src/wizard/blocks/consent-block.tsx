import { consentPath } from '../../shared/blocks/consent';
import type { BlockOf } from '../../shared/config';
import { Checkbox } from '../controls/checkbox';
import { useField } from '../engine/wizard-context';

/** A consent (requirements §21): a checkbox whose label is the text agreed to, at `consents.{purpose}`; its answer, given or not, is recorded. */
export function ConsentBlock({ block }: { block: BlockOf<'consent'> }) {
  const field = useField<boolean | undefined>(consentPath(block.data.purpose));
  return (
    <Checkbox
      id={field.id}
      name={field.name}
      labelHtml={block.data.label}
      checked={field.value === true}
      onChange={(checked) => {
        field.onChange(checked);
        // A choice is made at once: its error goes as the box is ticked (as the checkbox block's).
        field.settle();
      }}
      onBlur={field.onBlur}
      error={field.error}
      inputRef={field.ref}
    />
  );
}
