import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { EMAIL_KINDS, EMAIL_STATES, NOTIFICATION_MODES, type EmailKind, type EmailLogEntry, type EmailState, type NotificationMode } from '../shared/emails';
import { announce } from './announcer';
import { failureSentence } from './api';
import { emailHtmlPath, useEmailLog, useEmailMessage, useNotificationSettings, useSetNotification, type EmailLogFilter } from './features/email/api';
import { formatDateTime } from './format';
import { SAID } from './labels';

/** What each kind of message is, as the team reads it (docs/email.md). */
const KIND_LABELS: Record<EmailKind, string> = {
  confirmation: 'Confirmation to the creator',
  accepted: 'Accepted, to the creator',
  declined: 'Declined, to the creator',
  notification: 'New application, to a member',
  digest: 'Daily digest, to a member',
  endpoint_disabled: 'Endpoint disabled, to the owners and editors',
  guardian_consent: 'Consent asked of a parent or guardian',
  invitation: 'Invitation to the team',
  password_reset: 'Password reset, to a member',
  security_notice: 'Sign-in changed, to a member',
  resume_link: 'Link to continue on another device, to a creator',
};

/** The messages to a member: what they say is shown to that member only (docs/email.md, "The e-mail log"). */
const TEAM_KINDS: ReadonlySet<EmailKind> = new Set(['notification', 'digest', 'endpoint_disabled', 'password_reset', 'security_notice']);

/** Each notification mode as the member chooses it. */
const MODE_LABELS: Record<NotificationMode, string> = {
  immediate: 'Each application',
  digest: 'Daily digest',
  off: 'Off',
};

/** Each state as the log's filter names it. */
const STATE_LABELS: Record<EmailState, string> = {
  pending: 'Waiting or to be tried again',
  sent: 'Sent',
  logged: 'Kept here (no SMTP server set)',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** What a message's state means, as the log says it. */
function stateText(message: EmailLogEntry): string {
  if (message.state === 'pending')
    return message.attempts === 0
      ? `Waiting until ${formatDateTime(message.nextAttemptAt!)}`
      : `To be tried again at ${formatDateTime(message.nextAttemptAt!)}`;
  if (message.state === 'logged') return 'Kept here (no SMTP server set)';
  return { sent: 'Sent', failed: 'Failed', cancelled: 'Cancelled' }[message.state];
}

/** The member's own notification setting for each page: a choice per page, saved as it is made. */
function Notifications() {
  const settings = useNotificationSettings();
  const set = useSetNotification();
  const [error, setError] = useState<string>();
  // The choice just made, shown at once (the radio stays where it was put while it is saved).
  const [chosen, setChosen] = useState<Record<string, NotificationMode>>({});
  const id = useId();
  const choose = async (pageId: string, title: string, mode: NotificationMode) => {
    setError(undefined);
    setChosen((before) => ({ ...before, [pageId]: mode }));
    try {
      await set.mutateAsync({ pageId, mode });
      announce(`${title}: ${MODE_LABELS[mode].toLowerCase()}.`);
    } catch (caught) {
      setError(failureSentence(caught));
    } finally {
      setChosen(({ [pageId]: _done, ...rest }) => rest);
    }
  };
  return (
    <section aria-labelledby={`${id}-title`} className="notifications">
      <h2 id={`${id}-title`}>Your notifications</h2>
      <p className="hint">
        How you hear of each page's new applications, at the address you sign in with: each one as it arrives, or the daily digest (the default) at 08:00 UTC,
        counting the 24 hours before. Every message has a one-click unsubscribe.
      </p>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      {settings.isPending ? <p aria-busy="true">Loading your settings…</p> : null}
      {settings.isError ? <p role="alert">Your settings cannot be loaded: {failureSentence(settings.error)}</p> : null}
      {settings.data?.map((setting) => (
        <fieldset key={setting.pageId} className="mode-choice">
          <legend>
            {setting.title} <span className="page-id">({setting.pageId})</span>
          </legend>
          {NOTIFICATION_MODES.map((mode) => (
            <label key={mode} className="check">
              <input
                type="radio"
                name={`${id}-${setting.pageId}`}
                checked={(chosen[setting.pageId] ?? setting.mode) === mode}
                onChange={() => void choose(setting.pageId, setting.title, mode)}
              />
              {MODE_LABELS[mode]}
            </label>
          ))}
        </fieldset>
      ))}
    </section>
  );
}

/** One message shown: its HTML in a frame that runs nothing (its own policy), and its plain text. */
function MessageShown({ id, onClose }: { id: string; onClose: () => void }) {
  const message = useEmailMessage(id);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [id]);
  return (
    <section className="message-shown" aria-labelledby={`${id}-subject`}>
      <h2 id={`${id}-subject`} ref={heading} tabIndex={-1}>
        {message.data ? message.data.subject || '(no subject)' : 'Loading the message…'}
      </h2>
      {message.isError ? <p role="alert">The message cannot be loaded: {failureSentence(message.error)}</p> : null}
      {message.data ? (
        <>
          <p>
            To {recipientText(message.data)} · {KIND_LABELS[message.data.kind]} · {stateText(message.data)}
          </p>
          {message.data.html ? (
            <iframe title={`The message "${message.data.subject}"`} src={emailHtmlPath(id)} className="email-frame" sandbox="" />
          ) : (
            <p>
              {message.data.state !== 'pending' && TEAM_KINDS.has(message.data.kind)
                ? 'Only the member it went to can read this message: it carries their own unsubscribe link.'
                : 'This message has no content: it is not made yet, or its application was erased.'}
            </p>
          )}
          {message.data.text ? (
            <details>
              <summary>Plain text</summary>
              <pre className="email-text">{message.data.text}</pre>
            </details>
          ) : null}
        </>
      ) : null}
      <button type="button" className="secondary" onClick={onClose}>
        Close the message
      </button>
    </section>
  );
}

