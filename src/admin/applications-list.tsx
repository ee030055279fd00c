import type { RowSelectionState } from '@tanstack/react-table';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { announce } from './announcer';
import { APPLICATION_SORTS, SORT_DIRECTIONS, splitAnswerTerm, type ApplicationSort, type FilterQuestion, type SortDirection } from '../shared/admin';
import { getCountries } from '../shared/data/countries';
import { PLATFORM_NAMES } from '../shared/platforms';
import { queryString } from './api';
import { useApplications } from './features/applications/api';
import type { ViewFilters } from './features/keys';
import { usePages } from './features/pages/api';
import { ApplicationsTable, SORT_HEADERS } from './applications-table';
import { BulkActions } from './bulk-actions';
import { platformLabel } from './format';
import { SAID } from './labels';
import { FilterSelect, Options, usePageChoices, useTagChoices, type Choice } from './options';
import { StatusTabs } from './status-tabs';
import { SHORTCUTS, ShortcutsHelp, useShortcuts } from './triage';
import { SavedViews } from './saved-views';

/** The list's filters and sort, as in the query string of the page and of the API (requirements §17; docs/decisions/020). */
const FILTER_NAMES = ['q', 'status', 'pageId', 'platform', 'country', 'from', 'to', 'tag', 'sort', 'dir'] as const;
/** The answer filters: each parameter repeated, `key:value`. */
const ANSWER_FILTERS = ['answer', 'contains'] as const;
type Filters = Partial<Record<(typeof FILTER_NAMES)[number], string>> & Partial<Record<(typeof ANSWER_FILTERS)[number], string[]>>;

const PLATFORM_CHOICES: Choice[] = PLATFORM_NAMES.map((platform) => ({ value: platform, label: platformLabel(platform) }));
const COUNTRY_CHOICES: Choice[] = getCountries('en').map((country) => ({ value: country.isoAlpha2, label: country.name }));

/** The filters of a query string (the address's, or a saved view's). */
function filtersFromSearch(search: string): Filters {
  const params = new URLSearchParams(search);
  const filters: Filters = Object.fromEntries(FILTER_NAMES.flatMap((name) => (params.get(name) ? [[name, params.get(name)!]] : [])));
  for (const name of ANSWER_FILTERS) if (params.getAll(name).length > 0) filters[name] = params.getAll(name);
  return filters;
}

/** A view's query string, its parameters always in one order (`FILTER_NAMES`, then the answer filters), without `?`: a saved view is found by it. */
function viewQuery(filters: Filters): string {
  const ordered: Record<string, string | readonly string[] | undefined> = {};
  for (const name of [...FILTER_NAMES, ...ANSWER_FILTERS]) ordered[name] = filters[name];
  return queryString(ordered).slice(1);
}

/** The view's sort: the address's when it names one, else newest first. */
function sortOf(filters: Filters): { sort: ApplicationSort; dir: SortDirection } {
  const sort = (APPLICATION_SORTS as readonly string[]).includes(filters.sort ?? '') ? (filters.sort as ApplicationSort) : 'received';
  const dir = (SORT_DIRECTIONS as readonly string[]).includes(filters.dir ?? '') ? (filters.dir as SortDirection) : SORT_HEADERS[sort].first;
  return { sort, dir };
}

/**
 * The answer filters of a page's questions: a choice question's options as checkboxes
 * (any of them), a text question's "contains" box; every question set must hold.
 */
