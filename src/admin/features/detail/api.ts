import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApplicationDetail, ApplicationStatus, Neighbours } from '../../../shared/admin';
import { api } from '../../api';
import { NEIGHBOURS_KEY, applicationKey, applicationPath, invalidateApplications } from '../keys';

/**
 * An application's page's calls (`GET`, `PATCH` and `DELETE /api/admin/applications/{id}`, its
 * previous and next in a view: docs/inbox.md "API"), their query keys and hooks.
 */

/** The query options of one application's detail, for {@link useApplication} and for several at once (`useQueries`). */
const detailQuery = (id: string) => ({ queryKey: applicationKey(id), queryFn: () => api<ApplicationDetail>(applicationPath(id)) });

/**
 * One application (`GET /applications/{id}`): read again whenever its page is opened, so a decision,
 * a note or a tag made by someone else shows.
 */
export function useApplication(id: string) {
  return useQuery({ ...detailQuery(id), staleTime: 0 });
}

/** Several applications at once (the earlier applications compared beside one), each cached as {@link useApplication}'s. */
export function useApplicationsById(ids: readonly string[]) {
  return useQueries({ queries: ids.map(detailQuery) });
}

/** The previous and next application of `view` around `id` (`GET /applications/{id}/neighbours`). */
export function useNeighbours(id: string, view: string) {
  return useQuery({
    queryKey: [...NEIGHBOURS_KEY, id, view],
    queryFn: () => api<Neighbours>(applicationPath(id, `/neighbours${view ? `?${view}` : ''}`)),
  });
}

/**
 * A status change of one application (`PATCH /applications/{id}`: the page's own, or the one a
 * decision just moved on from, to undo it); once stored, the application and what the change makes
 * stale elsewhere (lists, counts, summaries, previous and next) are read again, and the mutation
 * resolves when the application has been.
 */
export function useDecide() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: ApplicationStatus }) => api(applicationPath(id), { method: 'PATCH', body: { status } }),
    onSuccess: (_, { id }) => Promise.all([queryClient.invalidateQueries({ queryKey: applicationKey(id) }), invalidateApplications(queryClient)]),
  });
}

/** Erases one application (`DELETE /applications/{id}`, editors): its cached detail is dropped, the lists and counts read again. */
export function useErase(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api(applicationPath(id), { method: 'DELETE' }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: applicationKey(id) });
      return invalidateApplications(queryClient, id);
    },
  });
}
