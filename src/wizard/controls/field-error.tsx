/** Props of {@link FieldError}. */
export interface FieldErrorProps {
  /** Id the control points at with `aria-describedby`. */
  id: string;
  /** The message; nothing is rendered without one. */
  message?: string | undefined;
}

/** A field's error message, announced as it appears (`role="alert"`). */
export function FieldError({ id, message }: FieldErrorProps) {
  if (!message) return null;
  return (
    <p id={id} className="field-error" role="alert">
      {message}
    </p>
  );
}

/** Joins the ids for `aria-describedby`, leaving out the absent ones. */
export function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  const present = ids.filter(Boolean);
  return present.length > 0 ? present.join(' ') : undefined;
}

/**
 * Whether a field is left for its form's submit button (Continue, Submit application): the press has
 * begun (the button took focus on its pointer-down). The field's own check is then left to the press,
 * which checks the whole step: shown at the field's blur, its error line would push the button down
 * under the pointer, and the click would land beside it and be lost.
 */
export function leavesForSubmit(event: { relatedTarget: EventTarget | null; currentTarget: EventTarget }): boolean {
  const next = event.relatedTarget;
  const field = event.currentTarget as Element & { form?: HTMLFormElement | null };
  return next instanceof HTMLButtonElement && next.type === 'submit' && next.form !== null && next.form === (field.form ?? field.closest('form'));
}
