/**
 * The inbox's HTTP client for `/api/admin/*` (requirements §17): JSON in and out,
 * the XSRF header on every mutation, problem details turned into {@link ApiError}.
 */
import type { ProblemDetails } from '../shared/problem';
import { XSRF_COOKIE, XSRF_HEADER, readCookie } from '../shared/xsrf';

/** A non-2xx answer: its status and problem details (when the server sent them). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Partial<ProblemDetails> | undefined,
  ) {
    super(problem?.detail ?? `The server answered ${status}.`);
    this.name = 'ApiError';
  }
}

/** Listeners told when any call answers 401 (the session ended): the app shows the sign-in form. */
const signedOutListeners = new Set<() => void>();
export function onSignedOut(listener: () => void): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

/**
 * Calls the admin API.
 * @param path - below `/api/admin`, with its query string.
 * @returns the parsed JSON body, or undefined for 204.
 * @throws ApiError for a non-2xx answer; TypeError when the network fails.
 */
export async function api<T>(path: string, init: { method?: string; body?: unknown; quiet401?: boolean } = {}): Promise<T> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers[XSRF_HEADER] = readCookie(XSRF_COOKIE) ?? '';
  const response = await fetch(`/api/admin${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  if (response.status === 204) return undefined as T;
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    if (response.status === 401 && !init.quiet401) for (const listener of signedOutListeners) listener();
    throw new ApiError(response.status, body as Partial<ProblemDetails> | undefined);
  }
  return body as T;
}

/** A query string from filters, leaving out empty ones; a list is the parameter repeated (`answer=a&answer=b`). */
export function queryString(values: Record<string, string | number | readonly string[] | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (Array.isArray(value)) for (const item of value as readonly string[]) params.append(key, item);
    else if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A problem the server named at a path (`errors[]` of its problem details). */
export interface PathProblem {
  path: string;
  message: string;
}

/** The field errors of a problem+json answer (`errors[].path`): the builder's problems, a form's messages. */
export function errorsOf(error: unknown): PathProblem[] {
  if (!(error instanceof ApiError)) return [];
  return (error.problem?.errors ?? []).map(({ path, message }) => ({ path, message }));
}

/** One line saying why a call failed: the server's detail, or that it could not be reached. */
export function failureText(error: unknown): string {
  if (error instanceof ApiError) return error.problem?.detail ?? `the server answered ${error.status}`;
  return 'the server cannot be reached';
}

/** A failed call in sentences: why ({@link failureText}), and what the server said of each field it names. */
export function failureSentence(error: unknown): string {
  const why = failureText(error);
  const sentence = `${why.charAt(0).toUpperCase()}${why.slice(1)}${/[.!?]$/.test(why) ? '' : '.'}`;
  // A field's message that says what the detail said already is not said twice.
  const fields = errorsOf(error)
    .map((entry) => entry.message)
    .filter((message) => !sentence.includes(message));
  return [sentence, ...new Set(fields)].join(' ');
}

/** Whether a failure may pass by itself (the network, or the server busy or failing): worth trying again. */
export function isTransient(error: unknown): boolean {
  return !(error instanceof ApiError) || error.status >= 500 || error.status === 429 || error.status === 408;
}
