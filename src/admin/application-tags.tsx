import { useId, useRef, useState, type FormEvent } from 'react';
import { MAX_TAG_NAME_LENGTH, MAX_TAGS_PER_APPLICATION, tagNameKey, type Tag } from '../shared/admin';
import { useCreateTag, useSetApplicationTags, useTags } from './features/tags/api';

/**
 * An application's tags, by name. An editor removes one with its "Remove" button, and
 * adds one by typing its name (the team's tags are offered as suggestions): an existing tag is
 * applied whatever the case typed, a new name creates the tag for the whole team first. Each
 * change is sent as the application's whole set (`PUT …/tags`), read back (features/tags) and said
 * in a polite live region; focus stays on the name field after an add, and goes to it after a
 * removal (the button pressed is gone). Viewers see the names only.
 */
export function ApplicationTags({ applicationId, tags, canEdit }: { applicationId: string; tags: Tag[]; canEdit: boolean }) {
  const { tags: teamTags } = useTags();
  const [announcement, setAnnouncement] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const suggestions = useId();
  const inputId = useId();

  const setTags = useSetApplicationTags(applicationId);
  const createTag = useCreateTag();
  /** Sends the application's whole set of tags; once it is read back, says `said` and puts focus in the name field. */
  const apply = (tagIds: string[], said: string) =>
    setTags.mutate(tagIds, {
      onSuccess: () => {
        setAnnouncement(said);
        inputRef.current?.focus();
      },
      onError: (caught) => setAnnouncement(`Not changed: ${caught instanceof Error ? caught.message : 'try again'}.`),
    });

  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = (inputRef.current?.value ?? '').trim();
    if (name === '') return setAnnouncement('Type a tag name first.');
    if (tags.length >= MAX_TAGS_PER_APPLICATION) return setAnnouncement(`An application may have ${MAX_TAGS_PER_APPLICATION} tags at most.`);
    let tag = teamTags.find((candidate) => tagNameKey(candidate.name) === tagNameKey(name));
    if (!tag) {
      try {
        tag = await createTag.mutateAsync(name);
      } catch (caught) {
        return setAnnouncement(`Tag not created: ${caught instanceof Error ? caught.message : 'try again'}.`);
      }
    }
    if (tags.some((own) => own.id === tag.id)) return setAnnouncement(`Already tagged ${tag.name}.`);
    if (inputRef.current) inputRef.current.value = '';
    apply([...tags.map((own) => own.id), tag.id], `Tagged ${tag.name}.`);
  };

  return (
    <section aria-labelledby="tags" className="tags">
      <h2 id="tags">Tags</h2>
      {tags.length === 0 ? <p>No tags.</p> : null}
      <ul className="tag-list" aria-label="Tags of this application">
        {tags.map((tag) => (
          <li key={tag.id} className="tag-chip">
            <bdi>{tag.name}</bdi>
            {canEdit ? (
              <button
                type="button"
                className="tag-remove"
                disabled={setTags.isPending}
                aria-label={`Remove tag ${tag.name}`}
                onClick={() =>
                  apply(
                    tags.filter((own) => own.id !== tag.id).map((own) => own.id),
                    `Tag ${tag.name} removed.`,
                  )
                }
              >
                ×
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {canEdit ? (
        <form className="tag-form" onSubmit={(event) => void add(event)}>
          <label htmlFor={inputId}>Add a tag</label>
          <div className="tag-form-row">
            <input
              id={inputId}
              ref={inputRef}
              name="tag"
              list={suggestions}
              maxLength={MAX_TAG_NAME_LENGTH}
              autoComplete="off"
              aria-describedby={`${inputId}-hint`}
            />
            <datalist id={suggestions}>
              {teamTags
                .filter((tag) => !tags.some((own) => own.id === tag.id))
                .map((tag) => (
                  <option key={tag.id} value={tag.name} />
                ))}
            </datalist>
            <button type="submit" className="secondary" disabled={setTags.isPending}>
              Add tag
            </button>
          </div>
          <p className="hint" id={`${inputId}-hint`}>
            Choose one of the team&apos;s tags or type a new one.
          </p>
        </form>
      ) : null}
      <p role="status" className="announcement">
        {announcement}
      </p>
    </section>
  );
}
