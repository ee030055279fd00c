import { createColumnHelper, flexRender, rowSelectionFeature, tableFeatures, useTable, type RowSelectionState } from '@tanstack/react-table';
import { useId, useMemo } from 'react';
import { Link } from 'wouter';
import type { ApplicationListItem, ApplicationSort, SortDirection } from '../shared/admin';
import { PLATFORM_NAMES, platformKeys } from '../shared/platforms';
import { ApplicantName, isolatedName } from './applicant-text';
import { STATUS_LABELS, formatCount, formatDateTime, platformLabel } from './format';
import { CountryWithFlag, TagChips } from './labels';
import { applicationHref } from './triage';

/** The sortable columns: each sort's header and the direction its first press chooses. */
export const SORT_HEADERS: Record<ApplicationSort, { label: string; first: SortDirection }> = {
  received: { label: 'Received', first: 'desc' },
  name: { label: 'Name', first: 'asc' },
  country: { label: 'Country', first: 'asc' },
  followers: { label: 'Total followers', first: 'desc' },
  topPlatform: { label: 'Largest platform', first: 'desc' },
};

/** What a column's header and cells need beside their content: the label a card shows before each cell, the server sort it stands for, a class. */
interface ColumnMeta {
  label?: string;
  sort?: ApplicationSort;
  className?: string;
}

/** The table's features (TanStack Table v9): row selection only; sorting and paging are the server's. */
const features = tableFeatures({ rowSelectionFeature, columnMeta: {} as ColumnMeta });
const column = createColumnHelper<typeof features, ApplicationListItem>();

/** The view's sort and a way to change it, as the headers' buttons use them. */
export interface SortControl {
  sort: ApplicationSort;
  dir: SortDirection;
  onSort: (sort: ApplicationSort, dir: SortDirection) => void;
}

/**
 * A sortable column's header button (WAI-ARIA: `aria-sort` is on its `th`): sorts by the column,
 * and a second press turns the direction.
 */
function SortButton({ sort, control }: { sort: ApplicationSort; control: SortControl }) {
  const active = control.sort === sort;
  const next: SortDirection = active ? (control.dir === 'asc' ? 'desc' : 'asc') : SORT_HEADERS[sort].first;
  return (
    <button type="button" className="sort-button" onClick={() => control.onSort(sort, next)}>
      {SORT_HEADERS[sort].label}
      <span aria-hidden="true" className="sort-mark">
        {active ? (control.dir === 'asc' ? ' ▲' : ' ▼') : ''}
      </span>
    </button>
  );
}

