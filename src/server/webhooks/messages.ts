import { Webhook } from 'standardwebhooks';
import { personOf } from '../../shared/person';
import { TEST_EVENT_TYPE, type DeliveryWork, type EndpointRecord } from '../store/webhooks';
import type { ApplicationForPayload } from '../store/outbox';

/**
 * What one delivery sends (docs/integrations.md, "Payloads" and "Signatures"): a Standard Webhooks
 * message `{ type, timestamp, data }` signed with the endpoint's secret(s), or, for a `slack`
 * endpoint, a Slack incoming webhook's `{ text }` with a link to the application.
 */

/** The body and headers of one attempt. */
export interface Message {
  body: string;
  headers: Record<string, string>;
}

/** `data` of a Standard Webhooks message: ids and statuses; a full payload adds the application as stored. */
export function eventData(work: DeliveryWork, payload: 'full' | 'thin', application: ApplicationForPayload | undefined): Record<string, unknown> {
  if (work.type === TEST_EVENT_TYPE) return { message: 'A test event from the inbox.' };
  if (work.type === 'page.published' || work.type === 'page.closed') return { pageId: work.pageId, ...work.data };
  const ids = { id: work.applicationId, pageId: work.pageId, ...work.data };
  // A withdrawal says which consent (`purpose`) and when; the application itself is not sent again.
  if (work.type === 'application.erased' || work.type === 'consent.withdrawn' || payload === 'thin' || !application) return ids;
  return { ...ids, receivedAt: application.receivedAt, application: application.application };
}

/**
 * The Standard Webhooks signature header of `body`: `v1,{base64 HMAC-SHA256 of "id.timestamp.body"}`
 * for each of `secrets`, separated by a space (the previous secret beside the new one for 24
 * hours after a rotation), by the `standardwebhooks` package.
 * @param timestamp - the time of sending, in ms (the header carries whole seconds).
 */
export function signature(secrets: readonly string[], eventId: string, timestamp: number, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(eventId, new Date(timestamp), body)).join(' ');
}

/** Text as Slack's mrkdwn shows it: `&`, `<` and `>` escaped (Slack, "Formatting text for app surfaces"). */
function slackText(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** The applicant's name in a full payload's application, or undefined. */
function applicantName(application: ApplicationForPayload | undefined): string | undefined {
  if (!application) return undefined;
  const { firstName, lastName } = personOf(application.application);
  const name = [firstName, lastName].filter((part) => part.trim() !== '').join(' ');
  return name || undefined;
}

/** A Slack message for the delivery: one line, with a link to the application in the inbox (`publicUrl`: the inbox's address). */
export function slackMessage(work: DeliveryWork, payload: 'full' | 'thin', application: ApplicationForPayload | undefined, publicUrl: string): string {
  const page = slackText(work.pageId);
  const link = work.applicationId ? ` <${publicUrl}/admin/applications/${encodeURIComponent(work.applicationId)}|Open it in the inbox>` : '';
  const name = payload === 'full' ? applicantName(application) : undefined;
  switch (work.type) {
    case 'application.submitted':
      return `New application${name ? ` from ${slackText(name)}` : ''} on ${page}.${link}`;
    case 'application.status_changed':
      return `An application${name ? ` from ${slackText(name)}` : ''} on ${page} is now ${slackText(work.data.status)} (was ${slackText(work.data.previousStatus)}).${link}`;
    case 'application.erased':
      return `An application on ${page} was erased.`;
    case 'consent.withdrawn':
      return `A consent (${slackText(work.data.purpose)}) was withdrawn from an application on ${page}.${link}`;
    case 'page.published':
      return `The page ${page} is published (version ${slackText(work.data.version)}).`;
    case 'page.closed':
      return `The page ${page} is closed.`;
    default:
      return 'A test event from the inbox.';
  }
}

/**
 * The message of one attempt of `work` to `endpoint`, sent at `now` (ms).
 * @param application - the application a full payload shows (undefined: thin, or erased since).
 */
export function deliveryMessage(
  work: DeliveryWork,
  endpoint: EndpointRecord,
  application: ApplicationForPayload | undefined,
  now: number,
  publicUrl: string,
): Message {
  const body =
    endpoint.kind === 'slack'
      ? JSON.stringify({ text: slackMessage(work, endpoint.payload, application, publicUrl) })
      : JSON.stringify({ type: work.type, timestamp: work.occurredAt, data: eventData(work, endpoint.payload, application) });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'creator-applications-webhooks/1',
      'webhook-id': work.eventId,
      'webhook-timestamp': String(Math.floor(now / 1000)),
      'webhook-signature': signature(endpoint.secrets, work.eventId, now, body),
    },
  };
}
