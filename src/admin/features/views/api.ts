import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SavedView } from '../../../shared/admin';
import { api } from '../../api';

/** The signed-in user's saved views' calls (`/api/admin/views`: docs/inbox.md "Sorts, answer filters, saved views and triage"). */

/** The query key of the signed-in user's saved views. */
const VIEWS_KEY = ['views'] as const;

/** The signed-in user's saved views (`GET /views`). */
export function useSavedViews() {
  return useQuery({ queryKey: VIEWS_KEY, queryFn: () => api<SavedView[]>('/views') });
}

/**
 * Saves a view (`POST /views` with `{ name, query }`: a name saved before is replaced) and deletes
 * one (`DELETE /views/{id}`, resolving to the view deleted, for an undo); each reads the views again,
 * not waited for: what the component says of the change comes first, as the list changes after.
 * `restored` marks a save that undoes a deletion (the component says so).
 */
export function useSavedViewChanges() {
  const queryClient = useQueryClient();
  const reload = () => void queryClient.invalidateQueries({ queryKey: VIEWS_KEY });
  const save = useMutation({
    mutationFn: (view: { name: string; query: string; restored?: boolean }) =>
      api<SavedView>('/views', { method: 'POST', body: { name: view.name, query: view.query } }),
    onSuccess: reload,
  });
  const remove = useMutation({
    mutationFn: (view: SavedView) => api(`/views/${encodeURIComponent(view.id)}`, { method: 'DELETE' }).then(() => view),
    onSuccess: reload,
  });
  return { save, remove };
}
