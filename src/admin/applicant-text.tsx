/**
 * Text an applicant typed, shown so that it cannot move what surrounds it: each piece
 * sits in a `<bdi>`, so a right-to-left override (U+202E) or a right-to-left name stays inside
 * it instead of reversing the words after it. Breaking long words is left to the CSS classes
 * the callers put around it (styles.css, "Applicant text").
 */

const FIRST_STRONG_ISOLATE = '\u2068';
const POP_DIRECTIONAL_ISOLATE = '\u2069';

/**
 * `text` between FSI and PDI, the plain-text form of `<bdi>`: for attributes (a `title`'s
 * tooltip), where no element can isolate it.
 */
export function isolated(text: string): string {
  return `${FIRST_STRONG_ISOLATE}${text}${POP_DIRECTIONAL_ISOLATE}`;
}

/** An applicant's name as plain text with each part isolated, for a `title`. */
export function isolatedName(applicant: { firstName: string; lastName: string }): string {
  return `${isolated(applicant.firstName)} ${isolated(applicant.lastName)}`;
}

/**
 * An applicant's name. The first and last names are isolated one by one: an override typed in
 * the first name ends with it instead of reversing the last name.
 */
export function ApplicantName({ firstName, lastName }: { firstName: string; lastName: string }) {
  return (
    <>
      <bdi>{firstName}</bdi> <bdi>{lastName}</bdi>
    </>
  );
}
