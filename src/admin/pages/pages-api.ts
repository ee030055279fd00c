import type { CoverImage } from '../../shared/config';
import type { ProblemDetails } from '../../shared/problem';
import { XSRF_COOKIE, XSRF_HEADER, readCookie } from '../../shared/xsrf';
import { ApiError, api } from '../api';
import type { Problem } from './fields';

/**
 * The builder's calls to the pages API (`/api/admin/pages`, docs/inbox.md "Pages") besides the
 * inbox's JSON client (`api`): the draft's save on leaving the page (a `keepalive` request, which
 * outlives the page) and an image's upload (its bytes, not JSON).
 */

/** The query key of the pages list, and of one page's detail. */
export const PAGES_KEY = ['pages'] as const;
export const pageKey = (id: string) => ['pages', id] as const;

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

/** The field errors of a problem+json answer (`errors[].path`), as the builder's problems. */
export function errorsOf(error: unknown): Problem[] {
  if (!(error instanceof ApiError)) return [];
  return (error.problem?.errors ?? []).map(({ path, message }) => ({ path, message }));
}

/** One line saying why a call failed: the server's detail, or that it could not be reached. */
export function failureText(error: unknown): string {
  if (error instanceof ApiError) return error.problem?.detail ?? `the server answered ${error.status}`;
  return 'the server cannot be reached';
}

/** Whether a failure may pass by itself (the network, or the server busy or failing): worth trying again. */
export function isTransient(error: unknown): boolean {
  return !(error instanceof ApiError) || error.status >= 500 || error.status === 429 || error.status === 408;
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
