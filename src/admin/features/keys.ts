/**
 * The query keys more than one feature reads (src/admin/features/*): a change of applications
 * (features/applications, `invalidateApplications`) makes stale what the lists, the tabs' counts,
 * an application's page and the summaries show. A feature's keys no other feature reads stay in
 * its own api module.
 */

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
