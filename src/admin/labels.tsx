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
