import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import type { ApplicationList, ApplicationListItem, ApplicationStatus } from '../shared/admin';
import { getCountries } from '../shared/data/countries';
import { PLATFORM_NAMES, platformKeys } from '../shared/platforms';
import { api, queryString } from './api';
import { ApplicantName, isolatedName } from './applicant-text';
import { STATUS_LABELS, countryName, formatCount, formatDateTime, platformLabel } from './format';
import { FilterSelect, Options, STATUS_CHOICES, usePageChoices, type Choice } from './options';
import { StatusTabs, invalidateCounts } from './status-tabs';
import { useQueryClient } from '@tanstack/react-query';

/** The list's filters, as in the query string of the page and of the API (DESIGN §8). */
const FILTER_NAMES = ['q', 'status', 'pageId', 'platform', 'country', 'from', 'to'] as const;
type Filters = Partial<Record<(typeof FILTER_NAMES)[number], string>>;

const PLATFORM_CHOICES: Choice[] = PLATFORM_NAMES.map((platform) => ({ value: platform, label: platformLabel(platform) }));
const COUNTRY_CHOICES: Choice[] = getCountries('en').map((country) => ({ value: country.isoAlpha2, label: country.name }));

function filtersFromLocation(): Filters {
  const params = new URLSearchParams(window.location.search);
  return Object.fromEntries(FILTER_NAMES.flatMap((name) => (params.get(name) ? [[name, params.get(name)!]] : [])));
}

/**
 * The applications, newest first (issue 7 Review): search, filters kept in
 * the address (reload and share keep them), "Load more" pagination, a
 * selection with a bulk status change, and the CSV export of the current filter.
 */
export function ApplicationsView({ canEdit }: { canEdit: boolean }) {
  const [filters, setFilters] = useState<Filters>(filtersFromLocation);
  const [items, setItems] = useState<ApplicationListItem[]>([]);
  const [nextCursor, setNextCursor] = useState<string>();
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulkStatus, setBulkStatus] = useState<ApplicationStatus>('shortlisted');
  const [announcement, setAnnouncement] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const queryClient = useQueryClient();
  const formId = useId();
  const captionId = useId();

  useEffect(() => headingRef.current?.focus(), []);
  const pages = usePageChoices().choices;

  // A filter change loads the first page; an answer for older filters is dropped. Callers set 'loading'.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    window.history.replaceState(null, '', `/admin${queryString(filters)}`);
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
    // The status is chosen by the tabs, outside the form.
    setFilters({ ...Object.fromEntries(FILTER_NAMES.flatMap((name) => (form.get(name) ? [[name, String(form.get(name))]] : []))), status: filters.status });
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
      <StatusTabs filters={filters} onChange={(status) => setFilter('status', status)}>
        <form id={formId} className="filters" role="search" aria-label="Filter applications" onSubmit={applySearch}>
          <label className="search">
            Search
            <input name="q" type="search" defaultValue={filters.q ?? ''} placeholder="Name, email or handle" />
          </label>
          <FilterSelect label="Page" name="pageId" value={filters.pageId} any="Any page" choices={pages} onChange={(value) => setFilter('pageId', value)} />
          <FilterSelect label="Platform" name="platform" value={filters.platform} any="Any platform" choices={PLATFORM_CHOICES} onChange={(value) => setFilter('platform', value)} />
          <FilterSelect label="Country" name="country" value={filters.country} any="Any country" choices={COUNTRY_CHOICES} onChange={(value) => setFilter('country', value)} />
          <label>
            Received from
            <input name="from" type="date" value={filters.from ?? ''} onChange={(event) => setFilter('from', event.target.value)} />
          </label>
          <label>
            Received to
            <input name="to" type="date" value={filters.to ?? ''} onChange={(event) => setFilter('to', event.target.value)} />
          </label>
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
              Applications, newest first
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
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Country</th>
                <th scope="col">Platforms</th>
                <th scope="col">Received</th>
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
                      <Link href={`/applications/${item.id}`} className="applicant-name" title={isolatedName(item)}>
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
