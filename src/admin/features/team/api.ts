import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminRole } from '../../../shared/admin';
import type { InvitationSent, Team, TeamAudit, TeamEventKind } from '../../../shared/team';
import { api, queryString } from '../../api';

/** The team's calls (`/api/admin/team…`: docs/inbox.md, "The team"), owners only. */

const TEAM_KEY = ['team'] as const;

/** Members, invitations waiting and the team's settings (`GET /team`). */
export function useTeam() {
  return useQuery({ queryKey: TEAM_KEY, queryFn: () => api<Team>('/team') });
}

/** The team's audit log, newest first, by person and kind (`GET /team/audit`). */
export function useTeamAudit(filters: { person?: string; kind?: TeamEventKind | '' }) {
  return useQuery({
    queryKey: [...TEAM_KEY, 'audit', filters],
    queryFn: () => api<TeamAudit>(`/team/audit${queryString({ person: filters.person, kind: filters.kind })}`),
  });
}

/** The owners' changes, each reading the team (and its log) again. */
export function useTeamChanges() {
  const queryClient = useQueryClient();
  // Returned, so that a change is pending until the team has been read back.
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: TEAM_KEY });
  const member = (id: string, rest = '') => `/team/members/${encodeURIComponent(id)}${rest}`;
  const invitation = (id: string, rest = '') => `/team/invitations/${encodeURIComponent(id)}${rest}`;
  return {
    invite: useMutation({
      mutationFn: (body: { email: string; role: AdminRole }) => api<InvitationSent>('/team/invitations', { method: 'POST', body }),
      onSuccess,
    }),
    resend: useMutation({ mutationFn: (id: string) => api<InvitationSent>(invitation(id, '/resend'), { method: 'POST' }), onSuccess }),
    revoke: useMutation({ mutationFn: (id: string) => api(invitation(id), { method: 'DELETE' }), onSuccess }),
    changeRole: useMutation({ mutationFn: ({ id, role }: { id: string; role: AdminRole }) => api(member(id), { method: 'PATCH', body: { role } }), onSuccess }),
    remove: useMutation({ mutationFn: (id: string) => api(member(id), { method: 'DELETE' }), onSuccess }),
    endSessions: useMutation({ mutationFn: (id: string) => api<{ ended: number }>(member(id, '/sessions'), { method: 'DELETE' }), onSuccess }),
    settings: useMutation({
      mutationFn: (requireSecondFactor: boolean) => api('/team/settings', { method: 'PUT', body: { requireSecondFactor } }),
      onSuccess,
    }),
  };
}
