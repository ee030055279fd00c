import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { APPLICATION_SORTS, SORT_DIRECTIONS, splitAnswerTerm, type ApplicationList, type ApplicationListItem, type ApplicationSort, type ApplicationStatus, type FilterQuestion, type SortDirection } from '../shared/admin';
import { getCountries } from '../shared/data/countries';
import { PLATFORM_NAMES, platformKeys } from '../shared/platforms';
import { api, queryString } from './api';
import { ApplicantName, isolatedName } from './applicant-text';
import { STATUS_LABELS, countryName, formatCount, formatDateTime, platformLabel } from './format';
import { FilterSelect, Options, STATUS_CHOICES, usePageChoices, usePages, useTagChoices, type Choice } from './options';
import { StatusTabs, invalidateCounts, type ViewFilters } from './status-tabs';
import { SHORTCUTS, ShortcutsHelp, applicationHref, useShortcuts } from './triage';
import { SavedViews } from './saved-views';
import { useQueryClient } from '@tanstack/react-query';

/** The list's filters and sort, as in the query string of the page and of the API (DESIGN §8, issue 16). */
const FILTER_NAMES = ['q', 'status', 'pageId', 'platform', 'country', 'from', 'to', 'tag', 'sort', 'dir'] as const;
/** The answer filters: each parameter repeated, `key:value`. */
const ANSWER_FILTERS = ['answer', 'contains'] as const;
type Filters = Partial<Record<(typeof FILTER_NAMES)[number], string>> & Partial<Record<(typeof ANSWER_FILTERS)[number], string[]>>;

/** The sortable columns: each sort's header and the direction its first press chooses. */
const SORT_HEADERS: Record<ApplicationSort, { label: string; first: SortDirection }> = {
  received: { label: 'Received', first: 'desc' },
  name: { label: 'Name', first: 'asc' },
  country: { label: 'Country', first: 'asc' },
  followers: { label: 'Total followers', first: 'desc' },
  topPlatform: { label: 'Largest platform', first: 'desc' },
};

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
 * A sortable column's header (WAI-ARIA: `aria-sort` on the sorted one): a button that sorts by the
 * column, and a second press turns the direction.
 */
