import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  WEBHOOK_EVENT_TYPES,
  type CreateWebhook,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
  type WebhookKind,
  type WebhookPayload,
} from '../shared/webhooks';
import { copyText } from './clipboard';
import { announce } from './announcer';
import { ApiError, failureSentence as failure } from './api';
import { useDeliveries, useWebhookChanges, useWebhooks } from './features/integrations/api';
import { formatDateTime } from './format';

/** What each event is, as the team reads it (docs/integrations.md, "Events"). */
const EVENT_LABELS: Record<WebhookEventType, string> = {
  'application.submitted': 'An application is submitted',
  'application.status_changed': 'An application is accepted, declined or put back',
  'application.erased': 'An application is erased',
  'consent.withdrawn': 'A creator withdraws a consent',
  'page.published': 'A page is published',
  'page.closed': 'A page is closed',
};

/** A new or rotated signing secret, shown once, to copy into the receiver. */
function SecretShown({ secret, onDone }: { secret: { url: string; value: string }; onDone: () => void }) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.select(), []);
  return (
    <section className="secret-shown" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Signing secret for {secret.url}</h2>
      <p>Copy it into the receiver now: it is not shown again. A rotated secret's previous one still signs for 24 hours.</p>
      <label htmlFor={`${id}-secret`}>Signing secret</label>
      <input id={`${id}-secret`} ref={field} readOnly value={secret.value} className="secret" spellCheck={false} />
      <button
        type="button"
        className="secondary"
        onClick={() =>
          void copyText(secret.value).then((copied) => {
            if (copied) return announce('Secret copied.');
            // No clipboard (an insecure origin, or refused): the field is selected, to copy by hand.
            field.current?.select();
            announce('Copying was refused: the secret is selected, copy it with your keyboard.');
          })
        }
      >
        Copy the secret
      </button>
      <button type="button" className="secondary" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}

