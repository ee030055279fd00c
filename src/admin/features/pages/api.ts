import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CoverImage } from '../../../shared/config';
import type { PageDetail, PageSummary, UpdatePage } from '../../../shared/pages';
import type { ProblemDetails } from '../../../shared/problem';
import { XSRF_COOKIE, XSRF_HEADER, readCookie } from '../../../shared/xsrf';
import { ApiError, api } from '../../api';
import type { Reactions } from '../keys';

/**
 * The campaign pages' calls (`/api/admin/pages`, docs/inbox.md "Pages"), their query keys and
 * hooks: the pages' summaries (the builder's list, the inbox's page filter and questions), a page's
 * detail and its changes; besides the inbox's JSON client (`api`), the draft's save on leaving the
 * page (a `keepalive` request, which outlives the page) and an image's upload (its bytes, not JSON).
 */

/** The query key of the pages' summaries, and of one page's detail. */
const PAGES_KEY = ['pages'] as const;
const pageKey = (id: string) => ['pages', id] as const;

/**
 * How often the pages' summaries are read again while the inbox is used, in ms: applications
 * arriving close a page at its cap, and the builder shows each page's state.
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
 * render and after each read).
 */
export const refreshWhileUsed = (now: number = Date.now()): number | false => (now - lastUse < PAGE_STATE_IDLE_MS ? PAGE_STATE_REFRESH_MS : false);

/**
 * The pages' summaries (`GET /api/admin/pages`: each page's id, title, state and filter questions),
 * one cached query for every reader. The builder's list and editor show each page's state, which
 * applications arriving change: `poll` reads it again while the inbox is used
 * ({@link refreshWhileUsed}) and whenever they open. The inbox's filters, summary and application
 * pages need the pages' titles and questions only: read once (what the builder reads refreshes
 * them too).
 */
export function usePages({ poll = false }: { poll?: boolean } = {}) {
  return useQuery({
    queryKey: PAGES_KEY,
    queryFn: () => api<PageSummary[]>('/pages'),
    ...(poll ? { refetchInterval: () => refreshWhileUsed() } : { staleTime: Infinity, refetchOnWindowFocus: false }),
  });
}

/**
 * Uploads an image for a page ({@link uploadImage}) as a mutation: pending while it runs, its
 * error kept. Nothing is read again: the editor puts the image's address in the draft.
 */
export function useUploadImage(id: string) {
  return useMutation({ mutationFn: ({ kind, file }: { kind: 'cover' | 'logo'; file: File }) => uploadImage(id, kind, file) });
}

/** One page's detail, its draft included (`GET /pages/{id}`). */
export function usePage(id: string) {
  return useQuery({ queryKey: pageKey(id), queryFn: () => api<PageDetail>(pagePath(id)) });
}

/** Marks a page's detail and the summaries stale once it changed. */
function useRefreshPage() {
  const queryClient = useQueryClient();
  return (id: string) =>
    Promise.all([queryClient.invalidateQueries({ queryKey: pageKey(id) }), queryClient.invalidateQueries({ queryKey: PAGES_KEY, exact: true })]);
}

/**
 * A new page (`POST /pages` with `{ id, from }`: the default page or a copy of another page's draft);
 * its draft's own `pageId` is set to the id (a copy keeps its source's, which publishing would
 * refuse). The new page's detail is cached, the summaries read again.
 */
export function useCreatePage(reactions: Reactions<PageDetail, { pageId: string; from: string }> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ pageId, from }: { pageId: string; from: string }) => {
      const created = await api<PageDetail>('/pages', { method: 'POST', body: { id: pageId, from } });
      const draft = created.draft as Record<string, unknown> | null;
      if (typeof draft === 'object' && draft !== null && !Array.isArray(draft) && draft.pageId !== pageId) {
        const renamed = { ...draft, pageId };
        const saved = await saveDraft(pageId, renamed, created.revision);
        return { ...created, draft: renamed, revision: saved.revision, updatedAt: saved.updatedAt };
      }
      return created;
    },
    onSuccess: (created, variables) => {
      queryClient.setQueryData(pageKey(created.id), created);
      reactions.onSuccess?.(created, variables);
      void queryClient.invalidateQueries({ queryKey: PAGES_KEY, exact: true });
    },
    onError: reactions.onError,
  });
}

/**
 * Publishes a page's draft (`POST /pages/{id}/publish` with the draft's revision): `prepare` saves
 * what is not saved yet and gives the revision to publish (it throws when it cannot). The page and
 * the summaries are read again.
 */
export function usePublish(id: string, prepare: () => Promise<number>, reactions: Reactions<{ version: number }, PublishChoice> = {}) {
  const refresh = useRefreshPage();
  return useMutation({
    mutationFn: async (choice: PublishChoice = {}) =>
      api<{ version: number }>(pagePath(id, '/publish'), { method: 'POST', body: { revision: await prepare(), ...choice } }),
    onSuccess: async (result, choice) => {
      reactions.onSuccess?.(result, choice);
      await refresh(id);
    },
    onError: (error, choice) => reactions.onError?.(error, choice),
  });
}

