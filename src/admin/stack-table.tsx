/**
 * The header row of a `stack-table` (each row a card below 768 px, its cells led by their
 * `data-label`: styles.css, "Phones"), with the explicit ARIA roles that keep the table's
 * semantics under `display: block`.
 * @param columns - the columns' names, in order.
 * @param actions - a last column of buttons, named for screen readers only ("Actions").
 */
export function StackTableHead({ columns, actions = false }: { columns: readonly string[]; actions?: boolean }) {
  return (
    <thead role="rowgroup">
      <tr role="row">
        {columns.map((column) => (
          <th key={column} scope="col" role="columnheader">
            {column}
          </th>
        ))}
        {actions ? (
          <th scope="col" role="columnheader">
            <span className="visually-hidden">Actions</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}
