import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Note } from '../../../shared/admin';
import { api } from '../../api';
import { applicationKey, applicationPath } from '../keys';

/**
 * An application's notes' calls (`/api/admin/applications/{id}/notes`: docs/inbox.md "Notes and
 * tags"). The notes come with the application's detail; each change, once stored, reads the
 * application again, and its mutation resolves when it has (the thread then shows the change).
 */
export function useNoteChanges(applicationId: string) {
  const queryClient = useQueryClient();
  const notes = applicationPath(applicationId, '/notes');
  const reload = () => queryClient.invalidateQueries({ queryKey: applicationKey(applicationId) });
  const add = useMutation({ mutationFn: (text: string) => api<Note>(notes, { method: 'POST', body: { text } }), onSuccess: reload });
  const edit = useMutation({
    mutationFn: ({ noteId, text }: { noteId: string; text: string }) =>
      api<Note>(`${notes}/${encodeURIComponent(noteId)}`, { method: 'PATCH', body: { text } }),
    onSuccess: reload,
  });
  const remove = useMutation({ mutationFn: (noteId: string) => api(`${notes}/${encodeURIComponent(noteId)}`, { method: 'DELETE' }), onSuccess: reload });
  return { add, edit, remove };
}
