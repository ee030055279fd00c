import { APPLICATION_STATUSES } from '../shared/admin';
import { usePages } from './features/pages/api';
import { useTags } from './features/tags/api';
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

/** The pages the server runs as choices, `[]` until they arrive; `failed` when they cannot be loaded. */
export function usePageChoices(): { choices: Choice[]; failed: boolean } {
  const pages = usePages();
  // Failed only when there is nothing to show: a read again that failed keeps the pages read before.
  return { choices: (pages.data ?? []).map((page) => ({ value: page.pageId, label: page.title })), failed: pages.isError && pages.data === undefined };
}

/** The team's tags as filter choices, by name; `[]` until they arrive. */
export function useTagChoices(): Choice[] {
  return useTags().tags.map((tag) => ({ value: tag.id, label: tag.name }));
}