/** The form that adds an endpoint (owners). */
function AddEndpoint({ onAdded }: { onAdded: (secret: { url: string; value: string }) => void }) {
  const id = useId();
  const { create } = useWebhookChanges();
  const [url, setUrl] = useState('');
  const [kind, setKind] = useState<WebhookKind>('standard');
  const [payload, setPayload] = useState<WebhookPayload>('full');
  const [events, setEvents] = useState<WebhookEventType[]>(['application.submitted']);
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string>();
  // The fields the server named in its refusal: marked, described by the error, the first focused.
  const [invalid, setInvalid] = useState<ReadonlySet<string>>(new Set());
  const urlField = useRef<HTMLInputElement>(null);
  const eventsGroup = useRef<HTMLFieldSetElement>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setInvalid(new Set());
    const body: CreateWebhook = { url: url.trim(), events, kind, payload, ...(description.trim() ? { description: description.trim() } : {}) };
    try {
      const created = await create.mutateAsync(body);
      onAdded({ url: body.url, value: created.secret });
      setUrl('');
      setDescription('');
      setEvents(['application.submitted']);
      announce('Endpoint added.');
    } catch (caught) {
      const paths = new Set((caught instanceof ApiError ? (caught.problem?.errors ?? []) : []).map((fieldError) => fieldError.path.split('.')[0]!));
      // A refusal naming no field (the address not allowed, a network failure) is the URL's.
      const marked = paths.has('events') && !paths.has('url') ? new Set(['events']) : new Set(['url', ...paths]);
      setInvalid(marked);
      setError(failure(caught));
      if (marked.has('url')) urlField.current?.focus();
      else eventsGroup.current?.querySelector('input')?.focus();
    }
  };
  return (
    <form className="add-endpoint" onSubmit={(event) => void submit(event)} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`}>Add an endpoint</h2>
      <label htmlFor={`${id}-url`}>Endpoint URL</label>
      <input
        id={`${id}-url`}
        ref={urlField}
        type="url"
        required
        value={url}
        onChange={(event) => setUrl(event.target.value)}
        placeholder="https://crm.brand.example/hooks/applications"
        aria-describedby={error && invalid.has('url') ? `${id}-error` : undefined}
        aria-invalid={error && invalid.has('url') ? true : undefined}
      />
      <label htmlFor={`${id}-description`}>Description (optional)</label>
      <input id={`${id}-description`} value={description} onChange={(event) => setDescription(event.target.value)} maxLength={200} />
      <fieldset ref={eventsGroup} aria-describedby={error && invalid.has('events') ? `${id}-error` : undefined}>
        <legend>Events to send</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className="check">
            <input
              type="checkbox"
              checked={events.includes(type)}
              onChange={(event) => setEvents(event.target.checked ? [...events, type] : events.filter((other) => other !== type))}
            />
            {EVENT_LABELS[type]} <code>{type}</code>
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Payload</legend>
        <label className="check">
          <input type="radio" name={`${id}-payload`} checked={payload === 'full'} onChange={() => setPayload('full')} />
          Full: the application's answers
        </label>
        <label className="check">
          <input type="radio" name={`${id}-payload`} checked={payload === 'thin'} onChange={() => setPayload('thin')} />
          Thin: ids and statuses only, no personal data
        </label>
      </fieldset>
      <fieldset>
        <legend>Kind</legend>
        <label className="check">
          <input type="radio" name={`${id}-kind`} checked={kind === 'standard'} onChange={() => setKind('standard')} />
          Standard Webhooks (signed JSON)
        </label>
        <label className="check">
          <input type="radio" name={`${id}-kind`} checked={kind === 'slack'} onChange={() => setKind('slack')} />
          Slack incoming webhook (a line in a channel)
        </label>
      </fieldset>
      {error ? (
        <p id={`${id}-error`} role="alert" className="error">
          {error}
        </p>
      ) : null}
      <button type="submit" disabled={create.isPending}>
        Add the endpoint
      </button>
    </form>
  );
}

/** An endpoint's delivery log, newest first, with a replay button on each delivery not cancelled (owners). */
function DeliveryLog({ endpoint, canEdit }: { endpoint: WebhookEndpoint; canEdit: boolean }) {
  const deliveries = useDeliveries(endpoint.id);
  const { replay } = useWebhookChanges();
  const [error, setError] = useState<string>();
  const again = async (delivery: WebhookDelivery) => {
    setError(undefined);
    try {
      await replay.mutateAsync({ id: endpoint.id, deliveryId: delivery.id });
      announce('Delivery sent again.');
    } catch (caught) {
      setError(failure(caught));
    }
  };
  if (deliveries.isPending) return <p aria-busy="true">Loading the deliveries…</p>;
  if (deliveries.isError) return <p role="alert">The deliveries cannot be loaded: {failure(deliveries.error)}</p>;
  const items = deliveries.data.items;
  return (
    <section aria-label={`Deliveries to ${endpoint.url}`}>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      {items.length === 0 ? (
        <p>No delivery yet.</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={`Delivery log of ${endpoint.url}`}>
          <table className="stack-table">
            <caption>Deliveries to {endpoint.url}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Made</th>
                <th scope="col">State</th>
                <th scope="col" className="number">
                  Attempts
                </th>
                <th scope="col">Last answer</th>
                <th scope="col">Next attempt</th>
                {canEdit ? <th scope="col">Replay</th> : null}
              </tr>
            </thead>
            <tbody>
              {items.map((delivery) => (
                <tr key={delivery.id}>
                  <td data-label="Event">
                    <code>{delivery.type}</code>
                  </td>
                  <td data-label="Made">{formatDateTime(delivery.createdAt)}</td>
                  <td data-label="State">{delivery.state}</td>
                  <td data-label="Attempts" className="number">
                    {delivery.attempts}
                  </td>
                  <td data-label="Last answer" className="wrap">
                    {delivery.lastStatus ?? ''}
                    {delivery.latencyMs !== null ? ` in ${delivery.latencyMs} ms` : ''}
                    {delivery.lastError && delivery.state !== 'delivered' ? ` ${delivery.lastError}` : ''}
                  </td>
                  <td data-label="Next attempt">
                    {delivery.state !== 'pending' || !delivery.nextAttemptAt
                      ? ''
                      : endpoint.state === 'active'
                        ? formatDateTime(delivery.nextAttemptAt)
                        : `When the endpoint is active again (it is ${endpoint.state})`}
                  </td>
                  {canEdit ? (
                    <td data-label="Replay">
                      {delivery.state === 'cancelled' ? null : (
                        <button
                          type="button"
                          className="secondary"
                          onClick={() => void again(delivery)}
                          aria-label={`Send ${delivery.type} of ${formatDateTime(delivery.createdAt)} again`}
                        >
                          Send again
                        </button>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Said when a test event is queued; its outcome follows once it was attempted. */
const TEST_QUEUED = 'Test event queued.';

/** What a test delivery came to, in words: queued (not attempted yet, or waiting for a paused endpoint), delivered, or failed and why. */
function testOutcome(delivery: WebhookDelivery | undefined, state: WebhookEndpoint['state']): string {
  if (!delivery || (delivery.state === 'pending' && delivery.attempts === 0))
    return state === 'active' ? TEST_QUEUED : `${TEST_QUEUED} The endpoint is ${state}: it waits until the endpoint is active.`;
  const answer = delivery.lastStatus === null ? '' : ` (HTTP ${delivery.lastStatus})`;
  if (delivery.state === 'delivered') return `Test event delivered${answer} in ${delivery.latencyMs ?? 0} ms.`;
  const why = delivery.lastError ?? 'no answer';
  return delivery.state === 'pending' ? `The test event failed${answer}: ${why}. It is tried again.` : `The test event failed${answer}: ${why}.`;
}

/** One endpoint: what it receives, its state, its actions (owners) and, when opened, its delivery log. */
function Endpoint({
  endpoint,
  canEdit,
  onSecret,
}: {
  endpoint: WebhookEndpoint;
  canEdit: boolean;
  onSecret: (secret: { url: string; value: string }) => void;
}) {
  const { update, remove, rotate, test } = useWebhookChanges();
  const [showLog, setShowLog] = useState(false);
  // The test event sent last: its outcome is said once its first attempt is recorded.
  const [testing, setTesting] = useState<string>();
  const tested = useDeliveries(testing ? endpoint.id : undefined).data?.items.find((delivery) => delivery.id === testing);
  const testSaid = testing ? testOutcome(tested, endpoint.state) : undefined;
  useEffect(() => {
    if (testSaid && testSaid !== TEST_QUEUED) announce(testSaid);
  }, [testSaid]);
  const [error, setError] = useState<string>();
  const act = async (work: () => Promise<unknown>, done: string) => {
    setError(undefined);
    try {
      await work();
      announce(done);
    } catch (caught) {
      setError(failure(caught));
    }
  };
  const paused = endpoint.state !== 'active';
  // Each endpoint's controls are named after it (a list of them is not a row of identical "Pause" buttons).
  const name = endpoint.description || endpoint.url;
  return (
    <li className="endpoint">
      <h2>{name}</h2>
      <p className="endpoint-url">
        <code>{endpoint.url}</code> · {endpoint.kind === 'slack' ? 'Slack' : 'Standard Webhooks'} ·{' '}
        {endpoint.payload === 'full' ? 'full payload' : 'thin payload'}
      </p>
      <p>
        State: <strong>{endpoint.state}</strong>
        {endpoint.disabledReason ? ` (${endpoint.disabledReason})` : ''}
      </p>
      <p>Events: {endpoint.events.map((type) => EVENT_LABELS[type]).join('; ')}.</p>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      {testSaid ? <p className="test-outcome">{testSaid}</p> : null}
      <div className="endpoint-actions">
        <button type="button" className="secondary" aria-expanded={showLog} onClick={() => setShowLog(!showLog)}>
          {showLog ? 'Hide the deliveries' : 'Show the deliveries'}
          <span className="visually-hidden"> of {name}</span>
        </button>
        {canEdit ? (
          <>
            <button
              type="button"
              className="secondary"
              onClick={() =>
                void act(async () => {
                  setTesting((await test.mutateAsync(endpoint.id)).id);
                  setShowLog(true);
                }, TEST_QUEUED)
              }
            >
              Send a test event<span className="visually-hidden"> to {name}</span>
            </button>
            <button
              type="button"
              className="secondary"
              onClick={() =>
                void act(
                  () => update.mutateAsync({ id: endpoint.id, change: { state: paused ? 'active' : 'paused' } }),
                  paused ? 'Endpoint active.' : 'Endpoint paused.',
                )
              }
            >
              {paused ? 'Make active' : 'Pause'}
              <span className="visually-hidden"> {name}</span>
            </button>
            <button
              type="button"
              className="secondary"
              onClick={() => {
                // As deleting does: the new secret is shown once, and the receiver must take it within 24 hours.
                if (window.confirm(`Rotate the signing secret of ${name}? The new one is shown once; the current one keeps signing for 24 hours.`))
                  void act(async () => onSecret({ url: endpoint.url, value: (await rotate.mutateAsync(endpoint.id)).secret }), 'Secret rotated.');
              }}
            >
              Rotate the secret<span className="visually-hidden"> of {name}</span>
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => {
                if (window.confirm(`Delete the endpoint ${endpoint.url} and its delivery log?`))
                  void act(() => remove.mutateAsync(endpoint.id), 'Endpoint deleted.');
              }}
            >
              Delete<span className="visually-hidden"> {name}</span>
            </button>
          </>
        ) : null}
      </div>
      {showLog ? <DeliveryLog endpoint={endpoint} canEdit={canEdit} /> : null}
    </li>
  );
}

/**
 * Integrations (`/admin/integrations`; docs/integrations.md): the webhook endpoints the brand's other
 * tools receive events at, each with its state, events and delivery log; owners add, test, pause,
 * rotate, delete and replay. A new or rotated secret is shown once.
 */
export default function IntegrationsView({ canEdit }: { canEdit: boolean }) {
  const webhooks = useWebhooks();
  const heading = useRef<HTMLHeadingElement>(null);
  const [secret, setSecret] = useState<{ url: string; value: string }>();
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="integrations">
      <h1 ref={heading} tabIndex={-1}>
        Integrations
      </h1>
      <p className="hint">
        Webhooks tell the brand's other tools (a CRM, Slack, an automation tool) of each application, decision and erasure as it happens, signed and retried
        until received.
      </p>
      {/* Keyed by the secret: a second one shown takes focus as the first did. */}
      {secret ? <SecretShown key={secret.value} secret={secret} onDone={() => setSecret(undefined)} /> : null}
      {webhooks.isPending ? <p aria-busy="true">Loading the endpoints…</p> : null}
      {webhooks.isError ? <p role="alert">The endpoints cannot be loaded: {failure(webhooks.error)}</p> : null}
      {webhooks.data ? (
        webhooks.data.length === 0 ? (
          <p>No endpoint yet.</p>
        ) : (
          <ul className="endpoints" aria-label="Webhook endpoints">
            {webhooks.data.map((endpoint) => (
              <Endpoint key={endpoint.id} endpoint={endpoint} canEdit={canEdit} onSecret={setSecret} />
            ))}
          </ul>
        )
      ) : null}
      {canEdit ? <AddEndpoint onAdded={setSecret} /> : <p>Your account may read the endpoints but not change them.</p>}
    </div>
  );
}
