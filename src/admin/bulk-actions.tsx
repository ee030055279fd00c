import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ApplicationStatus, BulkTagsResult } from '../shared/admin';
import { api } from './api';
import { APPLICATIONS_KEY, updateCachedItems } from './applications-query';
import { STATUS_LABELS } from './format';
import { Options, STATUS_CHOICES, useTagChoices, useTags } from './options';
import { invalidateCounts } from './status-tabs';

const plural = (count: number) => `${count} ${count === 1 ? 'application' : 'applications'}`;
const reason = (error: unknown) => (error instanceof Error ? error.message : 'try again');

/**
 * The bulk bar (editors only): how many applications are selected, one status for all of them
 * (`PATCH /applications`), and a team tag added to or removed from all of them (`POST
 * /applications/tags`). What changed shows at once in every cached view, then the views
 * and the tabs' counts are read again; each outcome is said through `onSaid` (the list's live
 * region). A status change ends the selection; a tag change keeps it, so that another tag can follow.
 * The tag controls show only while applications are selected.
 * @param ids - the selected applications' ids.
 * @param onDecided - called after a status change (the caller clears the selection).
 */
export function BulkActions({ ids, onSaid, onDecided }: { ids: readonly string[]; onSaid: (message: string) => void; onDecided: () => void }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<ApplicationStatus>('shortlisted');
  const { tags } = useTags();
  const tagChoices = useTagChoices();
  const [tagId, setTagId] = useState('');
  const chosen = tags.find((tag) => tag.id === tagId) ?? tags[0];

  const refresh = async () => {
    await Promise.all([queryClient.invalidateQueries({ queryKey: APPLICATIONS_KEY }), invalidateCounts(queryClient)]);
  };
  const decide = useMutation({
    mutationFn: async () => {
      // An older read of the list must not land over the change.
      await queryClient.cancelQueries({ queryKey: APPLICATIONS_KEY });
      return api<{ updated: number }>('/applications', { method: 'PATCH', body: { ids, status } });
    },
    onSuccess: ({ updated }) => {
      const changed = new Set(ids);
      updateCachedItems(queryClient, (item) => (changed.has(item.id) ? { ...item, status } : item));
      onDecided();
      onSaid(`${plural(updated)} set to ${STATUS_LABELS[status]}.`);
      void refresh();
    },
    onError: (error) => onSaid(`The status could not be changed: ${reason(error)}.`),
  });
  const tag = useMutation({
    mutationFn: async ({ add }: { add: boolean }) => {
      await queryClient.cancelQueries({ queryKey: APPLICATIONS_KEY });
      return api<BulkTagsResult>('/applications/tags', { method: 'POST', body: { ids, ...(add ? { add: [chosen!.id] } : { remove: [chosen!.id] }) } });
    },
    onSuccess: ({ updated, notFound }, { add }) => {
      const changed = new Set(ids);
      updateCachedItems(queryClient, (item) => {
        if (!changed.has(item.id)) return item;
        const others = item.tags.filter((own) => own.id !== chosen!.id);
        return { ...item, tags: add ? [...others, chosen!].sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase())) : others };
      });
      const gone = notFound.length > 0 ? ` ${plural(notFound.length)} no longer ${notFound.length === 1 ? 'exists' : 'exist'}.` : '';
      onSaid(`${add ? `Tag ${chosen!.name} added to` : `Tag ${chosen!.name} removed from`} ${plural(updated)}.${gone}`);
      void refresh();
    },
    onError: (error) => onSaid(`The tags could not be changed: ${reason(error)}.`),
  });
  const none = ids.length === 0;
  const pending = decide.isPending || tag.isPending;

  return (
    <div className="bulk" role="group" aria-label="Selected applications">
      <span className="bulk-count">{ids.length} selected</span>
      <div className="bulk-set">
        <label>
          New status
          <select value={status} onChange={(event) => setStatus(event.target.value as ApplicationStatus)}>
            <Options choices={STATUS_CHOICES} />
          </select>
        </label>
        <button type="button" disabled={none || pending} onClick={() => decide.mutate()}>
          Set status of selected
        </button>
      </div>
      {/* Tagging shows once applications are selected (the bar stays short on a phone). */}
      {none ? null : tags.length > 0 ? (
        <div className="bulk-set">
          <label>
            Team tag
            <select value={chosen?.id ?? ''} onChange={(event) => setTagId(event.target.value)}>
              <Options choices={tagChoices} />
            </select>
          </label>
          <button type="button" className="secondary" disabled={none || pending} onClick={() => tag.mutate({ add: true })}>
            Add tag to selected
          </button>
          <button type="button" className="secondary" disabled={none || pending} onClick={() => tag.mutate({ add: false })}>
            Remove tag from selected
          </button>
        </div>
      ) : (
        <p className="hint">No team tags yet: create one on an application to tag a selection.</p>
      )}
    </div>
  );
}
