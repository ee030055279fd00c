import { keepPreviousData, useInfiniteQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { ApplicationList, ApplicationListItem } from '../shared/admin';
import { api } from './api';

/** The query key prefix of every view's list pages: invalidated after a decision or a tag change. */
export const APPLICATIONS_KEY = ['applications'] as const;

/** The query key of one application's detail: read again after every change made on it. */
export const applicationKey = (id: string) => ['application', id] as const;

/** The path of one page of a view's list: its query string, and the cursor of the page before (none for the first). */
function pagePath(view: string, cursor: string | undefined): string {
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
    queryFn: ({ pageParam }) => api<ApplicationList>(pagePath(view, pageParam)),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/**
 * Changes the items of every cached view at once (`change` returns the item as it is now), before
 * they are read again: what a decision changed shows without waiting for the server.
 */
export function updateCachedItems(queryClient: QueryClient, change: (item: ApplicationListItem) => ApplicationListItem) {
  queryClient.setQueriesData<InfiniteData<ApplicationList>>({ queryKey: APPLICATIONS_KEY }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map(change) })) } : data,
  );
}
