import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { PAGE_ID_PATTERN, type PageSummary } from '../../shared/pages';
import { announce } from '../announcer';
import { errorsOf, failureText } from '../api';
import { useCreatePage, usePages } from '../features/pages/api';
import { formatDateTime } from '../format';
import { LivePageLink } from './live-page-link';
import type { Problem } from './fields';
import { usePageState } from './page-state';
import './pages.css';

/**
 * The campaign pages (`/admin/pages`): the default page first (from its file, read
 * only), then each stored page with its status, the version served, its applications and host
 * names; editors create a page from the default page or as a copy of another.
 */
export default function PagesListView({ canEdit }: { canEdit: boolean }) {
  const pages = usePages({ poll: true });
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="pages-list">
      <h1 ref={heading} tabIndex={-1}>
        Pages
      </h1>
      <p className="hint">Each campaign's application page: its questions, texts, look and dates. Changes are drafts until published.</p>
      {pages.isPending ? <p aria-busy="true">Loading the pages…</p> : null}
      {pages.isError ? <p role="alert">The pages cannot be loaded: {failureText(pages.error)}.</p> : null}
      {pages.data ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Campaign pages">
          <table className="stack-table" aria-label="Campaign pages">
            <thead>
              <tr>
                <th scope="col">Page</th>
                <th scope="col">Status</th>
                <th scope="col" className="number">
                  Version served
                </th>
                <th scope="col" className="number">
                  Applications
                </th>
                <th scope="col">Host names</th>
              </tr>
            </thead>
            <tbody>
              {pages.data.map((page) => (
                <tr key={page.id}>
                  <td className="wrap" data-label="Page">
                    {page.default ? (
                      <>
                        <span className="page-title">{page.title}</span>
                        <span className="page-id">
                          {' '}
                          {page.id} ·{' '}
                          {page.elsewhere ? "another server's default page, from its file (read only)" : 'the default page, from its file (read only)'}
                        </span>{' '}
                        <LivePageLink page={page} title={page.title} />
                      </>
                    ) : (
                      <>
                        <Link href={`/pages/${encodeURIComponent(page.id)}`} className="page-title">
                          {page.title}
                        </Link>
                        <span className="page-id"> {page.id}</span> <LivePageLink page={page} title={page.title} />
                      </>
                    )}
                  </td>
                  <td data-label="Status">
                    <StateBadge page={page} />
                    {page.opensAt || page.closesAt || page.maxApplications ? <Schedule page={page} /> : null}
                  </td>
                  <td className="number" data-label="Version served">
                    {page.default ? '—' : (page.publishedVersion ?? 'none')}
                  </td>
                  <td className="number" data-label="Applications">
                    {page.applications}
                  </td>
                  <td className="wrap" data-label="Host names">
                    {page.elsewhere ? 'that server’s' : page.default ? 'every other host' : page.hosts.length > 0 ? page.hosts.join(', ') : 'none'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {canEdit && pages.data ? <NewPage pages={pages.data} /> : null}
    </div>
  );
}

/** The page's state now (closed by its cap or dates too), as the editor's header says it. */
function StateBadge({ page }: { page: PageSummary }) {
  const state = usePageState(page);
  return <span className={`badge page-${state.badge}`}>{page.default ? 'Published: open' : state.text}</span>;
}

function Schedule({ page }: { page: PageSummary }) {
  const parts = [
    page.opensAt ? `opens ${formatDateTime(page.opensAt)}` : '',
    page.closesAt ? `closes ${formatDateTime(page.closesAt)}` : '',
    page.maxApplications ? `at most ${page.maxApplications} applications` : '',
  ].filter(Boolean);
  return <span className="schedule-note">{parts.join(' · ')}</span>;
}

/**
 * "New page": an id (the page's `pageId`: letters, digits, - and _) and what it starts from: the
 * default page, or a copy of another page's draft. The new draft's own `pageId` is set to the id
 * (a copy keeps its source's, which publishing would refuse), then the editor opens.
 */
function NewPage({ pages }: { pages: PageSummary[] }) {
  const [, navigate] = useLocation();
  const [problems, setProblems] = useState<Problem[]>([]);
  const [said, setSaid] = useState('');
  const id = useId();
  const create = useCreatePage({
    onSuccess: (created) => {
      announce(`Page ${created.id} created.`);
      navigate(`/pages/${encodeURIComponent(created.id)}`);
    },
    onError: (error) => {
      setProblems(errorsOf(error));
      setSaid(`The page was not created: ${failureText(error)}`);
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const pageId = String(form.get('id') ?? '').trim();
    const from = String(form.get('from') ?? 'default');
    if (!PAGE_ID_PATTERN.test(pageId)) {
      setProblems([{ path: 'id', message: 'Use 1 to 64 letters, digits, - or _ (no spaces).' }]);
      setSaid('');
      return;
    }
    setProblems([]);
    create.mutate({ pageId, from });
  };
  const at = (path: string) => problems.filter((problem) => problem.path === path);
  const idProblems = at('id');
  const fromProblems = at('from');
  return (
    <section className="new-page" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>New page</h2>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-id`}>Page id</label>
          <input
            id={`${id}-id`}
            name="id"
            required
            maxLength={64}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={idProblems.length > 0 || undefined}
            aria-describedby={idProblems.length > 0 ? `${id}-id-problem ${id}-id-hint` : `${id}-id-hint`}
          />
          <p id={`${id}-id-hint`} className="hint">
            Letters, digits, - and _, e.g. spring-2027. It is in the page's address (/?page=…) and cannot be changed.
          </p>
          {idProblems.length > 0 ? (
            <p id={`${id}-id-problem`} className="field-problem">
              {idProblems.map((problem) => problem.message).join(' · ')}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor={`${id}-from`}>Start from</label>
          <select
            id={`${id}-from`}
            name="from"
            defaultValue="default"
            aria-invalid={fromProblems.length > 0 || undefined}
            aria-describedby={fromProblems.length > 0 ? `${id}-from-problem` : undefined}
          >
            {pages.map((page) =>
              page.default && !page.elsewhere ? (
                <option key={page.id} value="default">
                  The default page ({page.title})
                </option>
              ) : (
                <option key={page.id} value={page.id}>
                  A copy of {page.title} ({page.id})
                </option>
              ),
            )}
          </select>
          {fromProblems.length > 0 ? (
            <p id={`${id}-from-problem`} className="field-problem">
              {fromProblems.map((problem) => problem.message).join(' · ')}
            </p>
          ) : null}
        </div>
        <button type="submit" disabled={create.isPending}>
          Create page
        </button>
      </form>
      <p className="said" role="status">
        {said}
      </p>
    </section>
  );
}