function SortHeader({ sort, filters, onSort }: { sort: ApplicationSort; filters: Filters; onSort: (sort: ApplicationSort, dir: SortDirection) => void }) {
  const current = sortOf(filters);
  const active = current.sort === sort;
  const next: SortDirection = active ? (current.dir === 'asc' ? 'desc' : 'asc') : SORT_HEADERS[sort].first;
  return (
    <th scope="col" aria-sort={active ? (current.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className="sort-button" onClick={() => onSort(sort, next)}>
        {SORT_HEADERS[sort].label}
        <span aria-hidden="true" className="sort-mark">
          {active ? (current.dir === 'asc' ? ' ▲' : ' ▼') : ''}
        </span>
      </button>
    </th>
  );
}

/**
 * The answer filters of a page's questions (issue 16): a choice question's options as checkboxes
 * (any of them), a text question's "contains" box; every question set must hold.
 */
function AnswerFilters({ questions, filters, onChange }: { questions: readonly FilterQuestion[]; filters: Filters; onChange: (answer: string[], contains: string[]) => void }) {
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

/**
 * The applications, newest first (issue 7 Review): search, filters kept in
 * the address (reload and share keep them), "Load more" pagination, a
 * selection with a bulk status change, and the CSV export of the current filter.
 */
export function ApplicationsView({ canEdit }: { canEdit: boolean }) {
  const [filters, setFilters] = useState<Filters>(() => filtersFromSearch(window.location.search));
  const [items, setItems] = useState<ApplicationListItem[]>([]);
  const [nextCursor, setNextCursor] = useState<string>();
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulkStatus, setBulkStatus] = useState<ApplicationStatus>('shortlisted');
  const [announcement, setAnnouncement] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  useShortcuts({ [SHORTCUTS.search]: () => searchRef.current?.focus(), [SHORTCUTS.help]: () => setHelpOpen(true) });
  const queryClient = useQueryClient();
  const formId = useId();
  const captionId = useId();

  useEffect(() => headingRef.current?.focus(), []);
  const pages = usePageChoices().choices;
  const pageList = usePages().data;
  // The questions of the page chosen, or of the first page (a server serves one page by default).
  const questions = (pageList?.find((page) => page.pageId === filters.pageId) ?? pageList?.[0])?.questions ?? [];

  // A filter change loads the first page; an answer for older filters is dropped. Callers set 'loading'.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const query = viewQuery(filters);
    window.history.replaceState(null, '', `/admin${query ? `?${query}` : ''}`);
    let current = true;
    api<ApplicationList>(`/applications${queryString(filters)}`).then(
      (list) => {
        if (!current) return;
        setItems(list.items);
        setNextCursor(list.nextCursor);
        setState('ready');
        setAnnouncement(`${list.items.length}${list.nextCursor ? '+' : ''} applications shown.`);
      },
      () => current && setState('error'),
    );
    return () => {
      current = false;
    };
  }, [filters, attempt]);

  const loadMore = async (cursor: string) => {
    setState('loading');
    try {
      const list = await api<ApplicationList>(`/applications${queryString({ ...filters, cursor })}`);
      setItems((previous) => [...previous, ...list.items]);
      setNextCursor(list.nextCursor);
      setState('ready');
    } catch {
      setState('error');
    }
  };

  const applySearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setSelected(new Set());
    setState('loading');
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
  const setSort = (sort: ApplicationSort, dir: SortDirection) => {
    setSelected(new Set());
    setState('loading');
    setFilters((current) => ({ ...current, sort, dir }));
  };
  const setAnswers = (answer: string[], contains: string[]) => {
    setSelected(new Set());
    setState('loading');
    setFilters((current) => ({ ...current, answer, contains }));
  };
  const setFilter = (name: (typeof FILTER_NAMES)[number], value: string) => {
    setSelected(new Set());
    setState('loading');
    setFilters((current) => ({ ...current, [name]: value || undefined }));
  };

  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const allSelected = items.length > 0 && items.every((item) => selected.has(item.id));

  const applyBulk = async () => {
    const ids = [...selected];
    try {
      const { updated } = await api<{ updated: number }>('/applications', { method: 'PATCH', body: { ids, status: bulkStatus } });
      setItems((current) => current.map((item) => (selected.has(item.id) ? { ...item, status: bulkStatus } : item)));
      setSelected(new Set());
      void invalidateCounts(queryClient);
      setAnnouncement(`${updated} ${updated === 1 ? 'application' : 'applications'} set to ${STATUS_LABELS[bulkStatus]}.`);
    } catch (error) {
      setAnnouncement(`The status could not be changed: ${error instanceof Error ? error.message : 'try again'}.`);
    }
  };

  return (
    <>
      <h1 ref={headingRef} tabIndex={-1}>
        Applications
      </h1>
      <ShortcutsHelp open={helpOpen} onOpenChange={setHelpOpen} />
      <SavedViews
        query={viewQuery(filters)}
        onOpen={(query) => {
          setSelected(new Set());
          setState('loading');
          setFilters(filtersFromSearch(query));
        }}
      />
      <StatusTabs filters={filters as ViewFilters} onChange={(status) => setFilter('status', status)}>
        <form id={formId} className="filters" role="search" aria-label="Filter applications" onSubmit={applySearch}>
          <label className="search">
            Search
            <input ref={searchRef} name="q" type="search" defaultValue={filters.q ?? ''} placeholder="Name, email or handle" aria-keyshortcuts={SHORTCUTS.search} />
          </label>
          <FilterSelect label="Page" name="pageId" value={filters.pageId} any="Any page" choices={pages} onChange={(value) => setFilter('pageId', value)} />
          <FilterSelect label="Platform" name="platform" value={filters.platform} any="Any platform" choices={PLATFORM_CHOICES} onChange={(value) => setFilter('platform', value)} />
          <FilterSelect label="Country" name="country" value={filters.country} any="Any country" choices={COUNTRY_CHOICES} onChange={(value) => setFilter('country', value)} />
          <FilterSelect label="Tag" name="tag" value={filters.tag} any="Any tag" choices={useTagChoices()} onChange={(value) => setFilter('tag', value)} />
          <label>
            Received from
            <input name="from" type="date" value={filters.from ?? ''} onChange={(event) => setFilter('from', event.target.value)} />
          </label>
          <label>
            Received to
            <input name="to" type="date" value={filters.to ?? ''} onChange={(event) => setFilter('to', event.target.value)} />
          </label>
          {questions.length > 0 ? <AnswerFilters key={JSON.stringify([filters.answer, filters.contains])} questions={questions} filters={filters} onChange={setAnswers} /> : null}
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
          <div className="bulk" role="group" aria-label="Selected applications">
            <span>{selected.size} selected</span>
            <label>
              New status
              <select value={bulkStatus} onChange={(event) => setBulkStatus(event.target.value as ApplicationStatus)}>
                <Options choices={STATUS_CHOICES} />
              </select>
            </label>
            <button type="button" disabled={selected.size === 0} onClick={() => void applyBulk()}>
              Set status of selected
            </button>
          </div>
        ) : null}

        {state === 'error' ? (
          <p role="alert" className="error">
            The applications could not be loaded. <button
              type="button"
              onClick={() => {
                setState('loading');
                setAttempt((count) => count + 1);
              }}
            >
              Try again
            </button>
          </p>
        ) : null}

        {/* Scrolls sideways on a narrow screen; focusable so that the keyboard can scroll it too. */}
        <div className="table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
          <table aria-busy={state === 'loading'}>
            <caption id={captionId} className="visually-hidden">
              Applications, sorted by {SORT_HEADERS[sortOf(filters).sort].label.toLowerCase()}, {sortOf(filters).dir === 'asc' ? 'ascending' : 'descending'}
            </caption>
            <thead>
              <tr>
                {canEdit ? (
                  <th scope="col">
                    <input
                      type="checkbox"
                      aria-label="Select all shown applications"
                      checked={allSelected}
                      onChange={(event) => setSelected(event.target.checked ? new Set(items.map((item) => item.id)) : new Set())}
                    />
                  </th>
                ) : null}
                <SortHeader sort="name" filters={filters} onSort={setSort} />
                <th scope="col">Email</th>
                <SortHeader sort="country" filters={filters} onSort={setSort} />
                <th scope="col">Platforms</th>
                <SortHeader sort="followers" filters={filters} onSort={setSort} />
                <SortHeader sort="topPlatform" filters={filters} onSort={setSort} />
                <SortHeader sort="received" filters={filters} onSort={setSort} />
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => {
                const name = `${item.firstName} ${item.lastName}`;
                return (
                  <tr key={item.id}>
                    {canEdit ? (
                      <td>
                        <input type="checkbox" aria-label={`Select ${name}`} checked={selected.has(item.id)} onChange={(event) => toggle(item.id, event.target.checked)} />
                      </td>
                    ) : null}
                    <td>
                      {/* Cut after a few lines; the whole name is in the title and the detail. */}
                      <Link href={applicationHref(item.id, viewQuery(filters))} className="applicant-name" title={isolatedName(item)}>
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
                    </td>
                    <td>
                      <bdi className="applicant-text">{item.emailAddress}</bdi>
                    </td>
                    <td>{countryName(item.countryCode)}</td>
                    <td>
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
                    </td>
                    <td className="number">{formatCount(String(item.totalFollowers))}</td>
                    <td>{item.topPlatform ? `${platformLabel(item.topPlatform.platform)} (${formatCount(String(item.topPlatform.followers))})` : ''}</td>
                    <td>
                      <time dateTime={item.receivedAt}>{formatDateTime(item.receivedAt)}</time>
                    </td>
                    <td>
                      <span className={`badge status-${item.status}`}>{STATUS_LABELS[item.status]}</span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {state === 'ready' && items.length === 0 ? <p>No applications match these filters.</p> : null}
        {nextCursor ? (
          <button type="button" className="secondary" disabled={state === 'loading'} onClick={() => void loadMore(nextCursor)}>
            Load more
          </button>
        ) : null}
      </StatusTabs>
    </>
  );
}
