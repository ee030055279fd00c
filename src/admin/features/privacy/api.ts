import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PersonExport } from '../../../shared/person';
import { api } from '../../api';
import { invalidateApplications } from '../keys';

/** A person's data (`/api/admin/people/…`: docs/privacy.md), editors only. */

/** Everything kept about the person who applied as an address (`GET /people/export`), to be saved as one file. */
export function exportPerson(email: string): Promise<PersonExport> {
  return api<PersonExport>(`/people/export?email=${encodeURIComponent(email.trim())}`);
}

/** How many applications an erasure of the address would take (`GET /people/erasure`): said before asking. */
export function erasureCount(email: string): Promise<number> {
  return api<{ applications: number }>(`/people/erasure?email=${encodeURIComponent(email.trim())}`).then((answer) => answer.applications);
}

/** Erases everything kept about the person who applied as an address (`POST /people/erase`); the lists and counts are read again. */
export function useErasePerson() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => api<{ erased: number }>('/people/erase', { method: 'POST', body: { email: email.trim() } }),
    onSuccess: () => invalidateApplications(queryClient),
  });
}
