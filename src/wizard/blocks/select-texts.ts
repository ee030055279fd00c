import { useMemo } from 'react';
import type { SelectTexts } from '../controls/select';
import { useWizard } from '../engine/wizard-context';

/** The select's texts from the configuration's messages (translatable, DESIGN §5). */
export function useSelectTexts(placeholder?: string): SelectTexts {
  const { messages } = useWizard();
  return useMemo(
    () => ({
      placeholder: placeholder ?? messages.selectPlaceholder,
      searchPlaceholder: messages.searchPlaceholder,
      noResults: messages.noResults,
      remove: messages.removeOption,
      toggle: messages.toggleOptions,
      selected: messages.selectedOptions,
    }),
    [messages, placeholder],
  );
}
