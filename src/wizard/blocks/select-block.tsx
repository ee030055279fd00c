import type { BlockOf } from '../../shared/config';
import { Select } from '../controls/select';
import { useField, useItemVisibility } from '../engine/wizard-context';
import { useSelectTexts } from './select-texts';

/** A searchable select, single or multi (with an optional maximum), bound to `data.path`. */
export function SelectBlock({ block }: { block: BlockOf<'select'> }) {
  const { hidden, disabled } = useItemVisibility(block.data.path);
  if (hidden) return null;
  return <BoundSelect data={block.data} disabled={disabled} />;
}

function BoundSelect({ data, disabled }: { data: BlockOf<'select'>['data']; disabled: boolean }) {
  const field = useField<string | string[] | undefined>(data.path);
  const texts = useSelectTexts(data.placeholder);
  const common = {
    id: field.id,
    label: data.label,
    options: data.options,
    texts,
    disabled,
    error: field.error,
    required: field.required,
    onBlur: field.onBlur,
    inputRef: field.ref,
  };
  return data.multiple ? (
    <Select
      {...common}
      multiple
      maxLength={data.maxLength}
      value={Array.isArray(field.value) ? field.value : []}
      onChange={(value) => {
        field.onChange(value);
        field.settle();
      }}
    />
  ) : (
    <Select
      {...common}
      value={typeof field.value === 'string' ? field.value : undefined}
      onChange={(value) => {
        field.onChange(value ?? '');
        field.settle();
      }}
    />
  );
}
