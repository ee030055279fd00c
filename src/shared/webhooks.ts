import { DEFAULT_MESSAGES } from './messages';
import { isPlainText } from './rules';
import { z } from './zod';

/**
 * Webhooks (docs/integrations.md; docs/decisions/025): what the inbox API takes and answers for
 * the team's endpoints and their deliveries, read by the server's routes and the inbox.
 */

/** The events an endpoint may want (docs/integrations.md, "Events"). */
export const WEBHOOK_EVENT_TYPES = [
  'application.submitted',
  'application.status_changed',
  'application.erased',
  'consent.withdrawn',
  'page.published',
  'page.closed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What a delivery may carry: an event, or the test event the team sends from the inbox ("Send a test event"). */
export const DELIVERY_TYPES = [...WEBHOOK_EVENT_TYPES, 'webhook.test'] as const;

/** `standard`: a Standard Webhooks message, signed; `slack`: a Slack incoming webhook's message, with a link to the application. */
export const WEBHOOK_KINDS = ['standard', 'slack'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

/** `full`: the application as the inbox shows it; `thin`: ids and statuses only (no personal data in the receiver's logs). */
export const WEBHOOK_PAYLOADS = ['full', 'thin'] as const;
export type WebhookPayload = (typeof WEBHOOK_PAYLOADS)[number];

/** `active` sends; `paused` by the team keeps its deliveries waiting; `disabled` by the server (410 Gone, or every attempt failed). */
export const WEBHOOK_STATES = ['active', 'paused', 'disabled'] as const;
export type WebhookState = (typeof WEBHOOK_STATES)[number];

/** A delivery's state: `pending` (an attempt to come), `delivered` (2xx), `failed` (no attempt left, or its endpoint gone), `cancelled` (its application erased first). */
export const DELIVERY_STATES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** The longest endpoint URL taken, in characters. */
export const MAX_WEBHOOK_URL_LENGTH = 2000;
/** The longest description, in characters. */
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 200;

/** An endpoint's URL: `http` or `https`, without user name or password, not on port 0. Where it may point is the server's to check (its addresses). */
export const WebhookUrlSchema = z.string().check(
  z.maxLength(MAX_WEBHOOK_URL_LENGTH),
  z.refine(isPlainText, DEFAULT_MESSAGES.plainText),
  z.refine((value) => {
    try {
      const url = new URL(value);
      // Port 0 is no port a receiver listens on (RFC 6335 reserves it).
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '' && url.hostname !== '' && url.port !== '0';
    } catch {
      return false;
    }
  }, 'Enter an http or https URL without a user name or password'),
);

/** A description: plain text (no control character: both stores keep it alike). */
const description = z.string().check(z.maxLength(MAX_WEBHOOK_DESCRIPTION_LENGTH), z.refine(isPlainText, DEFAULT_MESSAGES.plainText));

const events = z.array(z.enum(WEBHOOK_EVENT_TYPES)).check(
  z.minLength(1, 'Choose at least one event'),
  z.refine((list) => new Set(list).size === list.length, 'An event is listed twice'),
);

/** `POST /api/admin/webhooks`: a new endpoint (`payload` `full` and `kind` `standard` unless given). */
export const CreateWebhookSchema = z.strictObject({
  url: WebhookUrlSchema,
  events,
  payload: z.optional(z.enum(WEBHOOK_PAYLOADS)),
  kind: z.optional(z.enum(WEBHOOK_KINDS)),
  description: z.optional(description),
});
export type CreateWebhook = z.output<typeof CreateWebhookSchema>;

/** `PATCH /api/admin/webhooks/{id}`: what changes; `state` `active` or `paused` (a disabled endpoint is made active again by the team). */
export const UpdateWebhookSchema = z.strictObject({
  url: z.optional(WebhookUrlSchema),
  events: z.optional(events),
  payload: z.optional(z.enum(WEBHOOK_PAYLOADS)),
  description: z.optional(description),
  state: z.optional(z.enum(['active', 'paused'])),
});
export type UpdateWebhook = z.output<typeof UpdateWebhookSchema>;

/** An endpoint as the inbox API shows it (never its secret, which is shown once: {@link WebhookSecretSchema}). */
export const WebhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  kind: z.enum(WEBHOOK_KINDS),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  payload: z.enum(WEBHOOK_PAYLOADS),
  description: z.string(),
  state: z.enum(WEBHOOK_STATES),
  disabledReason: z.nullable(z.string()),
  createdAt: z.string(),
  createdBy: z.string(),
  updatedAt: z.string(),
});
export type WebhookEndpoint = z.output<typeof WebhookEndpointSchema>;

/** A new endpoint's, or a rotated, signing secret (`whsec_…`), shown once. */
export const WebhookSecretSchema = z.object({ id: z.string(), secret: z.string() });

/** One delivery as the delivery log shows it: times ISO-8601 UTC, `latencyMs` of the last attempt. */
export const WebhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  type: z.enum(DELIVERY_TYPES),
  occurredAt: z.string(),
  applicationId: z.nullable(z.string()),
  pageId: z.nullable(z.string()),
  state: z.enum(DELIVERY_STATES),
  attempts: z.number(),
  lastStatus: z.nullable(z.number()),
  lastError: z.nullable(z.string()),
  latencyMs: z.nullable(z.number()),
  nextAttemptAt: z.nullable(z.string()),
  deliveredAt: z.nullable(z.string()),
  createdAt: z.string(),
});
export type WebhookDelivery = z.output<typeof WebhookDeliverySchema>;
