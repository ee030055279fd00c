import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AcceptInvitationSchema,
  InvitationBodySchema,
  InvitationOfferSchema,
  InvitationSentSchema,
  PasswordResetRequestSchema,
  PasswordResetSchema,
  ROLE_DESCRIPTIONS,
  ResetOfferSchema,
  RoleBodySchema,
  SessionSchema,
  TeamAuditQuerySchema,
  TeamAuditSchema,
  TeamSchema,
  TeamSettingsSchema,
  type Invitation,
} from '../../../shared/team';
import { z } from '../../../shared/zod';
import { invitationEmail, passwordResetEmail } from '../../email/content';
import { INVITATION_LINK_PLACEHOLDER, RESET_LINK_PLACEHOLDER, type SignedLinks } from '../../email/signed-links';
import { hashPassword } from '../../inbox/password';
import { passwordProblem } from '../../inbox/password-policy';
import { problemResponses, sendProblem } from '../../problem';
import { InvitationConflictError, InvitationLimitError, LastOwnerError, type LinkState } from '../../store/team';
import { actorOf, sessionList } from './account';
import { IdParams } from './params';
import { sessionStarter } from './session';

/** What {@link teamRoutes} is registered with. */
export interface TeamRoutesOptions {
  /** The links of invitations and password resets (email/signed-links.ts). */
  links: { invitation: SignedLinks; passwordReset: SignedLinks };
  /** Whether this server sends e-mail (`SMTP_URL`): without it, an invitation's answer carries its link for the owner to pass on. */
  sendsEmail: boolean;
  /** Called once a message is planned: the e-mail sender looks at once. */
  poke: () => void;
}

/** Why a link does not work, as its page says it. */
const LINK_PROBLEMS = {
  invitation: {
    unknown: 'This invitation link is not valid: ask the person who invited you to send it again.',
    used: 'This invitation was accepted or revoked already: sign in, or ask for a new one.',
    expired: 'This invitation has expired (links work for 72 hours): ask the person who invited you to resend it.',
  },
  reset: {
    unknown: 'This reset link is not valid: ask for a new one.',
    used: 'This reset link was used already: ask for a new one if you still need it.',
    expired: 'This reset link has expired (links work for 30 minutes): ask for a new one.',
  },
} as const;

/** The answer a password reset's request always gets, whatever the address (nothing is said of whether it has an account). */
export const RESET_REQUESTED = 'If this address has an account, a link to reset its password is on its way. It works for 30 minutes.';
/** The answer when this server sends no e-mail (no `SMTP_URL`): no link can reach anyone, so none is made (whatever the address). */
export const RESET_NOT_SENT =
  'This server sends no e-mail, so no reset link can reach you: ask the person who runs it to set your password (npm run admin -- reset-password followed by your address).';

/**
 * The team in the inbox API (docs/inbox.md, "The team"): the owners' Team view (members, roles,
 * invitations, sessions ended, the setting that requires a second factor, the team's audit log;
 * 403 for anyone else), and the routes open without a session that an invitation's and a reset's
 * links lead to (their secret in the body: a link's token is in its fragment, never in a path).
 * Every change is audited with who, when and from where.
 */
