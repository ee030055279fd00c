import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateWebhookSchema,
  UpdateWebhookSchema,
  WebhookDeliverySchema,
  WebhookEndpointSchema,
  WebhookSecretSchema,
  type WebhookEndpoint,
} from '../../../shared/webhooks';
import { z } from '../../../shared/zod';
import { problemResponses, sendProblem } from '../../problem';
import type { AddressPolicy } from '../../webhooks/address-policy';
import { IdParams } from './params';

/** What {@link webhookRoutes} is registered with. */
export interface WebhookRoutesOptions {
  /** Where a delivery may connect (`WEBHOOK_ALLOW_NETWORKS`): an address in the URL it refuses is refused at once. */
  policy: AddressPolicy;
  /** Called after a change that makes a delivery due now (a test event, a replay): the sender looks at once. */
  poke?: () => void;
  /** Called after an endpoint changed (its URL, secret, state, or deleted): this process's sender reads it again. */
  changed?: (id: string) => void;
}

const NO_ENDPOINT = 'There is no such webhook endpoint.';
const NOT_ALLOWED = 'Webhooks may not point at this address.';

/** The deliveries a page of the log holds. */
const DELIVERIES_PER_PAGE = 50;

const DeliveryParams = z.object({ id: IdParams.shape.id, deliveryId: IdParams.shape.id });
const DeliveriesQuery = z.object({
  /** The `createdAt` and id of the last delivery of the page before, as `{createdAt}|{id}`. */
  before: z.optional(z.string().check(z.regex(/^[^|]+\|[^|]+$/, 'expected "{createdAt}|{id}" of the last delivery shown'))),
});

/**
 * Why `url` is refused before any delivery (docs/integrations.md, "Where a webhook may point"): an
 * address, or `localhost`, that the policy does not allow. A name is checked again, with its
 * addresses, at each delivery (http.ts).
 */
function urlProblem(url: string, policy: AddressPolicy): string | undefined {
  const host = new URL(url).hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  const address = isIP(host) ? host : host === 'localhost' || host.endsWith('.localhost') ? '127.0.0.1' : undefined;
  if (address !== undefined && !policy(address))
    return `${host} is a private, loopback or link-local address: the operator may allow its network with WEBHOOK_ALLOW_NETWORKS`;
  return undefined;
}

/**
 * Webhook endpoints, inside the authenticated inbox API (docs/integrations.md, "API"): every
 * signed-in user reads them (a viewer sees each URL's origin only) and their delivery logs;
 * editors add, change, pause, delete, rotate
 * the secret of, test and replay (403 for a viewer). A new endpoint's secret, and a rotated one,
 * is answered once and never shown again.
 */
