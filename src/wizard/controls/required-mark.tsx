/**
 * The class that marks a required question's label (requirements §5): shown where the question's
 * own rules make it required — never typed into a label —, one mark for every kind of question.
 * The mark is the label's `::after` (styles.css, `.required`: a no-break space and `*`, whose
 * alternative text is empty), so it is seen and never read as part of the label: assistive
 * technology hears the control's `aria-required` instead, and the step says what the mark means
 * ({@link RequiredNote}).
 * @param className - the label's own classes.
 * @returns `className`, with `required` when `required` holds.
 */
export function markRequired(className: string, required: boolean | undefined): string {
  return required ? `${className} required`.trim() : className;
}

/** What the mark means, once at the top of a step that asks a required question (`requiredNote`). */
export function RequiredNote({ text }: { text: string }) {
  return <p className="required-note">{text}</p>;
}