export const teamRoutes: FastifyPluginAsyncZod<TeamRoutesOptions> = async (app, options) => {
  const startSession = sessionStarter(app);
  const owner = { preValidation: app.requireOwner };

  /** The invitation's e-mail, its link a placeholder in what the log keeps. */
  const invitationMessage = (invitation: Invitation) => ({
    to: invitation.email,
    content: invitationEmail({
      invitedBy: invitation.invitedBy,
      role: invitation.role,
      roleDescription: ROLE_DESCRIPTIONS[invitation.role],
      expiresAt: invitation.expiresAt,
      link: INVITATION_LINK_PLACEHOLDER,
    }),
    headers: {},
  });
  /** An invitation's answer: its link too when no e-mail goes out, for the owner to pass on. */
  const sent = (result: { invitation: Invitation; linkId: string }) => {
    options.poke();
    return { invitation: result.invitation, ...(options.sendsEmail ? {} : { link: options.links.invitation.url(result.linkId) }) };
  };

  app.get('/team', { schema: { response: { 200: TeamSchema } }, ...owner }, async () => ({
    members: await app.store.team.members(),
    invitations: await app.store.team.invitations(),
    settings: await app.store.team.settings(),
  }));

  app.put('/team/settings', { schema: { body: TeamSettingsSchema, response: { 200: TeamSettingsSchema } }, ...owner }, async (request) => {
    await app.store.team.setSettings(request.body, actorOf(request));
    return app.store.team.settings();
  });

  /** 429 with Retry-After: the address had its invitations for the hour. */
  const tooMany = (reply: FastifyReply, error: InvitationLimitError) =>
    sendProblem(reply, 429, error.message, { headers: { 'Retry-After': String(error.retryAfterSeconds) } });

  app.post(
    '/team/invitations',
    { schema: { body: InvitationBodySchema, response: { 201: InvitationSentSchema, ...problemResponses(409, 429) } }, ...owner },
    async (request, reply) => {
      try {
        const result = await app.store.team.invite(request.body, actorOf(request), invitationMessage);
        return reply.code(201).send(sent(result));
      } catch (error) {
        if (error instanceof InvitationConflictError) return sendProblem(reply, 409, error.message, { errors: [{ path: 'email', message: error.message }] });
        if (error instanceof InvitationLimitError) return tooMany(reply, error);
        throw error;
      }
    },
  );

  app.post(
    '/team/invitations/:id/resend',
    { schema: { params: IdParams, response: { 200: InvitationSentSchema, ...problemResponses(404, 429) } }, ...owner },
    async (request, reply) => {
      try {
        const result = await app.store.team.resend(request.params.id, actorOf(request), invitationMessage);
        if (!result) return sendProblem(reply, 404, 'There is no such invitation waiting.');
        return sent(result);
      } catch (error) {
        if (error instanceof InvitationLimitError) return tooMany(reply, error);
        throw error;
      }
    },
  );

  app.delete(
    '/team/invitations/:id',
    { schema: { params: IdParams, response: { 204: z.void(), ...problemResponses(404) } }, ...owner },
    async (request, reply) => {
      if (!(await app.store.team.revoke(request.params.id, actorOf(request)))) return sendProblem(reply, 404, 'There is no such invitation waiting.');
      return reply.code(204).send();
    },
  );

  /** A member change that may leave no owner: 409 with the reason, 404 for no such member. */
  const memberChange = async (reply: FastifyReply, change: () => Promise<boolean>) => {
    try {
      if (!(await change())) return sendProblem(reply, 404, 'There is no such member.');
    } catch (error) {
      if (error instanceof LastOwnerError) return sendProblem(reply, 409, error.message);
      throw error;
    }
    return reply.code(204).send();
  };

  app.patch(
    '/team/members/:id',
    { schema: { params: IdParams, body: RoleBodySchema, response: { 204: z.void(), ...problemResponses(404, 409) } }, ...owner },
    async (request, reply) => memberChange(reply, () => app.store.team.changeRole(request.params.id, request.body.role, actorOf(request))),
  );

  app.delete(
    '/team/members/:id',
    { schema: { params: IdParams, response: { 204: z.void(), ...problemResponses(404, 409) } }, ...owner },
    async (request, reply) => memberChange(reply, () => app.store.team.remove(request.params.id, actorOf(request))),
  );

  app.get(
    '/team/members/:id/sessions',
    { schema: { params: IdParams, response: { 200: z.array(SessionSchema), ...problemResponses(404) } }, ...owner },
    async (request, reply) => {
      const member = await app.store.users.userById(request.params.id);
      if (!member) return sendProblem(reply, 404, 'There is no such member.');
      return sessionList(app, request, member.id);
    },
  );

  app.delete(
    '/team/members/:id/sessions',
    { schema: { params: IdParams, response: { 200: z.object({ ended: z.number() }), ...problemResponses(404) } }, ...owner },
    async (request, reply) => {
      const member = await app.store.users.userById(request.params.id);
      if (!member) return sendProblem(reply, 404, 'There is no such member.');
      // An owner ending their own: every session but this one.
      const own = member.id === request.adminUser!.id;
      const ended = await app.store.users.deleteSessionsOf(member.id, own ? request.adminSession!.tokenHash : undefined);
      await app.store.team.record(actorOf(request), { kind: 'sessions-ended', subject: member.email, detail: `${ended} ended` });
      return { ended };
    },
  );

  app.get('/team/audit', { schema: { querystring: TeamAuditQuerySchema, response: { 200: TeamAuditSchema } }, ...owner }, async (request) =>
    app.store.team.events(request.query),
  );

  // Open without a session: what an invitation's link offers, and its acceptance.
  const publicRoute = { public: true, rateLimit: { max: 30, timeWindow: '1 minute' } };
  const linkProblem = (reply: FastifyReply, state: Exclude<LinkState<unknown>['state'], 'valid'>, kind: keyof typeof LINK_PROBLEMS) =>
    sendProblem(reply, state === 'expired' ? 410 : 404, LINK_PROBLEMS[kind][state]);
  /** A link's token read: its id when its MAC holds, and what that id opens now (`unknown` for a forged one). */
  const invitationOf = async (token: string) => {
    const id = options.links.invitation.verify(token);
    return { id, found: id ? await app.store.team.invitationByLink(id) : ({ state: 'unknown' } as const) };
  };
  const resetOf = async (token: string) => {
    const id = options.links.passwordReset.verify(token);
    return { id, found: id ? await app.store.team.resetByLink(id) : ({ state: 'unknown' } as const) };
  };

  app.post(
    '/invitations/offer',
    {
      schema: { body: z.strictObject({ token: AcceptInvitationSchema.shape.token }), response: { 200: InvitationOfferSchema, ...problemResponses(404, 410) } },
      config: publicRoute,
    },
    async (request, reply) => {
      const { found } = await invitationOf(request.body.token);
      if (found.state !== 'valid') return linkProblem(reply, found.state, 'invitation');
      const { email, role, invitedBy, expiresAt } = found.value;
      return { email, role, invitedBy, expiresAt };
    },
  );

  app.post(
    '/invitations/accept',
    { schema: { body: AcceptInvitationSchema, response: { 204: z.void(), ...problemResponses(404, 410, 422) } }, config: publicRoute },
    async (request, reply) => {
      const { id: linkId, found: offered } = await invitationOf(request.body.token);
      if (offered.state !== 'valid') return linkProblem(reply, offered.state, 'invitation');
      const problem = await passwordProblem(request.body.password, offered.value.email);
      if (problem) return sendProblem(reply, 422, problem, { errors: [{ path: 'password', message: problem }] });
      const accepted = await app.store.team.accept(linkId!, await hashPassword(request.body.password), request.ip);
      if (accepted.state !== 'valid') return linkProblem(reply, accepted.state, 'invitation');
      // Signed in at once; where the team requires a second factor, only to set one up.
      const stage = (await app.store.team.settings()).requireSecondFactor ? 'enrol' : 'full';
      if (!(await startSession(request, reply, accepted.value.id, stage))) return reply;
      return reply.code(204).send();
    },
  );

  app.post(
    '/password-reset',
    { schema: { body: PasswordResetRequestSchema, response: { 202: z.object({ detail: z.string() }) } }, config: publicRoute },
    async (request, reply) => {
      const email = request.body.email.trim().toLowerCase();
      const address = request.ip;
      if (!options.sendsEmail) return reply.code(202).send({ detail: RESET_NOT_SENT });
      // Answered before anything is looked up: the same answer, in the same time, for an address with an
      // account and one without (the work, and its e-mail, follow the answer).
      reply.code(202).send({ detail: RESET_REQUESTED });
      app.store.team
        .requestReset(email, address, (to, expiresAt) => ({ to, content: passwordResetEmail({ expiresAt, link: RESET_LINK_PLACEHOLDER }), headers: {} }))
        .then((planned) => planned && options.poke())
        .catch((error: unknown) => request.log.error({ err: error }, 'a password reset could not be planned'));
      return reply;
    },
  );

  app.post(
    '/password-reset/offer',
    {
      schema: { body: z.strictObject({ token: PasswordResetSchema.shape.token }), response: { 200: ResetOfferSchema, ...problemResponses(404, 410) } },
      config: publicRoute,
    },
    async (request, reply) => {
      const { found } = await resetOf(request.body.token);
      if (found.state !== 'valid') return linkProblem(reply, found.state, 'reset');
      return found.value;
    },
  );

  app.post(
    '/password-reset/complete',
    { schema: { body: PasswordResetSchema, response: { 204: z.void(), ...problemResponses(404, 410, 422) } }, config: publicRoute },
    async (request, reply) => {
      const { id, found } = await resetOf(request.body.token);
      if (found.state !== 'valid') return linkProblem(reply, found.state, 'reset');
      const problem = await passwordProblem(request.body.password, found.value.email);
      if (problem) return sendProblem(reply, 422, problem, { errors: [{ path: 'password', message: problem }] });
      const done = await app.store.team.completeReset(id!, await hashPassword(request.body.password), request.ip);
      if (done.state !== 'valid') return linkProblem(reply, done.state, 'reset');
      // Not signed in: the member signs in with the new password (and their second factor, if any).
      return reply.code(204).send();
    },
  );
};
