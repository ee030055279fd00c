import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { MAX_PAGE_APPLICATIONS, MAX_PAGE_HOSTS, type PageDetail, type UpdatePage } from '../../shared/pages';
import { announce } from '../announcer';
import { errorsOf, failureText } from '../api';
import { erasesOf, useRepublish, useUpdatePage } from '../features/pages/api';
import { formatDateTime } from '../format';
import type { Problem } from './fields';
import { useFreshSummary, usePageState } from './page-state';

/** The page's status as the team reads it. */
export const STATUS_NAMES = { draft: 'Draft (never published)', published: 'Published', closed: 'Closed' } as const;

/** An ISO-8601 instant as a `datetime-local` value in the reader's time zone (`2026-12-01T10:00`); '' for none. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value (the reader's time zone) as an ISO-8601 instant with its offset (UTC, `Z`); null for none. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/**
 * The "Publishing" tab: the status (close the page, open it again), when it opens and
 * closes and after how many applications, the host names it is served at, and its published
 * versions with "Publish again" (rollback). Each is a `PATCH /pages/{id}` (or the version's
 * publish); the server's refusals are shown at their fields. Viewers see it all, read only.
 */
/** The tab's sections, each with its own line for what its last action answered. */
type Section = 'status' | 'schedule' | 'hosts' | 'versions';

