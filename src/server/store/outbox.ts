import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { WebhookEventType } from '../../shared/webhooks';
import type { Database } from './schema';
import { perStatement } from './statements';

/**
 * The transactional outbox (docs/decisions/025): every event the brand's other tools hear of is
 * written in the transaction of the change it reports (the submit's batch, a decision, an erasure,
 * a publish or a close), so a change committed is an event that will be delivered, and a change
 * rolled back is none. The dispatcher (webhooks.ts) turns each into deliveries.
 */

/** One event of the outbox: what happened, when, to what; `data` ids and statuses only (never what an applicant wrote). */
export interface OutboxEvent {
  type: WebhookEventType;
  /** ISO-8601 UTC. */
  occurredAt: string;
  pageId: string | null;
  applicationId: string | null;
  data: Record<string, string | number | null>;
}

/** `application.submitted` as both submit batch writers store it: its type and `data` (JSON), the status a new application has. */
export const SUBMITTED_EVENT = { type: 'application.submitted', data: JSON.stringify({ status: 'new' }) } as const satisfies {
  type: WebhookEventType;
  data: string;
};

/** A new event id (`msg_` and 32 hex digits): the `webhook-id` of every delivery of the event, the same across retries. */
export function newEventId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

/** The row of `event` in `outbox_events` (migration 018). */
export function outboxRow(event: OutboxEvent): Database['outbox_events'] {
  return {
    event_id: newEventId(),
    type: event.type,
    occurred_at: event.occurredAt,
    page_id: event.pageId,
    application_id: event.applicationId,
    data: JSON.stringify(event.data),
  };
}

/**
 * Writes `events` to the outbox in `trx`, the transaction of the change they report.
 * @throws the driver's error (the change's transaction then rolls back with it).
 */
export async function appendEvents(trx: Transaction<Database>, events: readonly OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  await trx.insertInto('outbox_events').values(events.map(outboxRow)).execute();
}

/** `application.status_changed`: the decision's new status and the one before. */
export function statusChanged(applicationId: string, pageId: string, previous: string, status: string, occurredAt: string): OutboxEvent {
  return { type: 'application.status_changed', occurredAt, pageId, applicationId, data: { status, previousStatus: previous } };
}

/**
 * What the integrations still hold of an application being erased, in its erasure's transaction:
 * its events not yet dispatched are removed, its deliveries not yet sent cancelled (a full payload
 * of it could no longer be made, and must not be). A delivery sent is kept in the log with ids
 * only (they never held more).
 */
export async function eraseFromOutbox(trx: Transaction<Database>, applicationId: string): Promise<void> {
  await trx.deleteFrom('outbox_events').where('application_id', '=', applicationId).execute();
  await trx
    .updateTable('webhook_deliveries')
    .set({ state: 'cancelled', last_error: 'The application was erased before this delivery.' })
    .where('application_id', '=', applicationId)
    .where('state', '=', 'pending')
    .execute();
}

/** An application as a full payload shows it (docs/integrations.md, "Payloads"). */
export interface ApplicationForPayload {
  id: string;
  pageId: string;
  receivedAt: string;
  status: string;
  application: unknown;
}

/** The applications of `ids` as payloads and messages show them, read through `db` (a transaction, or the store), by id (an erased one is absent). */
export async function applicationsForPayload(
  db: Kysely<Database> | Transaction<Database>,
  ids: readonly string[],
): Promise<Map<string, ApplicationForPayload>> {
  const rows: { id: string; page_id: string; received_at: string; status: string; payload: string }[] = [];
  for (const slice of perStatement(ids))
    rows.push(...(await db.selectFrom('applications').select(['id', 'page_id', 'received_at', 'status', 'payload']).where('id', 'in', slice).execute()));
  return new Map(
    rows.map((row) => [
      row.id,
      { id: row.id, pageId: row.page_id, receivedAt: row.received_at, status: row.status, application: JSON.parse(row.payload) as unknown },
    ]),
  );
}
