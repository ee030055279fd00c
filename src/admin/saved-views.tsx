import { useId, useState, type FormEvent } from 'react';
import { MAX_VIEW_NAME_LENGTH, type SavedView } from '../shared/admin';
import { useSavedViewChanges, useSavedViews } from './features/views/api';

/**
 * The signed-in user's saved views: choose one and press "Open view" (choosing alone
 * changes nothing, WCAG 3.2.2), save the current view under a name (a name saved before is
 * replaced), delete the one shown — with "Undo", which saves it again. A view is the list's query
 * string, so opening one is opening its address.
 * @param query - the current view's query string, without `?`.
 * @param onOpen - called with a saved view's query string.
 */
export function SavedViews({ query, onOpen }: { query: string; onOpen: (query: string) => void }) {
  const views = useSavedViews();
  const { save: saved, remove: removed } = useSavedViewChanges();
  const [message, setMessage] = useState('');
  const [chosen, setChosen] = useState<string>();
  const [deleted, setDeleted] = useState<SavedView>();
  const nameId = useId();
  const selectId = useId();
  // What each change does here once it is stored and the views read again (useSavedViewChanges).
  const afterSave = {
    onSuccess: (view: SavedView, { restored }: { restored?: boolean }) => {
      setDeleted(undefined);
      setMessage(restored ? `View "${view.name}" restored.` : `View "${view.name}" saved.`);
    },
    onError: (error: Error) => setMessage(`The view was not saved: ${error.message}.`),
  };
  const afterRemove = {
    onSuccess: (view: SavedView) => {
      setDeleted(view);
      setMessage(`View "${view.name}" deleted.`);
    },
    onError: (error: Error) => setMessage(`The view was not deleted: ${error.message}.`),
  };
  const current = views.data?.find((view) => view.query === query);

  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('name') ?? '').trim();
    if (name) saved.mutate({ name, query }, afterSave);
  };

  return (
    <div className="saved-views" role="group" aria-label="Save and open views">
      <span className="field">
        <label htmlFor={selectId}>Saved views</label>
        <span className="save-view-row">
          <select id={selectId} value={chosen ?? current?.id ?? ''} onChange={(event) => setChosen(event.target.value)}>
            <option value="">{views.data?.length ? 'Choose a saved view…' : 'No saved views yet'}</option>
            {views.data?.map((view) => (
              <option key={view.id} value={view.id}>
                {view.name}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="secondary"
            disabled={!views.data?.length}
            onClick={() => {
              const view = views.data?.find((item) => item.id === (chosen ?? current?.id));
              if (!view) return setMessage('Choose a saved view first.');
              setChosen(undefined);
              onOpen(view.query);
            }}
          >
            Open view
          </button>
        </span>
      </span>
      {current ? (
        <button type="button" className="secondary" disabled={removed.isPending} onClick={() => removed.mutate(current, afterRemove)}>
          Delete view “{current.name}”
        </button>
      ) : null}
      <form className="save-view" onSubmit={save}>
        <label htmlFor={nameId}>Name this view</label>
        <span className="save-view-row">
          <input
            id={nameId}
            name="name"
            maxLength={MAX_VIEW_NAME_LENGTH}
            defaultValue={current?.name ?? ''}
            key={current?.id ?? 'new'}
            placeholder="e.g. Super-Fans by reach"
          />
          <button type="submit" className="secondary" disabled={saved.isPending}>
            Save view
          </button>
        </span>
      </form>
      <p className="saved-views-said" role="status">
        {message}
        {deleted ? (
          <>
            {' '}
            <button
              type="button"
              className="secondary"
              disabled={saved.isPending}
              onClick={() => saved.mutate({ name: deleted.name, query: deleted.query, restored: true }, afterSave)}
            >
              Undo
            </button>
          </>
        ) : null}
      </p>
    </div>
  );
}
