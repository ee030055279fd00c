import { ApplicationFilterSchema, splitAnswerTerm, type FilterQuestion, type Tag } from '../shared/admin';
import { PLATFORM_LABELS, type PlatformName } from '../shared/platforms';
import { STATUS_LABELS, countryName } from './format';
import { usePages } from './features/pages/api';
import { useTags } from './features/tags/api';

/**
 * The list's filters as the address holds them (`?q=…&status=…&answer=…&answer=…`): every filter
 * of `ApplicationFilterSchema`, so a view that reads them follows the list as its filters grow;
 * the answer filters (`answer`, `contains`) are lists, the parameter repeated.
 */
export type AddressFilters = Record<string, string | string[] | undefined>;

/** The names of the list's filters, from its schema. */
export const ADDRESS_FILTER_NAMES: readonly string[] = Object.keys(ApplicationFilterSchema.shape);
/** The filters whose parameter repeats. */
const REPEATED: readonly string[] = ['answer', 'contains'];

/** The list's filters in a query string (the address's by default); values left empty are left out. */
export function filtersInAddress(search = window.location.search): AddressFilters {
  const params = new URLSearchParams(search);
  return Object.fromEntries(
    ADDRESS_FILTER_NAMES.flatMap((name): [string, string | string[]][] => {
      if (REPEATED.includes(name)) return params.getAll(name).length > 0 ? [[name, params.getAll(name)]] : [];
      return params.get(name) ? [[name, params.get(name)!]] : [];
    }),
  );
}

/** What a filter's ids and keys are called: the pages' questions (with their options) and titles, the team's tags. */
export interface FilterNames {
  questions: readonly FilterQuestion[];
  tags: readonly Tag[];
  /** The pages, each with its questions when known (a stored page's of every version). */
  pages: readonly { pageId: string; title: string; questions?: readonly FilterQuestion[] }[];
}

/** The names {@link describeFilter} reads ids and keys with: every page's questions, and the team's tags (TanStack Query, shared with the list). */
export function useFilterNames(): FilterNames {
  const pages = usePages().data ?? [];
  const { tags } = useTags();
  return { questions: pages.flatMap((page) => page.questions), tags, pages };
}

/**
 * How a filter reads in a sentence, by the names the list shows it with: `Country: France`,
 * `How familiar are you with Crazy Aaron's?: Super-Fan`, `Tag: gifting`, `Received from: 2026-11-01`.
 * An answer filter is its question's label and its option's label (the value itself when the page
 * no longer has it); a tag is its name.
 * @param names - the questions, pages and tags ({@link useFilterNames}); ids and keys when they are not known.
 */
export function describeFilter(name: string, value: string, names: FilterNames = { questions: [], tags: [], pages: [] }): string {
  switch (name) {
    case 'q':
      return `Search: “${value}”`;
    case 'status':
      return `Status: ${STATUS_LABELS[value as keyof typeof STATUS_LABELS] ?? value}`;
    case 'platform':
      return `Platform: ${PLATFORM_LABELS[value as PlatformName] ?? value}`;
    case 'country':
      return `Country: ${countryName(value)}`;
    case 'from':
      return `Received from: ${value}`;
    case 'to':
      return `Received to: ${value}`;
    case 'pageId':
      return `Page: ${names.pages.find((page) => page.pageId === value)?.title ?? value}`;
    case 'tag':
      return `Tag: ${names.tags.find((tag) => tag.id === value)?.name ?? 'a tag since deleted'}`;
    case 'answer':
    case 'contains': {
      const term = splitAnswerTerm(value);
      const question = names.questions.find((candidate) => candidate.key === term?.key);
      if (!term) return value;
      if (name === 'contains') return `${question?.label ?? term.key} contains “${term.value}”`;
      return `${question?.label ?? term.key}: ${question?.options?.find((option) => option.value === term.value)?.label ?? term.value}`;
    }
    default:
      return `${name}: ${value}`;
  }
}

/**
 * Every filter of `filters` in a sentence each ({@link describeFilter}), a repeated one once per
 * value. An answer filter is named by the questions of the page filtered on first (pages may ask
 * the same key under other labels; a stored page's labels come from its versions).
 */
export function describeFilters(filters: AddressFilters, names: FilterNames, leaveOut: readonly string[] = []): string[] {
  const page = typeof filters.pageId === 'string' ? names.pages.find((candidate) => candidate.pageId === filters.pageId) : undefined;
  const named = page?.questions ? { ...names, questions: [...page.questions, ...names.questions] } : names;
  return Object.entries(filters).flatMap(([name, value]) =>
    leaveOut.includes(name) || value === undefined || value === ''
      ? []
      : (Array.isArray(value) ? value : [value]).map((one) => describeFilter(name, one, named)),
  );
}
