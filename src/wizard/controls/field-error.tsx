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
