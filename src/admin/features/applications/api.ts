import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { ApplicationCounts, ApplicationList, ApplicationListItem, ApplicationStatus, BulkTagsResult, Tag } from '../../../shared/admin';
import { api, queryString } from '../../api';
import { APPLICATIONS_KEY, COUNTS_KEY, invalidateApplications, type Reactions, type ViewFilters } from '../keys';

/**
 * The applications list's calls (`GET /api/admin/applications`, its counts, and the bulk changes:
 * docs/inbox.md "API"), their query keys and the TanStack Query hooks the list's components use.
 */

/** The path of one page of a view's list: its query string, and the cursor of the page before (none for the first). */
function listPagePath(view: string, cursor: string | undefined): string {
  const params = new URLSearchParams(view);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return `/applications${query ? `?${query}` : ''}`;
}

/**
 * A view's applications (`GET /api/admin/applications`, requirements §17) as TanStack Query's infinite
 * query: one page per cursor, keyed by the view's query string (its filters, sort and direction,
 * in one order), so each view keeps its own pages and a view opened again shows them at once while
 * they are read again. Read again whenever the list is shown (a decision taken on an application's
 * page changes them). A view not read yet shows the previous view's rows (`aria-busy`) until its own
 * arrive, as the list did before TanStack Query: the rows never blink away on a filter change.
 * @param view - the view's query string, without `?` ('' for all, newest first).
 */
export function useApplications(view: string) {
  return useInfiniteQuery({
    queryKey: [...APPLICATIONS_KEY, view],
    queryFn: ({ pageParam }) => api<ApplicationList>(listPagePath(view, pageParam)),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/**
 * How many applications `filters` match in each status (`GET /applications/counts`; the status, sort
 * and direction left out, so each tab can show its count). Read again whenever the tabs are shown:
 * a decision made on an application's page changes them.
 */
export function useApplicationCounts(filters: ViewFilters) {
  const counted = { ...filters, status: undefined, sort: undefined, dir: undefined };
  return useQuery({
    queryKey: [...COUNTS_KEY, counted],
    queryFn: () => api<ApplicationCounts>(`/applications/counts${queryString(counted)}`),
    staleTime: 0,
  });
}

/**
 * Changes the items of every cached view at once (`change` returns the item as it is now), before
 * they are read again: what a bulk change changed shows without waiting for the server (the hooks'
 * reactions run after it).
 */
function updateCachedItems(queryClient: QueryClient, change: (item: ApplicationListItem) => ApplicationListItem) {
  queryClient.setQueriesData<InfiniteData<ApplicationList>>({ queryKey: APPLICATIONS_KEY }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map(change) })) } : data,
  );
}

/**
 * One status for many applications (`PATCH /applications` with `{ ids, status }`): an older read of
 * the lists is cancelled first, the cached rows change at once, then what it changed is read again
 * ({@link invalidateApplications}).
 */
export function useBulkStatus(reactions: Reactions<{ updated: number }, { ids: readonly string[]; status: ApplicationStatus }> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ ids, status }: { ids: readonly string[]; status: ApplicationStatus }) => {
      // An older read of the list must not land over the change.
      await queryClient.cancelQueries({ queryKey: APPLICATIONS_KEY });
      return api<{ updated: number }>('/applications', { method: 'PATCH', body: { ids, status } });
    },
    onSuccess: (result, variables) => {
      const changed = new Set(variables.ids);
      updateCachedItems(queryClient, (item) => (changed.has(item.id) ? { ...item, status: variables.status } : item));
      reactions.onSuccess?.(result, variables);
      void invalidateApplications(queryClient);
    },
    onError: reactions.onError,
  });
}

/** A team tag added to or removed from many applications (`POST /applications/tags`), as {@link useBulkStatus} does. */
export function useBulkTags(reactions: Reactions<BulkTagsResult, { ids: readonly string[]; tag: Tag; add: boolean }> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ ids, tag, add }: { ids: readonly string[]; tag: Tag; add: boolean }) => {
      await queryClient.cancelQueries({ queryKey: APPLICATIONS_KEY });
      return api<BulkTagsResult>('/applications/tags', { method: 'POST', body: { ids, ...(add ? { add: [tag.id] } : { remove: [tag.id] }) } });
    },
    onSuccess: (result, variables) => {
      const changed = new Set(variables.ids);
      updateCachedItems(queryClient, (item) => {
        if (!changed.has(item.id)) return item;
        const others = item.tags.filter((own) => own.id !== variables.tag.id);
        return {
          ...item,
          tags: variables.add ? [...others, variables.tag].sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase())) : others,
        };
      });
      reactions.onSuccess?.(result, variables);
      void invalidateApplications(queryClient);
    },
    onError: reactions.onError,
  });
}