function AnswerFilters({
  questions,
  filters,
  onChange,
}: {
  questions: readonly FilterQuestion[];
  filters: Filters;
  onChange: (answer: string[], contains: string[]) => void;
}) {
  const answer = filters.answer ?? [];
  const contains = filters.contains ?? [];
  const containsOf = (key: string) => contains.map(splitAnswerTerm).find((term) => term?.key === key)?.value ?? '';
  const toggle = (term: string, on: boolean) => onChange(on ? [...answer, term] : answer.filter((item) => item !== term), contains);
  const setText = (key: string, value: string) =>
    onChange(answer, [...contains.filter((term) => splitAnswerTerm(term)?.key !== key), ...(value.trim() ? [`${key}:${value.trim()}`] : [])]);
  const active = answer.length + contains.length;
  return (
    <details className="answer-filters" open={active > 0 || undefined}>
      <summary>Answers{active > 0 ? ` (${active} set)` : ''}</summary>
      <div className="answer-questions">
        {questions.map((question) =>
          question.kind !== 'text' ? (
            <fieldset key={question.key}>
              <legend>{question.label}</legend>
              {question.options!.map((option) => {
                const term = `${question.key}:${option.value}`;
                return (
                  <label key={option.value} className="check">
                    <input type="checkbox" checked={answer.includes(term)} onChange={(event) => toggle(term, event.target.checked)} /> {option.label}
                  </label>
                );
              })}
            </fieldset>
          ) : (
            <label key={question.key} className="contains">
              {question.label} <span className="hint">contains</span>
              <input
                type="search"
                defaultValue={containsOf(question.key)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') {
                    event.preventDefault();
                    setText(question.key, event.currentTarget.value);
                  }
                }}
                onBlur={(event) => {
                  if (event.currentTarget.value.trim() !== containsOf(question.key)) setText(question.key, event.currentTarget.value);
                }}
              />
            </label>
          ),
        )}
        {active > 0 ? (
          <button type="button" className="secondary" onClick={() => onChange([], [])}>
            Clear answer filters
          </button>
        ) : null}
      </div>
    </details>
  );
}

/** The shortcuts that work on the list. */
const LIST_KEYS = [SHORTCUTS.search, SHORTCUTS.help];

/** The sort choices of the phone layout, where the headers are hidden: every sort, both ways. */
const SORT_CHOICES: Choice[] = APPLICATION_SORTS.flatMap((sort) => {
  const [first, second] = SORT_HEADERS[sort].first === 'desc' ? (['desc', 'asc'] as const) : (['asc', 'desc'] as const);
  const words = (dir: SortDirection) =>
    sort === 'name' || sort === 'country'
      ? dir === 'asc'
        ? 'A to Z'
        : 'Z to A'
      : sort === 'received'
        ? dir === 'desc'
          ? 'newest first'
          : 'oldest first'
        : dir === 'desc'
          ? 'most first'
          : 'fewest first';
  return [first, second].map((dir) => ({ value: `${sort}:${dir}`, label: `${SORT_HEADERS[sort].label}, ${words(dir)}` }));
});

/**
 * The applications, newest first: search, filters kept in the address (reload
 * and share keep them), status tabs, saved views, sorts and answer filters, "Load more"
 * pagination, a selection with bulk status and tag changes, and the CSV export of the current
 * view. The pages are read with TanStack Query ({@link useApplications}), drawn by TanStack Table
 * ({@link ApplicationsTable}): a table from 768 px, cards below.
 */
