import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EmailKind, EmailLogEntry, EmailMessage, EmailState, NotificationMode, NotificationSetting } from '../../../shared/emails';
import { api } from '../../api';

/** The e-mail's calls (`/api/admin/emails`, `/api/admin/notifications`: docs/email.md "API"). */

/** The log: `[…EMAILS_KEY, 'log']`; a message: `[…EMAILS_KEY, id]`; the member's settings: `[…EMAILS_KEY, 'notifications']`. */
const EMAILS_KEY = ['emails'] as const;

/** How often the log shown is read again: every 2 s while a message waits for an attempt due soon, else every 10 s. */
const LOG_REFRESH_MS = { waiting: 2_000, idle: 10_000 };

/** Which messages the log shows: every kind and state, or one of each. */
export interface EmailLogFilter {
  kind?: EmailKind;
  state?: EmailState;
}

/**
 * The e-mail log, newest first (`GET /emails`), page after page ("Load more": 50 a page), only the
 * messages `filter` names; read again while it is shown ({@link LOG_REFRESH_MS}).
 */
export function useEmailLog(filter: EmailLogFilter) {
  return useInfiniteQuery({
    queryKey: [...EMAILS_KEY, 'log', filter.kind ?? '', filter.state ?? ''],
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams(Object.entries({ ...filter, before: pageParam }).filter((entry): entry is [string, string] => entry[1] !== undefined));
      return api<{ items: EmailLogEntry[]; next: string | null }>(`/emails${query.size > 0 ? `?${query}` : ''}`);
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) =>
        page.items.some((message) => message.state === 'pending' && Date.parse(message.nextAttemptAt ?? '') - Date.now() < 60_000),
      )
        ? LOG_REFRESH_MS.waiting
        : LOG_REFRESH_MS.idle,
  });
}

/** One message with its content (`GET /emails/{id}`). */
export function useEmailMessage(id: string | undefined) {
  return useQuery({ queryKey: [...EMAILS_KEY, id], queryFn: () => api<EmailMessage>(`/emails/${encodeURIComponent(id!)}`), enabled: id !== undefined });
}

/** The path of a message's HTML, for a frame. */
export function emailHtmlPath(id: string): string {
  return `/api/admin/emails/${encodeURIComponent(id)}/html`;
}

/** The member's own notification settings, per page (`GET /notifications`). */
export function useNotificationSettings() {
  return useQuery({ queryKey: [...EMAILS_KEY, 'notifications'], queryFn: () => api<NotificationSetting[]>('/notifications') });
}

/** Sets the member's mode for a page (`PUT /notifications/{pageId}`); the list shows it once saved. */
export function useSetNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ pageId, mode }: { pageId: string; mode: NotificationMode }) =>
      api<NotificationSetting>(`/notifications/${encodeURIComponent(pageId)}`, { method: 'PUT', body: { mode } }),
    onSuccess: (setting) =>
      queryClient.setQueryData<NotificationSetting[]>([...EMAILS_KEY, 'notifications'], (list) =>
        list?.map((item) => (item.pageId === setting.pageId ? setting : item)),
      ),
  });
}

/** The path of the builder's preview of a page's message, from its saved draft, for a frame. */
export function emailPreviewPath(pageId: string, kind: string): string {
  return `/api/admin/pages/${encodeURIComponent(pageId)}/email-preview/${encodeURIComponent(kind)}`;
}
