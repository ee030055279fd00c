import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ADMIN_ROLES, type AdminRole } from '../shared/admin';
import { ROLE_DESCRIPTIONS, TEAM_EVENT_KINDS, TEAM_EVENT_LABELS, type Member, type TeamEventKind } from '../shared/team';
import { announce } from './announcer';
import { errorsOf, failureSentence } from './api';
import { copyText } from './clipboard';
import { formatDateTime } from './format';
import { useTeam, useTeamAudit, useTeamChanges } from './features/team/api';
import { StackTableHead } from './stack-table';

/** The parts of the Team view a change is made in, each saying there what it came to. */
type Section = 'invite' | 'members' | 'invitations' | 'sign-in';
/** Runs a change made in `section`: what it returns is said there (and announced), what goes wrong too. */
type Run = (section: Section, work: () => Promise<string | undefined>) => Promise<void>;

/**
 * A member's row: their role chosen, then changed with its own button (a role is never changed by
 * passing through the list with the arrow keys), their second factor and sessions, and removal.
 */
function MemberRow({ member, you, run }: { member: Member; you: boolean; run: Run }) {
  const changes = useTeamChanges();
  // The role chosen and not yet changed; the member's own once the change is read back (or fails).
  const [choice, setChoice] = useState<AdminRole>();
  const role = choice ?? member.role;
  const changed = role !== member.role;
  return (
    <tr role="row">
      <th scope="row" role="rowheader">
        {member.email}
        {you ? ' (you)' : ''}
      </th>
      <td role="cell" data-label="Role">
        <select aria-label={`Role of ${member.email}`} value={role} onChange={(event) => setChoice(event.target.value as AdminRole)}>
          {ADMIN_ROLES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>{' '}
        {changed ? (
          <button
            type="button"
            aria-label={`Make ${member.email} ${role}`}
            onClick={() =>
              void run('members', async () => {
                await changes.changeRole.mutateAsync({ id: member.id, role });
                return `${member.email} is now ${role}.`;
              }).finally(() => setChoice(undefined))
            }
          >
            Change
          </button>
        ) : null}
      </td>
      <td role="cell" data-label="Second factor">
        {member.secondFactor ? 'Yes' : 'No'}
      </td>
      <td role="cell" data-label="Sessions">
        {member.sessions}{' '}
        {member.sessions > 0 ? (
          <button
            type="button"
            className="secondary"
            aria-label={`End the sessions of ${member.email}`}
            onClick={() =>
              void run('members', async () => {
                const { ended } = await changes.endSessions.mutateAsync(member.id);
                return `${ended} session${ended === 1 ? '' : 's'} of ${member.email} ended${you ? ' (this one is kept: sign out to end it)' : ''}.`;
              })
            }
          >
            End all
          </button>
        ) : null}
      </td>
      <td role="cell">
        <button
          type="button"
          className="danger"
          aria-label={`Remove ${member.email}`}
          onClick={() => {
            if (window.confirm(`Remove ${member.email} from the team? Their sessions end at once.`))
              void run('members', async () => {
                await changes.remove.mutateAsync(member.id);
                return `${member.email} is removed.`;
              });
          }}
        >
          Remove
        </button>
      </td>
    </tr>
  );
}

/** The team's audit log, filtered by person and kind. */
function AuditLog() {
  const [person, setPerson] = useState('');
  const [kind, setKind] = useState<TeamEventKind | ''>('');
  const audit = useTeamAudit({ person: person.trim(), kind });
  return (
    <section aria-labelledby="audit-heading">
      <h2 id="audit-heading">Audit log</h2>
      <div className="filters">
        <label>
          Person (e-mail)
          <input type="search" value={person} onChange={(event) => setPerson(event.target.value)} />
        </label>
        <label>
          Kind
          <select value={kind} onChange={(event) => setKind(event.target.value as TeamEventKind | '')}>
            <option value="">Every kind</option>
            {TEAM_EVENT_KINDS.map((value) => (
              <option key={value} value={value}>
                {TEAM_EVENT_LABELS[value]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Audit log table">
        <table className="stack-table" role="table" aria-busy={audit.isFetching}>
          <StackTableHead columns={['When', 'What', 'Who', 'Whom', 'Detail', 'From']} />
          <tbody role="rowgroup">
            {(audit.data?.events ?? []).map((event) => (
              <tr role="row" key={event.id}>
                <td role="cell" data-label="When">
                  {formatDateTime(event.at)}
                </td>
                <td role="cell" data-label="What">
                  {TEAM_EVENT_LABELS[event.kind]}
                </td>
                <td role="cell" data-label="Who">
                  {event.actor}
                </td>
                <td role="cell" data-label="Whom">
                  {event.subject ?? '—'}
                </td>
                <td role="cell" data-label="Detail">
                  {event.detail ?? '—'}
                </td>
                <td role="cell" data-label="From">
                  {event.address}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {audit.data && audit.data.events.length === 0 ? <p>Nothing recorded{person || kind ? ' for these filters' : ''}.</p> : null}
    </section>
  );
}

/**
 * The team (`/admin/team`; docs/inbox.md, "The team"), owners only: the members with their roles
 * (changed at once, from the member's next request), second factor and sessions (removed or ended
 * at once); invitations by e-mail and role, waiting ones resent or revoked; the setting that
 * requires a second factor of everyone; and the team's audit log.
 */
export default function TeamView({ userEmail }: { userEmail: string }) {
  const team = useTeam();
  const changes = useTeamChanges();
  const heading = useRef<HTMLHeadingElement>(null);
  const [outcome, setOutcome] = useState<{ section: Section; text: string; failed?: boolean }>();
  const [link, setLink] = useState<{ email: string; url: string }>();
  const [email, setEmail] = useState('');
  // The server's word on the address, shown under the form and describing the field.
  const [emailProblem, setEmailProblem] = useState<string>();
  const emailField = useRef<HTMLInputElement>(null);
  const [role, setRole] = useState<AdminRole>('editor');
  // The box shows the owner's choice at once (a controlled box would otherwise flick back until the
  // server answers), and the team's setting again once it is read back or the change fails.
  const [requiredChoice, setRequiredChoice] = useState<boolean>();
  const formId = useId();
  useEffect(() => heading.current?.focus(), []);

  const run: Run = async (section, work) => {
    setOutcome(undefined);
    setLink(undefined);
    try {
      const said = await work();
      if (said) {
        setOutcome({ section, text: said });
        announce(said);
      }
    } catch (caught) {
      setOutcome({ section, text: failureSentence(caught), failed: true });
    }
  };
  /** What the last change in `section` came to, shown there (a failure as an alert). */
  const outcomeIn = (section: Section) =>
    outcome?.section !== section ? null : outcome.failed ? (
      <p role="alert" className="error">
        {outcome.text}
      </p>
    ) : (
      <p className="notice">{outcome.text}</p>
    );
  const invite = (event: FormEvent) => {
    event.preventDefault();
    setEmailProblem(undefined);
    void run('invite', async () => {
      let sent;
      try {
        sent = await changes.invite.mutateAsync({ email: email.trim(), role });
      } catch (caught) {
        // The address refused: said under the form, describing the field, which takes the focus.
        const problem = errorsOf(caught).find((entry) => entry.path === 'email');
        if (!problem) throw caught;
        setEmailProblem(problem.message);
        emailField.current?.focus();
        return undefined;
      }
      setLink(sent.link ? { email: sent.invitation.email, url: sent.link } : undefined);
      setEmail('');
      return sent.link ? `Invitation made for ${sent.invitation.email}: send them the link below.` : `Invitation sent to ${sent.invitation.email}.`;
    });
  };

  if (team.isError)
    return (
      <p role="alert" className="error">
        {failureSentence(team.error)}
      </p>
    );
  const data = team.data;
  return (
    <>
      <h1 ref={heading} tabIndex={-1}>
        Team
      </h1>
      <section aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite someone</h2>
        <form onSubmit={invite} className="filters" noValidate>
          <label>
            E-mail address
            <input
              ref={emailField}
              type="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              required
              autoComplete="off"
              aria-invalid={emailProblem ? true : undefined}
              aria-describedby={emailProblem ? `${formId}-email-problem` : undefined}
            />
          </label>
          {/* Labelled from outside (a label around a select would be named by its option too), laid out as the labels around fields are. */}
          <div className="labelled">
            <label htmlFor={`${formId}-role`}>Role</label>
            <select id={`${formId}-role`} value={role} onChange={(event) => setRole(event.target.value as AdminRole)}>
              {ADMIN_ROLES.map((value) => (
                <option key={value} value={value}>
                  {value}: {ROLE_DESCRIPTIONS[value].toLowerCase()}
                </option>
              ))}
            </select>
          </div>
          <button type="submit">Send the invitation</button>
        </form>
        {link ? (
          <p className="notice">
            This server sends no e-mail (no SMTP_URL): send this link to {link.email} yourself. It works once, for 72 hours, and is not shown again (resend the
            invitation for a new one): <code className="link-text">{link.url}</code>{' '}
            <button
              type="button"
              className="secondary"
              onClick={() =>
                void copyText(link.url).then((copied) =>
                  announce(copied ? 'The link is copied.' : 'Copying was refused: select the link and copy it with your keyboard.'),
                )
              }
            >
              Copy the link
            </button>
          </p>
        ) : null}
        {emailProblem ? (
          <p id={`${formId}-email-problem`} role="alert" className="error">
            {emailProblem}
          </p>
        ) : null}
        {outcomeIn('invite')}
      </section>
      {!data ? (
        <p aria-busy="true">Loading the team…</p>
      ) : (
        <>
          <section aria-labelledby="members-heading">
            <h2 id="members-heading">Members</h2>
            <div className="table-scroll" tabIndex={0} role="region" aria-label="Members table">
              <table className="stack-table" role="table">
                <StackTableHead columns={['E-mail', 'Role', 'Second factor', 'Sessions']} actions />
                <tbody role="rowgroup">
                  {data.members.map((member) => (
                    <MemberRow key={member.id} member={member} you={member.email === userEmail} run={run} />
                  ))}
                </tbody>
              </table>
            </div>
            {outcomeIn('members')}
          </section>
          <section aria-labelledby="invitations-heading">
            <h2 id="invitations-heading">Invitations waiting</h2>
            {data.invitations.length === 0 ? (
              <p>None.</p>
            ) : (
              <ul>
                {data.invitations.map((invitation) => (
                  <li key={invitation.id}>
                    {invitation.email} as {invitation.role}, by {invitation.invitedBy}; {`until ${formatDateTime(invitation.expiresAt)}`}{' '}
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Resend the invitation to ${invitation.email}`}
                      onClick={() =>
                        void run('invitations', async () => {
                          const sent = await changes.resend.mutateAsync(invitation.id);
                          setLink(sent.link ? { email: invitation.email, url: sent.link } : undefined);
                          return sent.link
                            ? `Invitation to ${invitation.email} renewed for 72 hours: send them the link above.`
                            : `Invitation to ${invitation.email} sent again, renewed for 72 hours (the earlier link no longer works).`;
                        })
                      }
                    >
                      Resend
                    </button>{' '}
                    <button
                      type="button"
                      className="danger"
                      aria-label={`Revoke the invitation to ${invitation.email}`}
                      onClick={() =>
                        void run('invitations', async () => {
                          await changes.revoke.mutateAsync(invitation.id);
                          return `Invitation to ${invitation.email} revoked: its link no longer works.`;
                        })
                      }
                    >
                      Revoke
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {outcomeIn('invitations')}
          </section>
          <section aria-labelledby="security-heading">
            <h2 id="security-heading">Sign-in</h2>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={requiredChoice ?? data.settings.requireSecondFactor}
                onChange={(event) => {
                  const required = event.target.checked;
                  setRequiredChoice(required);
                  void run('sign-in', async () => {
                    await changes.settings.mutateAsync(required);
                    return required ? 'A second factor is required from the next sign-in.' : 'A second factor is no longer required.';
                  }).finally(() => setRequiredChoice(undefined));
                }}
              />{' '}
              Require a second factor (an authenticator app or a passkey) of every member: those without one set it up at their next sign-in
            </label>
            {outcomeIn('sign-in')}
          </section>
        </>
      )}
      <AuditLog />
    </>
  );
}
