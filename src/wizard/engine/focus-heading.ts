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
