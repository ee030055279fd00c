import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import type { ApplicationStatus, AuditAction } from '../shared/admin';
import { COUNTRY_PATH } from '../shared/blocks/personal-info';
import { announce } from './announcer';
import { ApiError } from './api';
import { ApplicantName } from './applicant-text';
import { ApplicationTags } from './application-tags';
import { ConsentRecords } from './consent-records';
import { CreatorPanel } from './creator-panel';
import { useApplication, useDecide, useErase, useNeighbours } from './features/detail/api';
import { STATUS_LABELS, countryName, formatAnswer, formatDateTime } from './format';
import { SAID } from './labels';
import { NotesThread } from './notes-thread';
import { Options, STATUS_CHOICES } from './options';
import { SHORTCUTS, ShortcutsHelp, TriageNav, applicationHref, carryMessage, takeCarriedMessage, useShortcuts, useView, type UndoableDecision } from './triage';

const AUDIT_ACTIONS: Record<AuditAction, string> = {
  status: 'Status changed',
  note: 'Note changed',
  erased: 'Erased',
  'note-added': 'Note added',
  'note-edited': 'Note edited',
  'note-deleted': 'Note deleted',
  tagged: 'Tagged',
  untagged: 'Tag removed',
  exported: "Exported in the person's data",
  'guardian-consented': 'A parent or guardian consented',
  'consent-withdrawn': 'Consent withdrawn by the creator',
};
const QUICK_DECISIONS: { status: ApplicationStatus; label: string }[] = [
  { status: 'shortlisted', label: 'Shortlist' },
  { status: 'accepted', label: 'Accept' },
  { status: 'declined', label: 'Decline' },
];

/** The shortcuts that work on an application's page: an editor's, a viewer's (no decisions). */
const DETAIL_KEYS_EDITOR = [SHORTCUTS.next, SHORTCUTS.previous, SHORTCUTS.shortlisted, SHORTCUTS.accepted, SHORTCUTS.declined, SHORTCUTS.undo, SHORTCUTS.help];
const DETAIL_KEYS_VIEWER = [SHORTCUTS.next, SHORTCUTS.previous, SHORTCUTS.help];

/**
 * One application: every answer with its question, the creator at a
 * glance (profiles, reach, phone, flag, earlier applications), the status, the team's notes thread
 * and tags, the audit log, and erasure (GDPR) behind a second, explicit confirmation. Read through
 * TanStack Query (`applicationKey`) and read again after each change.
 * Everything the applicant typed is rendered as text, never as HTML, and
 * isolated (`<bdi>`, `dir="auto"`) so that it cannot reorder what follows it.
 * A row whose stored answers cannot be read (`unreadable`) is shown from what
 * the server still knows, with its decisions working as usual.
 * @param userEmail - the signed-in user: the notes they wrote are theirs to edit and delete.
 */
