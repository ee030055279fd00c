import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api';
import { invalidateApplications } from '../keys';

/** A person's data (`/api/admin/people/…`: docs/privacy.md), editors only. */

/** The address of a person's data as one JSON file (`GET /people/export`): a download, the browser's own. */
export function personExportPath(email: string): string {
  return `/api/admin/people/export?email=${encodeURIComponent(email.trim())}`;
}

/** Erases everything kept about the person who applied as an address (`POST /people/erase`); the lists and counts are read again. */
export function useErasePerson() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => api<{ erased: number }>('/people/erase', { method: 'POST', body: { email: email.trim() } }),
    onSuccess: () => invalidateApplications(queryClient),
  });
}
