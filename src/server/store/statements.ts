/**
 * Rows per statement when a change writes or reads many at once: 1 000 rows of up to 32 values
 * stay under SQLite's 32 766 and PostgreSQL's 65 535 bound parameters.
 */
export const ROWS_PER_STATEMENT = 1000;

/** `rows` in slices of at most {@link ROWS_PER_STATEMENT}, each for one statement (none for no rows). */
export function* perStatement<T>(rows: readonly T[]): Generator<T[]> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) yield rows.slice(start, start + ROWS_PER_STATEMENT);
}
