import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Tag } from '../../../shared/admin';
import { api } from '../../api';
import { applicationKey, applicationPath, invalidateApplications } from '../keys';

/** The team's tags' calls (`/api/admin/tags`, an application's tags: docs/inbox.md "Notes and tags"), their query key and hooks. */

/** The query key of the team's tags (`GET /api/admin/tags`): read again when a tag is created. */
const TAGS_KEY = ['tags'] as const;

/** The team's tags, cached by TanStack Query; `[]` until they arrive, `failed` when they cannot be read. */
export function useTags(): { tags: Tag[]; failed: boolean } {
  const query = useQuery({ queryKey: TAGS_KEY, queryFn: () => api<Tag[]>('/tags') });
  return { tags: query.data ?? [], failed: query.isError };
}

/** Creates a team tag (`POST /tags` with `{ name }`; an existing name in another case answers that tag); the team's tags are read again. */
export function useCreateTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api<Tag>('/tags', { method: 'POST', body: { name } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TAGS_KEY }),
  });
}

/**
 * Sets an application's whole set of tags (`PUT /applications/{id}/tags` with `{ tagIds }`); once
 * stored, the application and the lists (which show tags and filter by them) are read again.
 */
export function useSetApplicationTags(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tagIds: readonly string[]) => api<Tag[]>(applicationPath(applicationId, '/tags'), { method: 'PUT', body: { tagIds } }),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: applicationKey(applicationId) }), invalidateApplications(queryClient)]),
  });
}
