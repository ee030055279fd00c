import { useState } from 'react';
import type { ApplicationStatus } from '../shared/admin';
import { useBulkStatus, useBulkTags } from './features/applications/api';
import { useTags } from './features/tags/api';
import { STATUS_LABELS } from './format';
import { Options, STATUS_CHOICES, useTagChoices } from './options';

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
  const [status, setStatus] = useState<ApplicationStatus>('shortlisted');
  const { tags } = useTags();
  const tagChoices = useTagChoices();
  const [tagId, setTagId] = useState('');
  const chosen = tags.find((tag) => tag.id === tagId) ?? tags[0];

  const decide = useBulkStatus({
    onSuccess: ({ updated }, { status: decided }) => {
      onDecided();
      onSaid(`${plural(updated)} set to ${STATUS_LABELS[decided]}.`);
    },
    onError: (error) => onSaid(`The status could not be changed: ${reason(error)}.`),
  });
  const tag = useBulkTags({
    onSuccess: ({ updated, notFound }, { tag: changed, add }) => {
      const gone = notFound.length > 0 ? ` ${plural(notFound.length)} no longer ${notFound.length === 1 ? 'exists' : 'exist'}.` : '';
      onSaid(`${add ? `Tag ${changed.name} added to` : `Tag ${changed.name} removed from`} ${plural(updated)}.${gone}`);
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
        <button type="button" disabled={none || pending} onClick={() => decide.mutate({ ids, status })}>
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
          <button type="button" className="secondary" disabled={none || pending} onClick={() => chosen && tag.mutate({ ids, tag: chosen, add: true })}>
            Add tag to selected
          </button>
          <button type="button" className="secondary" disabled={none || pending} onClick={() => chosen && tag.mutate({ ids, tag: chosen, add: false })}>
            Remove tag from selected
          </button>
        </div>
      ) : (
        <p className="hint">No team tags yet: create one on an application to tag a selection.</p>
      )}
    </div>
  );
}
