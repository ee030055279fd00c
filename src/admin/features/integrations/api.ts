import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateWebhook, UpdateWebhook, WebhookDelivery, WebhookEndpoint } from '../../../shared/webhooks';
import { api } from '../../api';

/** The webhook endpoints' calls (`/api/admin/webhooks`: docs/integrations.md "API"). */

/** The endpoints: `[…WEBHOOKS_KEY]`; an endpoint's delivery log: `[…WEBHOOKS_KEY, id, 'deliveries']`. */
const WEBHOOKS_KEY = ['webhooks'] as const;

/** How often a delivery log shown is read again: every 2 s while a delivery waits, else every 5 s (new events arrive). */
const LOG_REFRESH_MS = { waiting: 2_000, idle: 5_000 };

/** Every endpoint (`GET /webhooks`). */
export function useWebhooks() {
  return useQuery({ queryKey: WEBHOOKS_KEY, queryFn: () => api<WebhookEndpoint[]>('/webhooks') });
}

/** An endpoint's delivery log, newest first (`GET /webhooks/{id}/deliveries`), read again while it is shown ({@link LOG_REFRESH_MS}). */
export function useDeliveries(id: string | undefined) {
  return useQuery({
    queryKey: [...WEBHOOKS_KEY, id, 'deliveries'],
    queryFn: () => api<{ items: WebhookDelivery[]; next: string | null }>(`/webhooks/${encodeURIComponent(id!)}/deliveries`),
    enabled: id !== undefined,
    refetchInterval: (query) => (query.state.data?.items.some((delivery) => delivery.state === 'pending') ? LOG_REFRESH_MS.waiting : LOG_REFRESH_MS.idle),
  });
}

/**
 * The changes editors make (each reads the endpoints, and the log it touched, again): add (answers
 * the secret, shown once), change (pause, resume), delete, rotate the secret (answers the new one),
 * send a test event, replay a delivery.
 */
export function useWebhookChanges() {
  const queryClient = useQueryClient();
  const reload = () => void queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY });
  const options = { onSuccess: reload };
  const path = (id: string, rest = '') => `/webhooks/${encodeURIComponent(id)}${rest}`;
  return {
    create: useMutation({ mutationFn: (body: CreateWebhook) => api<{ id: string; secret: string }>('/webhooks', { method: 'POST', body }), ...options }),
    update: useMutation({
      mutationFn: ({ id, change }: { id: string; change: UpdateWebhook }) => api<WebhookEndpoint>(path(id), { method: 'PATCH', body: change }),
      ...options,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api(path(id), { method: 'DELETE' }),
      // Gone from the list at once, and its log with it (read again, it would be a 404).
      onSuccess: (_result, id) => {
        queryClient.setQueryData<WebhookEndpoint[]>(WEBHOOKS_KEY, (list) => list?.filter((endpoint) => endpoint.id !== id));
        queryClient.removeQueries({ queryKey: [...WEBHOOKS_KEY, id] });
        void queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY, exact: true });
      },
    }),
    rotate: useMutation({ mutationFn: (id: string) => api<{ id: string; secret: string }>(path(id, '/rotate-secret'), { method: 'POST' }), ...options }),
    test: useMutation({ mutationFn: (id: string) => api<WebhookDelivery>(path(id, '/test'), { method: 'POST' }), ...options }),
    replay: useMutation({
      mutationFn: ({ id, deliveryId }: { id: string; deliveryId: string }) =>
        api<WebhookDelivery>(path(id, `/deliveries/${encodeURIComponent(deliveryId)}/retry`), { method: 'POST' }),
      ...options,
    }),
  };
}
