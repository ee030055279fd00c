import { focusHeading as focusStepHeading } from '../engine/focus-heading';

/**
 * The preview's `focusHeading` (`previewServices`):
 * as the wizard's, but a frame that does not have the focus keeps it from taking it. A
 * step the builder shows (its step picker, the step being edited) then leaves the keyboard's focus
 * in the builder, where the team is; once the team works in the frame, steps focus their heading
 * as on the public page.
 * @returns whether there was something to focus (false when the frame has no focus).
 */
export function previewFocusHeading(content: ParentNode, orStep: boolean): boolean {
  if (!document.hasFocus()) return false;
  return focusStepHeading(content, orStep);
}
