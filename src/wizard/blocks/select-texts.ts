import { useMemo } from 'react';
import { selectTexts, type SelectTexts } from '../../shared/messages';
import { useWizard } from '../engine/wizard-context';

/** The select's texts from the configuration's messages (translatable, requirements §14). */
export function useSelectTexts(placeholder?: string): SelectTexts {
  const { messages } = useWizard();
  return useMemo(() => selectTexts(messages, placeholder), [messages, placeholder]);
}