export function ApplicationsView({ canEdit }: { canEdit: boolean }) {
  // The address is the view: each change the user makes pushes an entry, so Back undoes it.
  const search = useSearch();
  const [, navigate] = useLocation();
  const filters = useMemo(() => filtersFromSearch(search), [search]);
  const setFilters = useCallback(
    (next: Filters | ((current: Filters) => Filters)) => {
      const query = viewQuery(typeof next === 'function' ? next(filtersFromSearch(window.location.search)) : next);
      if (query !== viewQuery(filtersFromSearch(window.location.search))) navigate(`~/admin${query ? `?${query}` : ''}`);
    },
    [navigate],
  );
  const view = viewQuery(filters);
  // The selection belongs to the view it was made in: another view starts with none.
  const [selection, setSelection] = useState<{ view: string; rows: RowSelectionState }>({ view, rows: {} });
  const rowSelection = selection.view === view ? selection.rows : {};
  const [said, setSaid] = useState<{ view: string; text: string }>({ view, text: '' });
  const headingRef = useRef<HTMLHeadingElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  // On a phone the filters fold away behind a button (CSS shows it below 768 px only).
  const [filtersShown, setFiltersShown] = useState(false);
  useShortcuts({ [SHORTCUTS.search]: () => searchRef.current?.focus(), [SHORTCUTS.help]: () => setHelpOpen(true) });
  const formId = useId();

  useEffect(() => headingRef.current?.focus(), []);
  // "Load more": the first newly loaded row's link takes focus once it is drawn (the button may be gone).
  const focusRow = useRef<number | undefined>(undefined);
  const pages = usePageChoices().choices;
  const pageList = usePages().data;
  const pageTitles = useMemo(() => new Map((pageList ?? []).map((page) => [page.pageId, page.title])), [pageList]);
  // The questions of the page chosen, or of the first page (a server serves one page by default).
  const questions = (pageList?.find((page) => page.pageId === filters.pageId) ?? pageList?.[0])?.questions ?? [];

  const list = useApplications(view);
  const items = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  const selectedIds = items.filter((item) => rowSelection[item.id]).map((item) => item.id);
  const { sort, dir } = sortOf(filters);
  const onSort = useCallback(
    (next: ApplicationSort, nextDir: SortDirection) => setFilters((current) => ({ ...current, sort: next, dir: nextDir })),
    [setFilters],
  );
  useEffect(() => {
    const row = focusRow.current;
    if (row === undefined || items.length <= row) return;
    focusRow.current = undefined;
    document.querySelectorAll<HTMLElement>('.applications-table tbody tr .cell-name a')[row]?.focus();
  }, [items.length]);
  const loadMore = async () => {
    const before = items.length;
    focusRow.current = before;
    const result = await list.fetchNextPage();
    const after = result.data?.pages.reduce((total, page) => total + page.items.length, 0) ?? before;
    if (after === before) focusRow.current = undefined;
    announce(SAID.loaded(after - before, Boolean(result.hasNextPage)));
  };
  const control = useMemo(() => ({ sort, dir, onSort }), [sort, dir, onSort]);
  // What the live region says: the outcome of the last action in this view, else what is shown.
  const shown = list.data && !list.isFetching ? `${items.length}${list.hasNextPage ? '+' : ''} applications shown.` : '';
  const announcement = said.view === view && said.text ? said.text : shown;
  // The filters set beside the search, the status and the sort (the phone's "Filters" button counts them).
  const setCount =
    (['pageId', 'platform', 'country', 'tag', 'from', 'to'] as const).filter((name) => filters[name]).length +
    (filters.answer?.length ?? 0) +
    (filters.contains?.length ?? 0);

  const applySearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    // The status (tabs), the sort (headers) and the answer filters are chosen outside the form.
    setFilters({
      ...Object.fromEntries(FILTER_NAMES.flatMap((name) => (form.get(name) ? [[name, String(form.get(name))]] : []))),
      status: filters.status,
      sort: filters.sort,
      dir: filters.dir,
      answer: filters.answer,
      contains: filters.contains,
    });
  };
  const setAnswers = (answer: string[], contains: string[]) => setFilters((current) => ({ ...current, answer, contains }));
  const setFilter = (name: (typeof FILTER_NAMES)[number], value: string) => setFilters((current) => ({ ...current, [name]: value || undefined }));

  return (
    <>
      <h1 ref={headingRef} tabIndex={-1}>
        Applications
      </h1>
      <ShortcutsHelp open={helpOpen} onOpenChange={setHelpOpen} keys={LIST_KEYS} />
      <SavedViews query={view} onOpen={(query) => setFilters(filtersFromSearch(query))} />
      <StatusTabs filters={filters as ViewFilters} onChange={(status) => setFilter('status', status)}>
        <button
          type="button"
          className="secondary filters-toggle"
          aria-expanded={filtersShown}
          aria-controls={formId}
          onClick={() => setFiltersShown((shown) => !shown)}
        >
          Filters{setCount > 0 ? ` (${setCount} set)` : ''}
        </button>
        <form id={formId} className="filters" role="search" aria-label="Filter applications" onSubmit={applySearch} data-folded={filtersShown ? undefined : ''}>
          <label className="search">
            Search
            <input
              ref={searchRef}
              key={filters.q ?? ''}
              name="q"
              type="search"
              defaultValue={filters.q ?? ''}
              placeholder="Name, email or handle"
              aria-keyshortcuts={SHORTCUTS.search}
            />
          </label>
          <FilterSelect label="Page" name="pageId" value={filters.pageId} any="Any page" choices={pages} onChange={(value) => setFilter('pageId', value)} />
          <FilterSelect
            label="Platform"
            name="platform"
            value={filters.platform}
            any="Any platform"
            choices={PLATFORM_CHOICES}
            onChange={(value) => setFilter('platform', value)}
          />
          <FilterSelect
            label="Country"
            name="country"
            value={filters.country}
            any="Any country"
            choices={COUNTRY_CHOICES}
            onChange={(value) => setFilter('country', value)}
          />
          <FilterSelect label="Tag" name="tag" value={filters.tag} any="Any tag" choices={useTagChoices()} onChange={(value) => setFilter('tag', value)} />
          <label>
            Received from
            <input name="from" type="date" value={filters.from ?? ''} onChange={(event) => setFilter('from', event.target.value)} />
          </label>
          <label>
            Received to
            <input name="to" type="date" value={filters.to ?? ''} onChange={(event) => setFilter('to', event.target.value)} />
          </label>
          {/* The headers are hidden on a phone: the sort is chosen here instead. */}
          {/* Labelled by its own words only: a wrapping label's text would hold every option's. */}
          <div className="sort-select">
            <label htmlFor={`${formId}-sort`}>Sort by</label>
            <select
              id={`${formId}-sort`}
              value={`${sort}:${dir}`}
              onChange={(event) => {
                const [next, nextDir] = event.target.value.split(':') as [ApplicationSort, SortDirection];
                onSort(next, nextDir);
              }}
            >
              <Options choices={SORT_CHOICES} />
            </select>
          </div>
          {questions.length > 0 ? (
            <AnswerFilters key={JSON.stringify([filters.answer, filters.contains])} questions={questions} filters={filters} onChange={setAnswers} />
          ) : null}
          <div className="filter-actions">
            <button type="submit">Search</button>
            <a className="button secondary" href={`/api/admin/applications.csv${queryString(filters)}`} download>
              Export CSV
            </a>
            <Link className="button secondary" href={`/summary${queryString(filters)}`}>
              Summary of this view
            </Link>
          </div>
        </form>

        <p className="visually-hidden" role="status">
          {announcement}
        </p>

        {canEdit ? (
          <>
            {/* The headers (and their "select all") are hidden on a phone. */}
            <label className="check select-all">
              <input
                type="checkbox"
                checked={items.length > 0 && selectedIds.length === items.length}
                onChange={(event) =>
                  setSelection({ view, rows: event.target.checked ? Object.fromEntries(items.map((item) => [item.id, true as const])) : {} })
                }
              />{' '}
              Select all shown applications
            </label>
            <BulkActions ids={selectedIds} onSaid={(text) => setSaid({ view, text })} onDecided={() => setSelection({ view, rows: {} })} />
          </>
        ) : null}

        {list.isError ? (
          <p role="alert" className="error">
            The applications could not be loaded.{' '}
            <button type="button" onClick={() => void list.refetch()}>
              Try again
            </button>
          </p>
        ) : null}

        <ApplicationsTable
          items={items}
          view={view}
          canEdit={canEdit}
          busy={list.isFetching}
          control={control}
          selection={rowSelection}
          onSelectionChange={(rows) => setSelection({ view, rows })}
          pageTitles={pageTitles}
        />
        {list.isSuccess && items.length === 0 ? <p>No applications match these filters.</p> : null}
        {list.hasNextPage ? (
          // aria-disabled rather than disabled while loading: a disabled button drops the focus to <body>.
          <button
            type="button"
            className="secondary"
            aria-disabled={list.isFetchingNextPage}
            onClick={() => void (list.isFetchingNextPage ? undefined : loadMore())}
          >
            Load more
          </button>
        ) : null}
      </StatusTabs>
    </>
  );
}