export function ApplicationDetailView({ id, canEdit, userEmail }: { id: string; canEdit: boolean; userEmail: string }) {
  // A decision, a note or a tag made by someone else shows when the page is opened again.
  const query = useApplication(id);
  const decision = useDecide();
  const erasure = useErase(id);
  const detail = query.data;
  const error = query.isError
    ? query.error instanceof ApiError && query.error.status === 404
      ? 'This application does not exist (it may have been erased).'
      : 'The application could not be loaded.'
    : undefined;
  const [saved, setSaved] = useState('');
  // The last quick decision, this application's or the one triage moved on from: offered to be undone.
  const [undo, setUndo] = useState<UndoableDecision>();
  const [confirmingErase, setConfirmingErase] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focused = useRef(false);
  const [, navigate] = useLocation();
  // Triage: the view this page was opened from, its previous and next, the shortcuts.
  const view = useView();
  const neighbours = useNeighbours(id, view).data;
  const [helpOpen, setHelpOpen] = useState(false);
  const listHref = `/${view ? `?${view}` : ''}`;

  // The route renders this view with key={id}: another application starts from a fresh state.
  // The heading takes focus once, when the application (or its error) first shows.
  useEffect(() => {
    if ((detail || error) && !focused.current) {
      focused.current = true;
      headingRef.current?.focus();
    }
  }, [detail, error]);

  const saving = decision.isPending;

  /** Sends a status change (the application, the lists and the tabs' counts are read again) and says how it went. */
  const change = async (patch: { id: string; status: ApplicationStatus }, done: string): Promise<boolean> => {
    setSaved('');
    setUndo(undefined);
    try {
      await decision.mutateAsync(patch);
      setSaved(done);
      announce(done);
      return true;
    } catch (caught) {
      const failed = `Not saved: ${caught instanceof Error ? caught.message : 'try again'}.`;
      setSaved(failed);
      announce(failed);
      return false;
    }
  };

  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    return change({ id, status: String(form.get('status')) as ApplicationStatus }, 'Saved.');
  };

  /**
   * One-click decisions beside the form: the status changes at once, and the next
   * application of the view shows (triage); at the view's end this one stays.
   */
  const decide = async (status: ApplicationStatus) => {
    const name = detail ? `${detail.firstName} ${detail.lastName}`.trim() : '';
    const next = neighbours?.next;
    // Said in the app's one live region, which outlives this page (decision 020).
    const message = SAID.decided(name, STATUS_LABELS[status], next !== undefined);
    const undoable = detail ? { id, name, previous: detail.status } : undefined;
    if (!(await change({ id, status }, message))) return;
    if (!next) {
      setUndo(undoable);
      return;
    }
    carryMessage(message, undoable);
    navigate(applicationHref(next, view));
  };
  // Shown (not said again: the live region has said it) on the page triage moved on to, with its undo.
  useEffect(() => {
    const taken = takeCarriedMessage();
    if (!taken) return undefined;
    const frame = requestAnimationFrame(() => {
      setSaved(taken.message);
      setUndo(taken.undo);
    });
    return () => cancelAnimationFrame(frame);
  }, []);

  /** Sets the last decided application back to the status it had (its decision e-mail, not yet sent, is cancelled by the server). */
  const undoDecision = async () => {
    if (!undo) return announce(SAID.nothingToUndo);
    await change({ id: undo.id, status: undo.previous }, SAID.undone(undo.name, STATUS_LABELS[undo.previous]));
  };

  /** j and k: the next or previous application of the view, or "End of this view" when there is none. */
  const move = (to: string | undefined) => (to ? navigate(applicationHref(to, view)) : announce(SAID.endOfView));
  const decisionKeys = QUICK_DECISIONS.map((decision) => SHORTCUTS[decision.status as keyof typeof SHORTCUTS]);
  useShortcuts({
    [SHORTCUTS.next]: () => neighbours && move(neighbours.next),
    [SHORTCUTS.previous]: () => neighbours && move(neighbours.previous),
    [SHORTCUTS.help]: () => setHelpOpen(true),
    ...(!canEdit ? Object.fromEntries([...decisionKeys, SHORTCUTS.undo].map((key) => [key, () => announce(SAID.viewerCannotDecide)])) : {}),
    ...(canEdit && !saving ? { [SHORTCUTS.undo]: () => void undoDecision() } : {}),
    ...(canEdit && detail && !saving
      ? Object.fromEntries(
          QUICK_DECISIONS.filter((decision) => decision.status !== detail.status).map((decision) => [
            SHORTCUTS[decision.status as keyof typeof SHORTCUTS],
            () => void decide(decision.status),
          ]),
        )
      : {}),
  });

  const erase = async () => {
    try {
      await erasure.mutateAsync();
      navigate(listHref);
    } catch (caught) {
      const failed = `Not erased: ${caught instanceof Error ? caught.message : 'try again'}.`;
      setSaved(failed);
      announce(failed);
    }
  };

  if (error || !detail) {
    return (
      <>
        <h1 ref={headingRef} tabIndex={-1}>
          {error ? 'Application not found' : 'Application'}
        </h1>
        {error ? <p role="alert">{error}</p> : <p aria-busy="true">Loading…</p>}
        <p>
          <Link href={listHref}>Back to the applications</Link>
        </p>
      </>
    );
  }

  return (
    <>
      <div className="detail-top">
        <Link href={listHref}>← Back to the applications</Link>
        <TriageNav neighbours={neighbours} view={view} />
      </div>
      <ShortcutsHelp open={helpOpen} onOpenChange={setHelpOpen} keys={canEdit ? DETAIL_KEYS_EDITOR : DETAIL_KEYS_VIEWER} />
      <h1 ref={headingRef} tabIndex={-1} className="applicant-heading">
        <ApplicantName firstName={detail.firstName} lastName={detail.lastName} />
      </h1>
      <p className="meta">
        <bdi>{detail.emailAddress}</bdi> · {detail.countryCode ? `${countryName(detail.countryCode)} · ` : ''}received{' '}
        <time dateTime={detail.receivedAt}>{formatDateTime(detail.receivedAt)}</time> ·{' '}
        <span className={`badge status-${detail.status}`}>{STATUS_LABELS[detail.status]}</span>
        {detail.erasesAt ? (
          <>
            {' '}
            · kept until <time dateTime={detail.erasesAt}>{formatDateTime(detail.erasesAt)}</time> (the page's retention)
          </>
        ) : null}
      </p>
      {detail.unreadable ? (
        <p className="notice">
          The answers stored for this application could not be read, so it is shown as far as it can be: name, email and country. Its status, notes and tags can
          still be changed.
        </p>
      ) : null}
      {detail.duplicateOf ? (
        <p className="notice">
          Possible duplicate of <Link href={`/applications/${detail.duplicateOf}`}>an earlier application</Link> (same email or handle on this page).
        </p>
      ) : null}

      <CreatorPanel detail={detail} />

      <section aria-labelledby="decision">
        <h2 id="decision">Decision</h2>
        {canEdit ? (
          <div className="quick-decisions" role="group" aria-label="Quick decision">
            {QUICK_DECISIONS.filter((decision) => decision.status !== detail.status).map((decision) => (
              <button
                key={decision.status}
                type="button"
                className="secondary"
                disabled={saving}
                aria-keyshortcuts={SHORTCUTS[decision.status as keyof typeof SHORTCUTS]}
                onClick={() => void decide(decision.status)}
              >
                {decision.label}
              </button>
            ))}
          </div>
        ) : null}
        {canEdit ? (
          <form className="decision" onSubmit={(event) => void save(event)} key={detail.status}>
            <label>
              Status
              <select name="status" defaultValue={detail.status}>
                <Options choices={STATUS_CHOICES} />
              </select>
            </label>
            <button type="submit" disabled={saving}>
              {saving ? 'Saving…' : 'Save'}
            </button>
            {/* Shown to the eye; said by the app's live region (announce), which outlives this page. */}
            <p className="decision-said">
              {saved}
              {undo ? (
                <>
                  {' '}
                  <button type="button" className="secondary" disabled={saving} aria-keyshortcuts={SHORTCUTS.undo} onClick={() => void undoDecision()}>
                    Undo
                  </button>
                </>
              ) : null}
            </p>
          </form>
        ) : (
          <p>{STATUS_LABELS[detail.status]}</p>
        )}
      </section>

      <ApplicationTags applicationId={detail.id} tags={detail.tags} canEdit={canEdit} />
      <NotesThread applicationId={detail.id} notes={detail.notes} userEmail={userEmail} canEdit={canEdit} />

      <section aria-labelledby="answers">
        <h2 id="answers">Answers</h2>
        {detail.unreadable ? <p>Not available: the stored answers could not be read.</p> : null}
        {/* A stored page's application is labelled by the questions of the version it answered. */}
        {detail.pageVersion === undefined ? null : <p className="meta">As asked by version {detail.pageVersion} of the page.</p>}
        <dl className="answers">
          {detail.answers.map((answer) => (
            <div key={answer.key}>
              <dt>{answer.label}</dt>
              {/* Its own direction, from its first letter: an answer in Arabic reads right to left. */}
              <dd dir="auto">
                {answer.key === COUNTRY_PATH
                  ? `${countryName(answer.value)} (${answer.value})`
                  : answer.text !== undefined
                    ? `${answer.text} (${answer.value})`
                    : formatAnswer(answer.key, answer.value)}
              </dd>
            </div>
          ))}
        </dl>
      </section>

      <ConsentRecords records={detail.consents} />

      <section aria-labelledby="audit">
        <h2 id="audit">History</h2>
        {detail.audit.length === 0 ? (
          <p>No changes yet.</p>
        ) : (
          <table className="history">
            <caption className="visually-hidden">Changes to this application</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
              </tr>
            </thead>
            <tbody>
              {detail.audit.map((entry, index) => (
                <tr key={index}>
                  <td>
                    <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                  </td>
                  <td>{entry.actor}</td>
                  <td>
                    {AUDIT_ACTIONS[entry.action]}
                    {entry.from && entry.to
                      ? `: ${STATUS_LABELS[entry.from as ApplicationStatus] ?? entry.from} → ${STATUS_LABELS[entry.to as ApplicationStatus] ?? entry.to}`
                      : ''}
                    {(entry.action === 'tagged' || entry.action === 'untagged' || entry.action === 'consent-withdrawn') && entry.to ? (
                      <>
                        : <bdi>{entry.to}</bdi>
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      {canEdit ? (
        <section aria-labelledby="erase" className="danger-zone">
          <h2 id="erase">Erase</h2>
          <p>Erasing deletes this application, its answers, notes and tags for good (GDPR erasure). The history keeps who erased it and when.</p>
          {confirmingErase ? (
            <div role="group" aria-label="Confirm erasure">
              <p role="alert">
                Erase the application of <ApplicantName firstName={detail.firstName} lastName={detail.lastName} />? This cannot be undone.
              </p>
              <button type="button" className="danger" onClick={() => void erase()}>
                Erase for good
              </button>{' '}
              <button type="button" className="secondary" onClick={() => setConfirmingErase(false)}>
                Cancel
              </button>
            </div>
          ) : (
            <button type="button" className="danger" onClick={() => setConfirmingErase(true)}>
              Erase application
            </button>
          )}
        </section>
      ) : null}
    </>
  );
}
