import type { QueryClient } from '@tanstack/react-query';

/**
 * What more than one feature of the inbox's data layer needs (src/admin/features/*), so that no
 * feature imports another (lint): the query keys a change of applications makes stale (the lists,
 * the tabs' counts, an application's page, the summaries), the invalidation itself, a view's
 * filters and an application's address. A feature's keys no other feature reads stay in its own
 * api module.
 */

/** A view's filters as the address holds them: one value each, or a list (`answer`, `contains`). */
export type ViewFilters = Record<string, string | readonly string[] | undefined>;

/** `/applications/{id}` and below, the id encoded. */
export const applicationPath = (id: string, rest = '') => `/applications/${encodeURIComponent(id)}${rest}`;

/** The prefix of every view's list pages. */
export const APPLICATIONS_KEY = ['applications'] as const;
/** The prefix of the status tabs' counts, by filters. */
export const COUNTS_KEY = ['counts'] as const;
/** The prefix of the summaries, by filters. */
export const SUMMARY_KEY = ['summary'] as const;
/** The previous and next application of a view around one: `[…NEIGHBOURS_KEY, id, view]`. */
export const NEIGHBOURS_KEY = ['neighbours'] as const;
/** One application's detail. */
export const applicationKey = (id: string) => ['application', id] as const;

/**
 * A component's own reactions to a change, given to a feature's mutation hook: they run once the
 * change is stored, before what it changed is read again (and still when the component has gone).
 */
export interface Reactions<T, V> {
  onSuccess?: (result: T, variables: V) => void;
  onError?: (error: Error, variables: V) => void;
}

/**
 * Marks what a change of applications (a decision, a tag, an erasure) makes stale, so it is read
 * again where shown: every view's list, the status tabs' counts, the summaries and the detail's
 * previous and next (not waited for: a decision's page moves on without it).
 * @param erased - an application just erased: its own previous and next are not read again (its
 *   page, still shown until the list opens, would ask for an application that is gone: 404).
 */
export function invalidateApplications(queryClient: QueryClient, erased?: string): Promise<void> {
  void queryClient.invalidateQueries({ queryKey: NEIGHBOURS_KEY, predicate: (query) => erased === undefined || query.queryKey[1] !== erased });
  return Promise.all([APPLICATIONS_KEY, COUNTS_KEY, SUMMARY_KEY].map((queryKey) => queryClient.invalidateQueries({ queryKey }))).then(() => undefined);
}