/** The columns, the selection's first when the user may decide. */
function columnsFor(canEdit: boolean, view: string, control: SortControl, pageTitles: ReadonlyMap<string, string>) {
  const sortable = (sort: ApplicationSort) => ({ header: () => <SortButton sort={sort} control={control} />, meta: { label: SORT_HEADERS[sort].label, sort } });
  return [
    ...(canEdit
      ? [
          column.display({
            id: 'select',
            header: ({ table }) => (
              <input
                type="checkbox"
                aria-label="Select all shown applications"
                checked={table.getIsAllRowsSelected()}
                onChange={table.getToggleAllRowsSelectedHandler()}
              />
            ),
            cell: ({ row }) => (
              <input
                type="checkbox"
                aria-label={`Select ${row.original.firstName} ${row.original.lastName}`}
                checked={row.getIsSelected()}
                onChange={row.getToggleSelectedHandler()}
              />
            ),
            meta: { className: 'cell-select' },
          }),
        ]
      : []),
    column.display({
      id: 'name',
      ...sortable('name'),
      meta: { sort: 'name', className: 'cell-name' },
      cell: ({ row: { original: item } }) => (
        <>
          {/* Cut after a few lines; the whole name is in the title and the detail. */}
          <Link href={applicationHref(item.id, view)} className="applicant-name" title={isolatedName(item)}>
            <ApplicantName firstName={item.firstName} lastName={item.lastName} />
          </Link>
          {item.unreadable ? (
            <>
              {' '}
              <span className="badge">Unreadable answers</span>
            </>
          ) : null}
          {item.duplicateOf ? (
            <>
              {' '}
              <span className="badge warning">Possible duplicate</span>
            </>
          ) : null}
        </>
      ),
    }),
    column.display({
      id: 'email',
      header: 'Email',
      meta: { label: 'Email' },
      cell: ({ row }) => <bdi className="applicant-text">{row.original.emailAddress}</bdi>,
    }),
    column.display({
      id: 'country',
      ...sortable('country'),
      cell: ({ row }) => (row.original.countryCode ? <CountryWithFlag code={row.original.countryCode} /> : null),
    }),
    column.display({
      id: 'platforms',
      header: 'Platforms',
      meta: { label: 'Platforms' },
      cell: ({ row: { original: item } }) => (
        <ul className="platforms">
          {PLATFORM_NAMES.flatMap((platform) => {
            const answer = item.platforms[platform];
            if (!answer) return [];
            const { identity, audience } = platformKeys(platform);
            return [
              <li key={platform}>
                {platformLabel(platform)}: <bdi>{answer[identity]}</bdi>
                {answer[audience] ? ` (${formatCount(answer[audience])})` : ''}
              </li>,
            ];
          })}
        </ul>
      ),
    }),
    column.display({
      id: 'followers',
      ...sortable('followers'),
      meta: { label: SORT_HEADERS.followers.label, sort: 'followers', className: 'number' },
      cell: ({ row }) => formatCount(String(row.original.totalFollowers)),
    }),
    column.display({
      id: 'topPlatform',
      ...sortable('topPlatform'),
      cell: ({ row: { original: item } }) =>
        item.topPlatform ? `${platformLabel(item.topPlatform.platform)} (${formatCount(String(item.topPlatform.followers))})` : null,
    }),
    column.display({
      id: 'received',
      ...sortable('received'),
      cell: ({ row }) => <time dateTime={row.original.receivedAt}>{formatDateTime(row.original.receivedAt)}</time>,
    }),
    column.display({
      id: 'page',
      header: 'Page',
      meta: { label: 'Page' },
      // The campaign page the application came through: its title and id (pages may share a title:
      // a new page starts as a copy), its id alone until the pages are read.
      cell: ({ row: { original: item } }) => {
        const title = pageTitles.get(item.pageId);
        return title === undefined ? (
          item.pageId
        ) : (
          <>
            <bdi>{title}</bdi> <span className="page-id">({item.pageId})</span>
          </>
        );
      },
    }),
    column.display({
      id: 'status',
      header: 'Status',
      meta: { label: 'Status' },
      cell: ({ row }) => <span className={`badge status-${row.original.status}`}>{STATUS_LABELS[row.original.status]}</span>,
    }),
    column.display({
      id: 'tags',
      header: 'Tags',
      meta: { label: 'Tags', className: 'cell-tags' },
      cell: ({ row }) => <TagChips tags={row.original.tags} label={`Tags of ${row.original.firstName} ${row.original.lastName}`} />,
    }),
  ];
}

/**
 * The applications of a view as one table (TanStack Table v9), sorted by the server: a
 * sortable column's header is a button, the sorted one says so (`aria-sort`). From 768 px it is a
 * table; below, CSS turns each row into a card (the headers hidden, each cell led by its column's
 * name from `data-label`), one markup for both (docs/decisions/020). The explicit ARIA roles keep
 * the table's semantics when CSS changes its display. Editors select rows (by id, across "Load
 * more" pages); the selection is the caller's state.
 */
export function ApplicationsTable(props: {
  items: readonly ApplicationListItem[];
  view: string;
  canEdit: boolean;
  busy: boolean;
  control: SortControl;
  selection: RowSelectionState;
  onSelectionChange: (selection: RowSelectionState) => void;
  /** Each page's title by its id, for the Page column. */
  pageTitles: ReadonlyMap<string, string>;
}) {
  const { items, view, canEdit, control, selection, onSelectionChange, pageTitles } = props;
  const captionId = useId();
  const columns = useMemo(() => columnsFor(canEdit, view, control, pageTitles), [canEdit, view, control, pageTitles]);
  const table = useTable({
    features,
    columns,
    data: items,
    getRowId: (item) => item.id,
    state: { rowSelection: selection },
    onRowSelectionChange: (updater) => onSelectionChange(typeof updater === 'function' ? updater(selection) : updater),
  });
  return (
    /* Scrolls sideways on a narrow desktop window; focusable so that the keyboard can scroll it too. */
    <div className="table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
      <table className="applications-table" role="table" aria-busy={props.busy}>
        <caption id={captionId} className="visually-hidden">
          Applications, sorted by {SORT_HEADERS[control.sort].label.toLowerCase()}, {control.dir === 'asc' ? 'ascending' : 'descending'}
        </caption>
        <thead role="rowgroup">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id} role="row">
              {group.headers.map((header) => {
                const sort = header.column.columnDef.meta?.sort;
                return (
                  <th
                    key={header.id}
                    scope="col"
                    role="columnheader"
                    aria-sort={sort ? (control.sort === sort ? (control.dir === 'asc' ? 'ascending' : 'descending') : 'none') : undefined}
                  >
                    {flexRender(header.column.columnDef.header, header.getContext())}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody role="rowgroup">
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} role="row">
              {row.getAllCells().map((cell) => {
                const meta = cell.column.columnDef.meta;
                return (
                  <td key={cell.id} role="cell" className={meta?.className} data-label={meta?.label}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
