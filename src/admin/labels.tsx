import type { Tag } from '../shared/admin';
import { FLAG_SIZE, flagUrl } from '../shared/data/flags';
import { countryName } from './format';

/** A country with its flag (decorative: the name says it), as the list and the creator panel show it. */
export function CountryWithFlag({ code }: { code: string }) {
  return (
    <>
      <img className="flag" src={flagUrl(code)} alt="" width={FLAG_SIZE.width} height={FLAG_SIZE.height} /> {countryName(code)}
    </>
  );
}

/** An application's tags as chips, by name; nothing when it has none. */
export function TagChips({ tags, label }: { tags: readonly Tag[]; label: string }) {
  if (tags.length === 0) return null;
  return (
    <ul className="tag-list compact" aria-label={label}>
      {tags.map((tag) => (
        <li key={tag.id} className="tag-chip">
          <bdi>{tag.name}</bdi>
        </li>
      ))}
    </ul>
  );
}

/**
 * What the inbox says aloud when it moves on (decision 020), in one place: the triage's outcomes,
 * the end of a view, "Load more".
 */
export const SAID = {
  /** A decision in the detail: `Ada Lovelace: shortlisted. Showing the next application.` */
  decided: (name: string, status: string, next: boolean) => `${name}: ${status.toLowerCase()}. ${next ? 'Showing the next application.' : 'End of this view.'}`,
  /** A decision undone (z, or the Undo beside its outcome): the status is back, and a decision e-mail not yet sent is cancelled (docs/email.md). */
  undone: (name: string, status: string) => `Undone: ${name} is ${status.toLowerCase()} again; a decision e-mail not yet sent is cancelled.`,
  /** z with no decision to undo. */
  nothingToUndo: 'No decision to undo.',
  /** j or k with nothing further that way. */
  endOfView: 'End of this view.',
  /** s, a or d pressed by a viewer. */
  viewerCannotDecide: 'Viewers cannot change status.',
  /** After the e-mail log's "Load more": how many messages came, and whether more remain. */
  messagesLoaded: (count: number, more: boolean) => `${count} more ${count === 1 ? 'message' : 'messages'} loaded${more ? '; more remain' : ''}.`,
  /** After "Load more": how many came, and whether more remain. */
  loaded: (count: number, more: boolean) => `${count} more ${count === 1 ? 'application' : 'applications'} loaded${more ? '; more remain' : ''}.`,
} as const;
