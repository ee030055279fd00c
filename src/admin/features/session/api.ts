import { useMutation } from '@tanstack/react-query';
import type { AdminSessionInfo } from '../../../shared/admin';
import type { InvitationOffer, ResetOffer, SecondFactorNeeded } from '../../../shared/team';
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
const signIn = (email: string, password: string) =>
  api<SecondFactorNeeded | undefined>('/session', { method: 'POST', body: { email, password }, quiet401: true });

/**
 * The sign-in form's call ({@link signIn}) as a mutation: pending while it runs, its error kept;
 * resolves with which second factors are asked for next, or undefined when signed in.
 */
export function useSignIn() {
  // gcTime 0: the mutation's variables (the password) leave the client's cache as soon as the form has its answer.
  return useMutation({ mutationFn: ({ email, password }: { email: string; password: string }) => signIn(email, password), gcTime: 0 });
}

/**
 * The sign-in's second step with a code (`POST /session/second-factor`): six digits from the app, or a recovery code.
 * @throws ApiError 401 a code that is not right, 429 too many.
 */
export const giveCode = (code: string) => api('/session/second-factor', { method: 'POST', body: { code }, quiet401: true });

/**
 * The sign-in's second step with a passkey: the server's challenge, the browser's authenticator
 * (@simplewebauthn/browser, read when first used), the answer checked (`POST /session/passkey`).
 * @throws ApiError 401 a passkey that is not right; the browser's error when the person cancels.
 */
export async function signInWithPasskey(): Promise<void> {
  const [{ startAuthentication }, options] = await Promise.all([
    import('@simplewebauthn/browser'),
    api<Parameters<typeof import('@simplewebauthn/browser').startAuthentication>[0]['optionsJSON']>('/session/passkey/options', { method: 'POST' }),
  ]);
  const response = await startAuthentication({ optionsJSON: options });
  await api('/session/passkey', { method: 'POST', body: { response }, quiet401: true });
}

/** Asks for a password reset's link (`POST /password-reset`): the same answer whatever the address. */
export const requestPasswordReset = (email: string) => api<{ detail: string }>('/password-reset', { method: 'POST', body: { email } });

/**
 * Sets a new password through a reset's link (`POST /password-reset/complete`).
 * @throws ApiError 422 a password the rule refuses (its detail says why), 404 or 410 a link that no longer works.
 */
export const completePasswordReset = (token: string, password: string) => api('/password-reset/complete', { method: 'POST', body: { token, password } });

/** The account a reset's link works for (`POST /password-reset/offer`). @throws ApiError 404 or 410 a link that does not work. */
export const readReset = (token: string) => api<ResetOffer>('/password-reset/offer', { method: 'POST', body: { token } });

/** What an invitation's link offers (`POST /invitations/offer`). @throws ApiError 404 or 410 a link that does not work. */
export const readInvitation = (token: string) => api<InvitationOffer>('/invitations/offer', { method: 'POST', body: { token } });

/**
 * Accepts an invitation with a password (`POST /invitations/accept`): signed in at once.
 * @throws ApiError 422 a password the rule refuses, 404 or 410 a link that no longer works.
 */
export const acceptInvitation = (token: string, password: string) => api('/invitations/accept', { method: 'POST', body: { token, password } });

/** Signs out (`DELETE /session`); resolves whether or not the server could be told. */
export const signOut = () =>
  api('/session', { method: 'DELETE' }).then(
    () => undefined,
    () => undefined,
  );
