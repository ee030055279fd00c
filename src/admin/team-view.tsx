import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ADMIN_ROLES, type AdminRole } from '../shared/admin';
import { ROLE_DESCRIPTIONS, TEAM_EVENT_KINDS, TEAM_EVENT_LABELS, type Member, type TeamEventKind } from '../shared/team';
import { announce } from './announcer';
import { failureSentence } from './api';
import { formatDateTime } from './format';
import { useTeam, useTeamAudit, useTeamChanges } from './features/team/api';

/**
 * A member's row: their role chosen, then changed with its own button (a role is never changed by
 * passing through the list with the arrow keys), their second factor and sessions, and removal.
 */
function MemberRow({ member, you, run }: { member: Member; you: boolean; run: (work: () => Promise<void>) => Promise<void> }) {
  const changes = useTeamChanges();
  const [role, setRole] = useState<AdminRole>(member.role);
  const changed = role !== member.role;
  return (
    <tr>
      <td>
        {member.email}
        {you ? ' (you)' : ''}
      </td>
      <td>
        <select aria-label={`Role of ${member.email}`} value={role} onChange={(event) => setRole(event.target.value as AdminRole)}>
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
              void run(async () => {
                await changes.changeRole.mutateAsync({ id: member.id, role });
                announce(`${member.email} is now ${role}.`);
              }).finally(() => setRole(member.role))
            }
          >
            Change
          </button>
        ) : null}
      </td>
      <td>{member.secondFactor ? 'Yes' : 'No'}</td>
      <td>
        {member.sessions}{' '}
        {member.sessions > 0 ? (
          <button
            type="button"
            className="secondary"
            aria-label={`End the sessions of ${member.email}`}
            onClick={() =>
              void run(async () => {
                const { ended } = await changes.endSessions.mutateAsync(member.id);
                announce(`${ended} session${ended === 1 ? '' : 's'} ended.`);
              })
            }
          >
            End all
          </button>
        ) : null}
      </td>
      <td>
        <button
          type="button"
          className="danger"
          aria-label={`Remove ${member.email}`}
          onClick={() => {
            if (window.confirm(`Remove ${member.email} from the team? Their sessions end at once.`))
              void run(async () => {
                await changes.remove.mutateAsync(member.id);
                announce(`${member.email} is removed.`);
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
      <div className="table-scroll team-table" tabIndex={0} role="region" aria-label="Audit log table">
        <table aria-busy={audit.isFetching}>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">What</th>
              <th scope="col">Who</th>
              <th scope="col">Whom</th>
              <th scope="col">Detail</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {(audit.data?.events ?? []).map((event) => (
              <tr key={event.id}>
                <td>{formatDateTime(event.at)}</td>
                <td>{TEAM_EVENT_LABELS[event.kind]}</td>
                <td>{event.actor}</td>
                <td>{event.subject ?? ''}</td>
                <td>{event.detail ?? ''}</td>
                <td>{event.address}</td>
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
  const [error, setError] = useState<string>();
  const [link, setLink] = useState<{ email: string; url: string }>();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AdminRole>('editor');
  // The box shows the owner's choice at once (a controlled box would otherwise flick back until the
  // server answers), and the team's setting again once it is read back or the change fails.
  const [requiredChoice, setRequiredChoice] = useState<boolean>();
  const formId = useId();
  useEffect(() => heading.current?.focus(), []);

  const run = async (work: () => Promise<void>) => {
    setError(undefined);
    setLink(undefined);
    try {
      await work();
    } catch (caught) {
      setError(failureSentence(caught));
    }
  };
  const invite = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const sent = await changes.invite.mutateAsync({ email: email.trim(), role });
      setLink(sent.link ? { email: sent.invitation.email, url: sent.link } : undefined);
      setEmail('');
      announce(sent.link ? `Invitation made for ${sent.invitation.email}: send them the link below.` : `Invitation sent to ${sent.invitation.email}.`);
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
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <section aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite someone</h2>
        <form onSubmit={invite} className="filters" noValidate>
          <label>
            E-mail address
            <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} required autoComplete="off" />
          </label>
          <label htmlFor={`${formId}-role`}>Role</label>
          <select id={`${formId}-role`} value={role} onChange={(event) => setRole(event.target.value as AdminRole)}>
            {ADMIN_ROLES.map((value) => (
              <option key={value} value={value}>
                {value}: {ROLE_DESCRIPTIONS[value].toLowerCase()}
              </option>
            ))}
          </select>
          <button type="submit">Send the invitation</button>
        </form>
        {link ? (
          <p className="notice">
            This server sends no e-mail (no SMTP_URL): send this link to {link.email} yourself. It works once, for 72 hours, and is not shown again (resend the
            invitation for a new one): <code className="link-text">{link.url}</code>
          </p>
        ) : null}
      </section>
      {!data ? (
        <p aria-busy="true">Loading the team…</p>
      ) : (
        <>
          <section aria-labelledby="members-heading">
            <h2 id="members-heading">Members</h2>
            <div className="table-scroll team-table" tabIndex={0} role="region" aria-label="Members table">
              <table>
                <thead>
                  <tr>
                    <th scope="col">E-mail</th>
                    <th scope="col">Role</th>
                    <th scope="col">Second factor</th>
                    <th scope="col">Sessions</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.members.map((member) => (
                    <MemberRow key={member.id} member={member} you={member.email === userEmail} run={run} />
                  ))}
                </tbody>
              </table>
            </div>
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
                        void run(async () => {
                          const sent = await changes.resend.mutateAsync(invitation.id);
                          setLink(sent.link ? { email: invitation.email, url: sent.link } : undefined);
                          announce(`Invitation to ${invitation.email} renewed for 72 hours.`);
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
                        void run(async () => changes.revoke.mutateAsync(invitation.id).then(() => announce(`Invitation to ${invitation.email} revoked.`)))
                      }
                    >
                      Revoke
                    </button>
                  </li>
                ))}
              </ul>
            )}
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
                  void run(async () => {
                    await changes.settings.mutateAsync(required);
                    announce(required ? 'A second factor is required from the next sign-in.' : 'A second factor is no longer required.');
                  }).finally(() => setRequiredChoice(undefined));
                }}
              />{' '}
              Require a second factor (an authenticator app or a passkey) of every member: those without one set it up at their next sign-in
            </label>
          </section>
        </>
      )}
      <AuditLog />
    </>
  );
}
