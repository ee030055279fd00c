import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ApplicationSummary } from '../../../shared/admin';
import { api, queryString } from '../../api';
import { SUMMARY_KEY, type ViewFilters } from '../keys';

/**
 * The summary of the applications a view's filters match (`GET /api/admin/summary`: docs/inbox.md
 * "API"), keyed by the filters; the previous summary stays shown while another is read. Read again
 * after a change of applications (features/applications, `invalidateApplications`).
 */
export function useSummary(filters: ViewFilters) {
  return useQuery({
    queryKey: [...SUMMARY_KEY, filters],
    queryFn: () => api<ApplicationSummary>(`/summary${queryString(filters)}`),
    placeholderData: keepPreviousData,
  });
}