export const webhookRoutes: FastifyPluginAsyncZod<WebhookRoutesOptions> = async (app, options) => {
  const webhooks = app.store.webhooks;
  const refused = (url: string | undefined) => (url === undefined ? undefined : urlProblem(url, options.policy));

  // An endpoint's URL may itself be a credential (a Slack incoming webhook's, a token in a query):
  // a viewer sees where it points, not the whole of it.
  const shown = (request: FastifyRequest, endpoint: WebhookEndpoint): WebhookEndpoint =>
    request.adminUser?.role === 'owner' ? endpoint : { ...endpoint, url: `${new URL(endpoint.url).origin}/…` };

  app.get('/webhooks', { schema: { response: { 200: z.array(WebhookEndpointSchema) } } }, async (request) =>
    (await webhooks.list()).map((endpoint) => shown(request, endpoint)),
  );

  app.post(
    '/webhooks',
    {
      schema: {
        body: CreateWebhookSchema,
        response: { 201: z.object({ ...WebhookSecretSchema.shape, endpoint: WebhookEndpointSchema }), ...problemResponses(422) },
      },
      config: { invalid: 'The endpoint is not valid.' },
      preValidation: app.requireOwner,
    },
    async (request, reply) => {
      const problem = refused(request.body.url);
      if (problem) return sendProblem(reply, 422, NOT_ALLOWED, { errors: [{ path: 'url', message: problem }] });
      const { endpoint, secret } = await webhooks.create(request.body, request.adminUser!.email);
      return reply.code(201).send({ id: endpoint.id, secret, endpoint });
    },
  );

  app.get('/webhooks/:id', { schema: { params: IdParams, response: { 200: WebhookEndpointSchema } } }, async (request, reply) => {
    const endpoint = await webhooks.get(request.params.id);
    return endpoint ? shown(request, endpoint) : sendProblem(reply, 404, NO_ENDPOINT);
  });

  app.patch(
    '/webhooks/:id',
    {
      schema: { params: IdParams, body: UpdateWebhookSchema, response: { 200: WebhookEndpointSchema, ...problemResponses(422) } },
      config: { invalid: 'The change is not valid.' },
      preValidation: app.requireOwner,
    },
    async (request, reply) => {
      const problem = refused(request.body.url);
      if (problem) return sendProblem(reply, 422, NOT_ALLOWED, { errors: [{ path: 'url', message: problem }] });
      const endpoint = await webhooks.update(request.params.id, request.body);
      if (!endpoint) return sendProblem(reply, 404, NO_ENDPOINT);
      options.changed?.(endpoint.id);
      if (request.body.state === 'active') options.poke?.();
      return endpoint;
    },
  );

  app.delete('/webhooks/:id', { schema: { params: IdParams, response: { 204: z.void() } }, preValidation: app.requireOwner }, async (request, reply) => {
    if (!(await webhooks.remove(request.params.id))) return sendProblem(reply, 404, NO_ENDPOINT);
    options.changed?.(request.params.id);
    return reply.code(204).send();
  });

  app.post(
    '/webhooks/:id/rotate-secret',
    { schema: { params: IdParams, response: { 200: WebhookSecretSchema } }, preValidation: app.requireOwner },
    async (request, reply) => {
      const secret = await webhooks.rotateSecret(request.params.id);
      options.changed?.(request.params.id);
      return secret === undefined ? sendProblem(reply, 404, NO_ENDPOINT) : { id: request.params.id, secret };
    },
  );

  app.post(
    '/webhooks/:id/test',
    { schema: { params: IdParams, response: { 201: WebhookDeliverySchema } }, preValidation: app.requireOwner },
    async (request, reply) => {
      const delivery = await webhooks.test(request.params.id);
      if (!delivery) return sendProblem(reply, 404, NO_ENDPOINT);
      options.poke?.();
      return reply.code(201).send(delivery);
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        params: IdParams,
        querystring: DeliveriesQuery,
        response: { 200: z.object({ items: z.array(WebhookDeliverySchema), next: z.nullable(z.string()) }) },
      },
    },
    async (request, reply) => {
      const [createdAt, id] = request.query.before?.split('|') ?? [];
      const items = await webhooks.deliveries(request.params.id, DELIVERIES_PER_PAGE, createdAt && id ? { createdAt, id } : undefined);
      if (!items) return sendProblem(reply, 404, NO_ENDPOINT);
      const last = items.at(-1);
      return { items, next: items.length === DELIVERIES_PER_PAGE && last ? `${last.createdAt}|${last.id}` : null };
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/retry',
    { schema: { params: DeliveryParams, response: { 200: WebhookDeliverySchema, ...problemResponses(409) } }, preValidation: app.requireOwner },
    async (request, reply) => {
      const delivery = await webhooks.retry(request.params.id, request.params.deliveryId);
      if (delivery === 'missing') return sendProblem(reply, 404, 'The endpoint has no such delivery.');
      if (delivery === 'cancelled') return sendProblem(reply, 409, 'This delivery was cancelled: its application was erased.');
      options.poke?.();
      return delivery;
    },
  );
};
