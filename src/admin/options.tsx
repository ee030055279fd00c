import { useQuery } from '@tanstack/react-query';
import { APPLICATION_STATUSES, type PageList, type Tag } from '../shared/admin';
import { api } from './api';
import { STATUS_LABELS } from './format';

/** One choice of a `<select>`: the value sent and the text shown. */
export interface Choice {
  value: string;
  label: string;
}

/** The four review statuses, in requirements §17 order. */
export const STATUS_CHOICES: Choice[] = APPLICATION_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] }));

/** The `<option>`s of a list of choices. */
export function Options({ choices }: { choices: readonly Choice[] }) {
  return choices.map((choice) => (
    <option key={choice.value} value={choice.value}>
      {choice.label}
    </option>
  ));
}

/** A labelled filter `<select>` whose first option, `any`, means "no filter" (the empty value). */
export function FilterSelect(props: {
  label: string;
  name: string;
  value: string | undefined;
  any: string;
  choices: readonly Choice[];
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {props.label}
      <select name={props.name} value={props.value ?? ''} onChange={(event) => props.onChange(event.target.value)}>
        <option value="">{props.any}</option>
        <Options choices={props.choices} />
      </select>
    </label>
  );
}

/** The pages the server runs with their filter questions (`GET /api/admin/pages`), read once and shared by every view (TanStack Query). */
export function usePages() {
  return useQuery({ queryKey: ['pages'], queryFn: () => api<PageList>('/pages'), staleTime: Infinity });
}

/** The pages the server runs as choices, `[]` until they arrive; `failed` when they cannot be loaded. */
export function usePageChoices(): { choices: Choice[]; failed: boolean } {
  const pages = usePages();
  return { choices: (pages.data ?? []).map((page) => ({ value: page.pageId, label: page.title })), failed: pages.isError };
}

/** The query key of the team's tags (`GET /api/admin/tags`): invalidated when a tag is created or deleted. */
export const TAGS_KEY = ['tags'] as const;

/** The team's tags, cached by TanStack Query under {@link TAGS_KEY}; `[]` until they arrive. */
export function useTags(): { tags: Tag[]; failed: boolean } {
  const query = useQuery({ queryKey: TAGS_KEY, queryFn: () => api<Tag[]>('/tags') });
  return { tags: query.data ?? [], failed: query.isError };
}

/** The team's tags as filter choices, by name; `[]` until they arrive. */
export function useTagChoices(): Choice[] {
  return useTags().tags.map((tag) => ({ value: tag.id, label: tag.name }));
}
