import { useEffect, useState } from 'react';
import type { PageSummary } from '../../shared/pages';
import { PAGE_STATE_REFRESH_MS, usePages } from '../features/pages/api';
import { formatDateTime } from '../format';

/**
 * Whether a page takes applications now, and why not (a newcomer's review, decision 021): its status
 * alone says "Published" for a page its cap or its dates have closed. Read from the summary's
 * status, dates, cap and tally, as the page route decides (docs/decisions/021).
 */
export interface PageState {
  /** The badge's class (`page-draft`, `page-published`, `page-closed`, `page-scheduled`). */
  badge: 'draft' | 'published' | 'closed' | 'scheduled';
  /** The state in words: "Published: open", "Closed: 2 of 2 applications", "Opens 5 Dec 2026, 09:00". */
  text: string;
  /** Whether applicants can send an application now. */
  open: boolean;
}

export function pageState(
  page: Pick<PageSummary, 'status' | 'publishedVersion' | 'opensAt' | 'closesAt' | 'maxApplications' | 'applications'>,
  now: number = Date.now(),
): PageState {
  if (page.status === 'draft' || !page.publishedVersion) return { badge: 'draft', text: 'Draft: never published', open: false };
  if (page.status === 'closed') return { badge: 'closed', text: 'Closed by an editor', open: false };
  if (page.maxApplications !== null && page.applications >= page.maxApplications)
    return { badge: 'closed', text: `Closed: ${page.applications} of ${page.maxApplications} applications`, open: false };
  if (page.closesAt && Date.parse(page.closesAt) <= now) return { badge: 'closed', text: `Closed since ${formatDateTime(page.closesAt)}`, open: false };
  if (page.opensAt && Date.parse(page.opensAt) > now)
    return { badge: 'scheduled', text: `Published, not open yet: opens ${formatDateTime(page.opensAt)}`, open: false };
  return { badge: 'published', text: 'Published: open', open: true };
}

/**
 * `page` with its state (status, version, dates, cap, applications) from the newest read of the
 * pages' summaries (`usePages`), which is small and read again while the inbox is used;
 * the page's detail, its draft included, is read once.
 */
export function useFreshSummary<P extends PageSummary>(page: P): P {
  const pages = usePages({ poll: true });
  const fresh = pages.data?.find((summary) => summary.id === page.id);
  if (!fresh) return page;
  const { status, publishedVersion, opensAt, closesAt, maxApplications, applications } = fresh;
  return { ...page, status, publishedVersion, opensAt, closesAt, maxApplications, applications };
}

/**
 * {@link pageState} at the time now, worked out again every {@link PAGE_STATE_REFRESH_MS} (or
 * `everyMs`) while the component is shown.
 * @param clock - the time now in ms (tests give their own).
 */
export function usePageState(page: Parameters<typeof pageState>[0], everyMs = PAGE_STATE_REFRESH_MS, clock: () => number = Date.now): PageState {
  const [now, setNow] = useState(clock);
  useEffect(() => {
    const timer = setInterval(() => setNow(clock()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs, clock]);
  return pageState(page, now);
}
