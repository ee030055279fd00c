import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { PageSummary } from '../../shared/pages';
import { api } from '../api';
import { PAGES_KEY } from './pages-api';
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
 * How often the builder reads the pages' state again while it is used, in ms: the list and the
 * editor ask the server for the pages' summaries again (applications arriving close a page at its
 * cap) and work the state out again at the time then (a page opens and closes on its dates with no
 * change stored).
 */
export const PAGE_STATE_REFRESH_MS = 30_000;

/**
 * How long after the reader last used the window (a key, a pointer, a wheel) the summaries stop
 * being read again, in ms: each read counts as the session's use, and a tab left open unattended
 * must let the inbox's session end after its idle lifetime, as any other inbox tab does.
 */
export const PAGE_STATE_IDLE_MS = 5 * 60_000;

/** When the reader last used the window, in ms since the epoch. */
let lastUse = Date.now();
for (const type of ['keydown', 'pointerdown', 'wheel']) addEventListener(type, () => (lastUse = Date.now()), { capture: true, passive: true });

/**
 * TanStack Query's `refetchInterval` for the pages' summaries: {@link PAGE_STATE_REFRESH_MS}
 * while the window was used within {@link PAGE_STATE_IDLE_MS}, else none (worked out again on each
 * render and after each read: {@link usePageState}'s clock renders again every 30 s).
 */
export const refreshWhileUsed = (now: number = Date.now()): number | false => (now - lastUse < PAGE_STATE_IDLE_MS ? PAGE_STATE_REFRESH_MS : false);

/** The pages' summaries (`GET /api/admin/pages`), read again while the builder is used: the list's rows, and the state the editor shows. */
export const pagesQuery = { queryKey: PAGES_KEY, queryFn: () => api<PageSummary[]>('/pages'), refetchInterval: () => refreshWhileUsed() };

/**
 * `page` with its state (status, version, dates, cap, applications) from the newest read of the
 * pages' summaries ({@link pagesQuery}), which is small and read again while the builder is used;
 * the page's detail, its draft included, is read once.
 */
export function useFreshSummary<P extends PageSummary>(page: P): P {
  const pages = useQuery(pagesQuery);
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