export function Publishing({ page, canEdit }: { page: PageDetail; canEdit: boolean }) {
  const [problems, setProblems] = useState<Problem[]>([]);
  // What the last action answered, said beside its button (a newcomer's review: at the top of the tab it was out of sight).
  const [said, setSaidAt] = useState<{ text: string; at: Section }>({ text: '', at: 'status' });
  const saidAt = (at: Section) => (
    <p className="said" role="status">
      {said.at === at ? said.text : ''}
    </p>
  );
  const update = useUpdatePage<{ change: UpdatePage; what: string; at: Section }>(page.id, {
    onSuccess: (_, { what, at }) => {
      setProblems([]);
      setSaidAt({ text: `${what} saved.`, at });
      announce(`${what} saved.`);
    },
    onError: (error, { what, at }) => {
      setProblems(errorsOf(error));
      setSaidAt({ text: `${what} not saved: ${failureText(error)}`, at });
    },
  });
  const republish = useRepublish(page.id, {
    onSuccess: ({ version }) => {
      setSaidAt({ text: `Version ${version} is served again.`, at: 'versions' });
      announce(`Version ${version} is served again.`);
    },
    onError: (error, { version }) => {
      // A shorter retention: said, and served again only on a yes (what it erases cannot come back).
      if (erasesOf(error) !== undefined && window.confirm(`${failureText(error)}\n\nErase them and serve version ${version} again?`))
        return republish.mutate({ version, eraseExpired: true });
      setSaidAt({ text: `Not published again: ${failureText(error)}`, at: 'versions' });
    },
  });
  const at = (path: string) => problems.filter((problem) => problem.path === path);
  const state = usePageState(useFreshSummary(page));

  return (
    <div className="publishing">
      <h2>Publishing</h2>
      <section aria-labelledby="status-heading">
        <h3 id="status-heading">Status</h3>
        <p>
          <span className={`badge page-${state.badge}`}>{state.text}</span>{' '}
          {page.publishedVersion
            ? `Version ${page.publishedVersion} is ${state.open ? 'served' : 'published'}.`
            : 'Nothing is served yet: publish the page first.'}{' '}
          {page.applications} application{page.applications === 1 ? '' : 's'}.
        </p>
        {canEdit && page.status === 'published' ? (
          <button
            type="button"
            className="secondary"
            disabled={update.isPending}
            onClick={() => update.mutate({ change: { status: 'closed' }, what: 'The status', at: 'status' })}
          >
            Close the page
          </button>
        ) : null}
        {canEdit && page.status === 'closed' ? (
          <button
            type="button"
            className="secondary"
            disabled={update.isPending || !page.publishedVersion}
            onClick={() => update.mutate({ change: { status: 'published' }, what: 'The status', at: 'status' })}
          >
            Open the page again
          </button>
        ) : null}
        <FieldProblems problems={at('status')} id="status-problem" />
        {saidAt('status')}
      </section>

      <Schedule
        page={page}
        canEdit={canEdit}
        problems={problems}
        busy={update.isPending}
        onSave={(change) => update.mutate({ change, what: 'The schedule', at: 'schedule' })}
        said={saidAt('schedule')}
      />
      <Hosts
        page={page}
        canEdit={canEdit}
        problems={problems}
        busy={update.isPending}
        onSave={(hosts) => update.mutate({ change: { hosts }, what: 'The host names', at: 'hosts' })}
        said={saidAt('hosts')}
      />

      <section aria-labelledby="versions-heading">
        <h3 id="versions-heading">Versions</h3>
        {page.versions.length === 0 ? (
          <p>No version yet.</p>
        ) : (
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="versions-heading">
            <table className="versions stack-table">
              <thead>
                <tr>
                  <th scope="col">Version</th>
                  <th scope="col">Published</th>
                  <th scope="col">By</th>
                  <th scope="col">Action</th>
                </tr>
              </thead>
              <tbody>
                {[...page.versions].reverse().map((version) => (
                  <tr key={version.version}>
                    <td data-label="Version" className="nowrap">
                      Version {version.version}
                    </td>
                    <td data-label="Published">{formatDateTime(version.publishedAt)}</td>
                    <td className="by" data-label="By">
                      {version.publishedBy}
                    </td>
                    <td>
                      {version.version === page.publishedVersion ? (
                        <span className="badge">Served</span>
                      ) : canEdit ? (
                        <button
                          type="button"
                          className="secondary small"
                          disabled={republish.isPending}
                          onClick={() => republish.mutate({ version: version.version })}
                        >
                          Publish version {version.version} again
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {saidAt('versions')}
      </section>
    </div>
  );
}

function FieldProblems({ problems, id }: { problems: Problem[]; id: string }) {
  return problems.length > 0 ? (
    <p id={id} className="field-problem">
      {problems.map((problem) => problem.message).join(' · ')}
    </p>
  ) : null;
}

/** What a part of the publishing tab is given: the page, whether the reader may change it, the problems at its fields, whether a save runs, how to save its change, and what was said of the last one. */
interface PartProps<Change> {
  page: PageDetail;
  canEdit: boolean;
  problems: Problem[];
  busy: boolean;
  onSave: (change: Change) => void;
  said: ReactNode;
}

/** When the page opens and closes (the reader's time zone, sent as UTC) and after how many applications it closes. */
function Schedule({ page, canEdit, problems, busy, onSave, said }: PartProps<UpdatePage>) {
  const id = useId();
  const [opensAt, setOpensAt] = useState(toLocalInput(page.opensAt));
  const [closesAt, setClosesAt] = useState(toLocalInput(page.closesAt));
  const [cap, setCap] = useState(page.maxApplications === null ? '' : String(page.maxApplications));
  const at = (path: string) => problems.filter((problem) => problem.path === path);
  const input = (name: 'opensAt' | 'closesAt' | 'maxApplications') => ({
    id: `${id}-${name}`,
    disabled: !canEdit,
    'aria-invalid': at(name).length > 0 || undefined,
    'aria-describedby': at(name).length > 0 ? `${id}-${name}-problem` : `${id}-zone`,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave({ opensAt: fromLocalInput(opensAt), closesAt: fromLocalInput(closesAt), maxApplications: cap === '' ? null : Number(cap) });
  };
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Opening, closing and cap</h3>
      <p id={`${id}-zone`} className="hint">
        Times in your time zone ({Intl.DateTimeFormat().resolvedOptions().timeZone}). Empty: no limit. Outside them, and once the cap is reached, the page shows
        its closed message.
      </p>
      <form className="schedule" onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${id}-opensAt`}>Opens at</label>
          <input type="datetime-local" value={opensAt} onChange={(event) => setOpensAt(event.target.value)} {...input('opensAt')} />
          <FieldProblems problems={at('opensAt')} id={`${id}-opensAt-problem`} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-closesAt`}>Closes at</label>
          <input type="datetime-local" value={closesAt} onChange={(event) => setClosesAt(event.target.value)} {...input('closesAt')} />
          <FieldProblems problems={at('closesAt')} id={`${id}-closesAt-problem`} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-maxApplications`}>Closes after this many applications</label>
          <input
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_PAGE_APPLICATIONS}
            value={cap}
            onChange={(event) => setCap(event.target.value)}
            {...input('maxApplications')}
          />
          <FieldProblems problems={at('maxApplications')} id={`${id}-maxApplications-problem`} />
        </div>
        {canEdit ? (
          <button type="submit" className="secondary" disabled={busy}>
            Save opening, closing and cap
          </button>
        ) : null}
      </form>
      {said}
    </section>
  );
}

/** The host names the page is served at (a brand's own domain), one a field. */
function Hosts({ page, canEdit, problems, busy, onSave, said }: PartProps<string[]>) {
  const id = useId();
  const [hosts, setHosts] = useState<string[]>(page.hosts);
  const at = (path: string) => problems.filter((problem) => problem.path === path);
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Host names</h3>
      <p className="hint" id={`${id}-hint`}>
        The page is served at the root of these host names (your domain pointed at this server), and always at /?page={page.id}. Lower case, without https:// or
        a port.
      </p>
      <FieldProblems problems={at('hosts')} id={`${id}-problem`} />
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSave(hosts.map((host) => host.trim().toLowerCase()).filter(Boolean));
        }}
      >
        <ol className="item-list hosts">
          {hosts.map((host, index) => {
            const problem = at(`hosts.${index}`);
            return (
              <li key={index} className="item host-row">
                <div className="field">
                  <label htmlFor={`${id}-${index}`}>Host name {index + 1}</label>
                  <input
                    id={`${id}-${index}`}
                    value={host}
                    disabled={!canEdit}
                    placeholder="apply.brand.example"
                    aria-invalid={problem.length > 0 || undefined}
                    aria-describedby={problem.length > 0 ? `${id}-${index}-problem` : `${id}-hint`}
                    onChange={(event) => setHosts(hosts.map((other, i) => (i === index ? event.target.value : other)))}
                  />
                  <FieldProblems problems={problem} id={`${id}-${index}-problem`} />
                </div>
                {canEdit ? (
                  <button
                    type="button"
                    className="secondary small"
                    aria-label={`Remove host name ${index + 1}${host ? `, ${host}` : ''}`}
                    onClick={() => setHosts(hosts.filter((_, i) => i !== index))}
                  >
                    Remove
                  </button>
                ) : null}
              </li>
            );
          })}
        </ol>
        {hosts.length === 0 ? <p>No host name: the page is served at /?page={page.id} only.</p> : null}
        {canEdit ? (
          <div className="add-row">
            <button
              type="button"
              className="secondary"
              disabled={hosts.length >= MAX_PAGE_HOSTS}
              onClick={() => {
                setHosts([...hosts, '']);
                // Focus on the new field, where the typing goes.
                const added = `${id}-${hosts.length}`;
                requestAnimationFrame(() => document.getElementById(added)?.focus());
              }}
            >
              Add a host name
            </button>
            <button type="submit" className="secondary" disabled={busy}>
              Save host names
            </button>
          </div>
        ) : null}
      </form>
      {said}
    </section>
  );
}