/** One of the log's filters: a choice among `values`, named by `labels`, or every one (`every`). */
function LogFilter<V extends string>(props: {
  label: string;
  every: string;
  values: readonly V[];
  labels: Record<V, string>;
  value: V | undefined;
  onChange: (value: V | undefined) => void;
}) {
  return (
    <label>
      {props.label}
      <select value={props.value ?? ''} onChange={(event) => props.onChange((event.target.value || undefined) as V | undefined)}>
        <option value="">{props.every}</option>
        {props.values.map((value) => (
          <option key={value} value={value}>
            {props.labels[value]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A message's recipient as the log shows it: a message not made yet (a decision's, within its 5 minutes) says who it will go to. */
function recipientText(message: EmailLogEntry): string {
  if (message.to) return message.to;
  if (message.state !== 'pending') return '—';
  return TEAM_KINDS.has(message.kind) ? 'The team member, once it is made' : 'The applicant, once it is made';
}

/**
 * E-mail (`/admin/email`, also `/admin/notifications`; docs/email.md): the member's own notification
 * settings per page, and the log of every message the product made, each one's state, and its
 * content.
 */
export default function EmailView() {
  const [filter, setFilter] = useState<EmailLogFilter>({});
  const log = useEmailLog(filter);
  const heading = useRef<HTMLHeadingElement>(null);
  const [shown, setShown] = useState<string>();
  useEffect(() => heading.current?.focus(), []);
  const items = log.data?.pages.flatMap((page) => page.items) ?? [];
  const filtered = filter.kind !== undefined || filter.state !== undefined;
  return (
    <div className="email-view">
      <h1 ref={heading} tabIndex={-1}>
        E-mail
      </h1>
      <Notifications />
      <section aria-labelledby="email-log-title">
        <h2 id="email-log-title">Messages</h2>
        <p className="hint">Every message the product made, newest first: confirmations and decisions to creators, notifications to the team.</p>
        {log.isPending ? <p aria-busy="true">Loading the messages…</p> : null}
        {log.isError ? <p role="alert">The messages cannot be loaded: {failureSentence(log.error)}</p> : null}
        <div className="log-filters" role="group" aria-label="Which messages">
          <LogFilter
            label="Kind"
            every="Every kind"
            values={EMAIL_KINDS}
            labels={KIND_LABELS}
            value={filter.kind}
            onChange={(kind) => setFilter({ ...filter, kind })}
          />
          <LogFilter
            label="State"
            every="Every state"
            values={EMAIL_STATES}
            labels={STATE_LABELS}
            value={filter.state}
            onChange={(state) => setFilter({ ...filter, state })}
          />
        </div>
        {log.data && items.length === 0 ? <p>{filtered ? 'No message of this kind and state.' : 'No message yet.'}</p> : null}
        {items.length > 0 ? (
          <div className="table-scroll" tabIndex={0} role="region" aria-label="The message log">
            <table className="stack-table">
              <caption>Messages, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Made</th>
                  <th scope="col">Kind</th>
                  <th scope="col">To</th>
                  <th scope="col">Subject</th>
                  <th scope="col">State</th>
                  <th scope="col">Application</th>
                  <th scope="col">Last error</th>
                </tr>
              </thead>
              <tbody>
                {items.map((message) => (
                  <tr key={message.id}>
                    <td data-label="Made">{formatDateTime(message.createdAt)}</td>
                    <td data-label="Kind">{KIND_LABELS[message.kind]}</td>
                    <td data-label="To" className="wrap">
                      {recipientText(message)}
                    </td>
                    <td data-label="Subject" className="wrap">
                      {message.subject ? (
                        <button
                          type="button"
                          id={`subject-${message.id}`}
                          className="link"
                          onClick={() => setShown(message.id)}
                          aria-expanded={shown === message.id}
                        >
                          {message.subject}
                        </button>
                      ) : (
                        ''
                      )}
                    </td>
                    <td data-label="State">{stateText(message)}</td>
                    <td data-label="Application">
                      {message.applicationId ? (
                        <Link href={`/applications/${encodeURIComponent(message.applicationId)}`}>
                          {/* The visible word starts its name (WCAG 2.5.3); the rest tells the rows' links apart. */}
                          Open<span className="visually-hidden"> the application of the message made {formatDateTime(message.createdAt)}</span>
                        </Link>
                      ) : (
                        ''
                      )}
                    </td>
                    <td data-label="Last error" className="wrap">
                      {message.lastError ?? ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {log.hasNextPage ? (
          <button
            type="button"
            className="secondary"
            disabled={log.isFetchingNextPage}
            onClick={() =>
              void log.fetchNextPage().then((result) => {
                const pages = result.data?.pages ?? [];
                announce(SAID.messagesLoaded(pages.at(-1)?.items.length ?? 0, result.hasNextPage));
              })
            }
          >
            {log.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        ) : null}
      </section>
      {shown ? (
        <MessageShown
          id={shown}
          onClose={() => {
            setShown(undefined);
            // Back where the member was: the subject that opened it.
            requestAnimationFrame(() => document.getElementById(`subject-${shown}`)?.focus());
          }}
        />
      ) : null}
    </div>
  );
}