/** What an editor said yes to when publishing: erasing what a shorter retention puts past its time (docs/privacy.md). */
export interface PublishChoice {
  eraseExpired?: boolean;
}

/** How many applications a publication would erase (a 409 answered for a shorter retention), or undefined for any other failure. */
export function erasesOf(error: unknown): number | undefined {
  const erases = error instanceof ApiError ? (error.problem as { erases?: unknown } | undefined)?.erases : undefined;
  return typeof erases === 'number' ? erases : undefined;
}

/** A change of a page's status, dates, cap or host names (`PATCH /pages/{id}`); the page and the summaries are read again. */
export function useUpdatePage<V extends { change: UpdatePage }>(id: string, reactions: Reactions<PageDetail, V> = {}) {
  const refresh = useRefreshPage();
  return useMutation({
    mutationFn: ({ change }: V) => api<PageDetail>(pagePath(id), { method: 'PATCH', body: change }),
    onSuccess: async (result, variables) => {
      reactions.onSuccess?.(result, variables);
      await refresh(id);
    },
    onError: reactions.onError,
  });
}

/** Serves a published version again (`POST /pages/{id}/versions/{n}/publish`); the page and the summaries are read again. */
export function useRepublish(id: string, reactions: Reactions<{ version: number }, { version: number } & PublishChoice> = {}) {
  const refresh = useRefreshPage();
  return useMutation({
    mutationFn: ({ version, ...choice }: { version: number } & PublishChoice) =>
      api<{ version: number }>(pagePath(id, `/versions/${version}/publish`), { method: 'POST', body: choice }),
    onSuccess: async (result, variables) => {
      reactions.onSuccess?.(result, variables);
      await refresh(id);
    },
    onError: reactions.onError,
  });
}

/** `/pages/{id}` and below, the id encoded. */
export const pagePath = (id: string, rest = '') => `/pages/${encodeURIComponent(id)}${rest}`;

/** What a 409 of a stale revision tells: who changed the page, when, and its current revision. */
export interface StaleProblem {
  updatedBy: string;
  updatedAt: string;
  revision: number;
}

/** The stale-revision details of an error, when it is the pages API's 409 with them. */
export function staleOf(error: unknown): StaleProblem | undefined {
  if (!(error instanceof ApiError) || error.status !== 409) return undefined;
  const problem = error.problem as Partial<StaleProblem> | undefined;
  return typeof problem?.updatedBy === 'string' && typeof problem.updatedAt === 'string' ? (problem as StaleProblem) : undefined;
}

/**
 * Saves the draft as the page is left (`pagehide`): a `keepalive` request, which the browser sends
 * even as the page goes. Nothing reads its answer; the next opening of the page shows what was saved.
 */
export function saveDraftOnLeaving(id: string, body: { config: unknown; revision: number }) {
  void fetch(`/api/admin${pagePath(id, '/draft')}`, {
    method: 'PUT',
    keepalive: true,
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json', [XSRF_HEADER]: readCookie(XSRF_COOKIE) ?? '' },
    body: JSON.stringify(body),
  }).catch(() => undefined);
}

/** `PUT /pages/{id}/draft`: the new revision and when it was saved. */
export const saveDraft = (id: string, config: unknown, revision: number) =>
  api<{ revision: number; updatedAt: string }>(pagePath(id, '/draft'), { method: 'PUT', body: { config, revision } });

/**
 * Uploads an image for the page (`POST /pages/{id}/images?kind=cover|logo`: its bytes with its
 * `Content-Type`, the inbox's anti-forgery header): the server checks it by its content, re-encodes
 * it to WebP at the sizes shown and answers `{ src, srcset }` for a cover, `{ src }` for a logo.
 * @throws ApiError for a refusal (415 not an image, 413 too large), TypeError when the network fails.
 */
export async function uploadImage(id: string, kind: 'cover' | 'logo', file: File): Promise<{ src: string; srcset?: string }> {
  const response = await fetch(`/api/admin${pagePath(id, `/images?kind=${kind}`)}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': file.type || 'application/octet-stream', accept: 'application/json', [XSRF_HEADER]: readCookie(XSRF_COOKIE) ?? '' },
    body: file,
  });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw new ApiError(response.status, body as Partial<ProblemDetails> | undefined);
  return body as { src: string; srcset?: string };
}

/** An uploaded cover as the configuration holds it: `{ src, srcset }`, or its URL alone when it came without sizes. */
export const coverOf = (uploaded: { src: string; srcset?: string }): CoverImage =>
  uploaded.srcset ? { src: uploaded.src, srcset: uploaded.srcset } : uploaded.src;
