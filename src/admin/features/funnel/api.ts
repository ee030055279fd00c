import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { FunnelReport } from '../../../shared/admin';
import { api, queryString } from '../../api';

/** The funnel's reports: `[…FUNNEL_KEY, pageId, from, to]` (no other feature reads or changes them). */
export const FUNNEL_KEY = ['funnel'] as const;

/**
 * A page's funnel over a period, with the period of the same length before it (`GET
 * /api/admin/funnel?pageId=&from=&to=&compare=previous`: docs/inbox.md "API"); not asked before a
 * page is chosen or while the period ends before it starts. The previous report stays shown while
 * another is read.
 * @param period - ISO dates (`YYYY-MM-DD`), both days included.
 */
export function useFunnel(pageId: string | undefined, period: { from: string; to: string }) {
  return useQuery({
    queryKey: [...FUNNEL_KEY, pageId, period.from, period.to],
    queryFn: () => api<FunnelReport>(`/funnel${queryString({ pageId, from: period.from, to: period.to, compare: 'previous' })}`),
    enabled: pageId !== undefined && period.from <= period.to,
    placeholderData: keepPreviousData,
  });
}
