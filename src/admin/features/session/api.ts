import { useMutation } from '@tanstack/react-query';
import type { AdminSessionInfo } from '../../../shared/admin';
import { api } from '../../api';

/**
 * The inbox session's calls (`/api/admin/session`: docs/inbox.md "API"). The session decides what
 * the app shows before any query runs, so reading it and signing out are plain calls, not cached
 * queries; the sign-in form's is a mutation ({@link useSignIn}).
 */

/**
 * Who is signed in (`GET /session`).
 * @throws ApiError 401 when no one is (without telling the signed-out listeners: the app is starting).
 */
export const readSession = () => api<AdminSessionInfo>('/session', { quiet401: true });

/**
 * Signs in (`POST /session`): the answer sets the session's cookies.
 * @throws ApiError 401 wrong credentials, 429 too many tries, 400 a field missing, 503 a session the
 *   server cannot store now (its detail says why).
 */
const signIn = (email: string, password: string) => api('/session', { method: 'POST', body: { email, password }, quiet401: true });

/** The sign-in form's call ({@link signIn}) as a mutation: pending while it runs, its error kept. */
export function useSignIn() {
  // gcTime 0: the mutation's variables (the password) leave the client's cache as soon as the form has its answer.
  return useMutation({ mutationFn: ({ email, password }: { email: string; password: string }) => signIn(email, password), gcTime: 0 });
}

/** Signs out (`DELETE /session`); resolves whether or not the server could be told. */
export const signOut = () =>
  api('/session', { method: 'DELETE' }).then(
    () => undefined,
    () => undefined,
  );
