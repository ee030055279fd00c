/**
 * Moves focus to the current step's heading (requirements §2: after a step change), or to the step itself
 * when `orStep` and it has none; without scrolling (the page scrolls after the paint).
 * @returns whether there was something to focus.
 */
export function focusHeading(content: ParentNode, orStep: boolean): boolean {
  const target = content.querySelector<HTMLElement>('.step h1, .step h2, .step h3') ?? (orStep ? content.querySelector<HTMLElement>('.step') : null);
  if (!target) return false;
  target.tabIndex = -1;
  target.focus({ preventScroll: true });
  return true;
}

/**
 * Brings the whole question of the focused control into view (requirements §4: after Continue on an
 * invalid step, focus is on the first invalid control): its label, above it, is seen too. Focus
 * scrolls the control itself to the window's edge, and the label above was cut off there. The
 * question is its `.field` (label, control, error), or its platform's row; scrolled the least that
 * shows it (`block: 'nearest'`), instantly.
 */
export function revealFocusedQuestion(): void {
  const focused = document.activeElement;
  const question = focused instanceof HTMLElement ? focused.closest<HTMLElement>('.platform-row, .field') : null;
  question?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
}
