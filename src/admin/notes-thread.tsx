import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { MAX_NOTE_LENGTH, type Note } from '../shared/admin';
import { useNoteChanges } from './features/notes/api';
import { formatDateTime, formatRelativeTime } from './format';

/** Where focus goes after an edit, or its cancellation, has been rendered: the note. */
type After = { focus: 'note'; noteId: string };

/**
 * The team's conversation on an application: its notes, oldest first, each with its
 * author, when it was written (relative, the exact time on hover and in `dateTime`) and whether
 * it was edited; the text shown as text, never HTML, in its own direction (`dir="auto"`). An
 * editor adds notes and edits or deletes their own (delete asks again). After a change the thread
 * is read again (features/notes), focus goes to the changed note (or back to the new note's field
 * after an add or a delete), and a polite live region says what happened.
 * @param applicationId - the application whose notes these are.
 * @param notes - the thread, oldest first (the detail's `notes`).
 * @param userEmail - the signed-in user: their notes can be edited and deleted.
 * @param canEdit - an editor (viewers read only).
 */
export function NotesThread({ applicationId, notes, userEmail, canEdit }: { applicationId: string; notes: Note[]; userEmail: string; canEdit: boolean }) {
  const [announcement, setAnnouncement] = useState('');
  const [editing, setEditing] = useState<string>();
  const [confirmingDelete, setConfirmingDelete] = useState<string>();
  /** Where focus goes once the thread has rendered the change (the element may be new). */
  const after = useRef<After | undefined>(undefined);
  const setAfter = (target: After) => {
    after.current = target;
  };
  const newNoteRef = useRef<HTMLTextAreaElement>(null);
  const noteRefs = useRef(new Map<string, HTMLElement>());
  const newNoteId = useId();

  // Focus moves once the thread shows the change: after the render that follows it (each change
  // sets state once it has been read back).
  useEffect(() => {
    const target = after.current;
    if (!target) return;
    after.current = undefined;
    noteRefs.current.get(target.noteId)?.focus();
  });

  const failed = (what: string) => (caught: unknown) => setAnnouncement(`${what}: ${caught instanceof Error ? caught.message : 'try again'}.`);

  const { add, edit, remove } = useNoteChanges(applicationId);
  // What each change does here once it is stored and the application read again (useNoteChanges).
  const added = {
    onSuccess: () => {
      if (newNoteRef.current) newNoteRef.current.value = '';
      setAnnouncement('Note added.');
      // The field is always there: ready for the next note.
      newNoteRef.current?.focus();
    },
    onError: failed('Not added'),
  };
  const edited = {
    onSuccess: (note: Note) => {
      setEditing(undefined);
      setAnnouncement('Note saved.');
      setAfter({ focus: 'note', noteId: note.id });
    },
    onError: failed('Not saved'),
  };
  const removed = {
    onSuccess: () => {
      setConfirmingDelete(undefined);
      setAnnouncement('Note deleted.');
      // The note and its buttons are gone: focus goes to the field for a new one.
      newNoteRef.current?.focus();
    },
    onError: failed('Not deleted'),
  };
  const busy = add.isPending || edit.isPending || remove.isPending;

  const submitNew = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get('text') ?? '');
    if (text.trim() === '') {
      setAnnouncement('Write the note first.');
      newNoteRef.current?.focus();
      return;
    }
    add.mutate(text, added);
  };
  const submitEdit = (noteId: string) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get('text') ?? '');
    if (text.trim() === '') return setAnnouncement('A note cannot be empty: delete it instead.');
    edit.mutate({ noteId, text }, edited);
  };

  return (
    <section aria-labelledby="notes" className="notes">
      <h2 id="notes">Notes</h2>
      {notes.length === 0 ? <p>No notes yet.</p> : null}
      <ol className="note-list">
        {notes.map((note) => {
          const own = canEdit && note.author === userEmail;
          const edited = note.updatedAt !== note.createdAt;
          return (
            <li key={note.id}>
              <article
                className="note"
                aria-labelledby={`note-by-${note.id}`}
                tabIndex={-1}
                ref={(element) => {
                  if (element) noteRefs.current.set(note.id, element);
                  else noteRefs.current.delete(note.id);
                }}
              >
                <p className="note-meta" id={`note-by-${note.id}`}>
                  <span className="note-author">
                    <bdi>{note.author}</bdi>
                  </span>{' '}
                  <time dateTime={note.createdAt} title={formatDateTime(note.createdAt)}>
                    {formatRelativeTime(note.createdAt)}
                  </time>
                  {edited ? (
                    <>
                      {' · '}
                      <span title={`Edited ${formatDateTime(note.updatedAt)}`}>edited</span>
                    </>
                  ) : null}
                </p>
                {editing === note.id ? (
                  <form className="note-form" onSubmit={submitEdit(note.id)}>
                    <label>
                      Edit your note
                      <textarea name="text" defaultValue={note.text} maxLength={MAX_NOTE_LENGTH} rows={3} dir="auto" required autoFocus />
                    </label>
                    <div className="note-actions">
                      <button type="submit" disabled={busy}>
                        Save note
                      </button>
                      <button type="button" className="secondary" onClick={() => (setEditing(undefined), setAfter({ focus: 'note', noteId: note.id }))}>
                        Cancel
                      </button>
                    </div>
                  </form>
                ) : (
                  <div className="note-text" dir="auto">
                    {note.text}
                  </div>
                )}
                {own && editing !== note.id ? (
                  confirmingDelete === note.id ? (
                    <div className="note-actions" role="group" aria-label="Confirm deletion">
                      <span>Delete this note for good?</span>
                      <button type="button" className="danger" disabled={busy} onClick={() => remove.mutate(note.id, removed)} autoFocus>
                        Delete note
                      </button>
                      <button
                        type="button"
                        className="secondary"
                        onClick={() => (setConfirmingDelete(undefined), setAfter({ focus: 'note', noteId: note.id }))}
                      >
                        Keep it
                      </button>
                    </div>
                  ) : (
                    <div className="note-actions">
                      <button type="button" className="secondary" onClick={() => (setConfirmingDelete(undefined), setEditing(note.id))}>
                        Edit<span className="visually-hidden"> your note of {formatDateTime(note.createdAt)}</span>
                      </button>
                      <button type="button" className="secondary" onClick={() => (setEditing(undefined), setConfirmingDelete(note.id))}>
                        Delete<span className="visually-hidden"> your note of {formatDateTime(note.createdAt)}</span>
                      </button>
                    </div>
                  )
                ) : null}
              </article>
            </li>
          );
        })}
      </ol>
      {canEdit ? (
        <form className="note-form" onSubmit={submitNew}>
          <label htmlFor={newNoteId}>New note</label>
          <textarea id={newNoteId} ref={newNoteRef} name="text" maxLength={MAX_NOTE_LENGTH} rows={3} dir="auto" />
          <div className="note-actions">
            <button type="submit" disabled={busy}>
              {add.isPending ? 'Adding…' : 'Add note'}
            </button>
          </div>
        </form>
      ) : null}
      <p role="status" className="announcement">
        {announcement}
      </p>
    </section>
  );
}
