import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Security, SessionEntry, TotpSetup } from '../../../shared/team';
import { api } from '../../api';

/** The signed-in member's own account (`/api/admin/me/…`: docs/inbox.md, "The team"): second factors and sessions. */

const SECURITY_KEY = ['me', 'security'] as const;
const SESSIONS_KEY = ['me', 'sessions'] as const;

/** Their second factors, and whether the team requires one (`GET /me/security`). */
export function useSecurity() {
  return useQuery({ queryKey: SECURITY_KEY, queryFn: () => api<Security>('/me/security') });
}

/** Their open sessions (`GET /me/sessions`); not asked for while `enabled` is false (a session that may only set up a second factor). */
export function useSessions(enabled = true) {
  return useQuery({ queryKey: SESSIONS_KEY, queryFn: () => api<SessionEntry[]>('/me/sessions'), enabled });
}

/**
 * The changes to one's own account, each reading the account again: start enrolling an app (its
 * secret and QR code; the password again, but while setting up what the team requires), confirm it with a code (answers the recovery codes, shown once), remove it
 * or make new recovery codes (the password again), add a passkey (the browser's authenticator
 * through @simplewebauthn/browser; the password again as for an app) or remove one (the password again),
 * change the password (every other session ends), end a session.
 */
export function useAccountChanges() {
  const queryClient = useQueryClient();
  const onSuccess = () => void queryClient.invalidateQueries({ queryKey: ['me'] });
  return {
    // The password again, from a signed-in session (none while setting up what the team requires).
    startTotp: useMutation({
      mutationFn: (password: string | undefined) => api<TotpSetup>('/me/totp', { method: 'POST', body: password === undefined ? undefined : { password } }),
      gcTime: 0,
    }),
    confirmTotp: useMutation({
      mutationFn: (code: string) => api<{ recoveryCodes: string[] }>('/me/totp/confirm', { method: 'POST', body: { code } }),
      onSuccess,
    }),
    removeTotp: useMutation({ mutationFn: (password: string) => api('/me/totp/remove', { method: 'POST', body: { password } }), onSuccess, gcTime: 0 }),
    newRecoveryCodes: useMutation({
      mutationFn: (password: string) => api<{ recoveryCodes: string[] }>('/me/recovery-codes', { method: 'POST', body: { password } }),
      onSuccess,
      gcTime: 0,
    }),
    addPasskey: useMutation({
      mutationFn: async ({ name, password }: { name: string; password: string | undefined }) => {
        const [{ startRegistration }, options] = await Promise.all([
          import('@simplewebauthn/browser'),
          api<Parameters<typeof import('@simplewebauthn/browser').startRegistration>[0]['optionsJSON']>('/me/passkeys/options', {
            method: 'POST',
            body: password === undefined ? undefined : { password },
          }),
        ]);
        const response = await startRegistration({ optionsJSON: options });
        await api('/me/passkeys', { method: 'POST', body: { name, response } });
      },
      onSuccess,
      gcTime: 0,
    }),
    removePasskey: useMutation({
      mutationFn: ({ id, password }: { id: string; password: string }) =>
        api(`/me/passkeys/${encodeURIComponent(id)}/remove`, { method: 'POST', body: { password } }),
      onSuccess,
      gcTime: 0,
    }),
    changePassword: useMutation({
      mutationFn: (body: { current: string; password: string }) => api('/me/password', { method: 'POST', body }),
      onSuccess,
      gcTime: 0,
    }),
    endSession: useMutation({ mutationFn: (id: string) => api(`/me/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }), onSuccess }),
  };
}
