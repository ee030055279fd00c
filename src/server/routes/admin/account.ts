import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MAX_PASSKEYS,
  PasskeyAuthenticationSchema,
  PasskeyRegistrationSchema,
  PasswordChangeSchema,
  PasswordConfirmSchema,
  RecoveryCodesSchema,
  SecondFactorCodeSchema,
  SecuritySchema,
  SessionSchema,
  TotpConfirmSchema,
  TotpSetupSchema,
  type SessionEntry,
} from '../../../shared/team';
import { z } from '../../../shared/zod';
import { deviceOf } from '../../inbox/device';
import { hashPassword, verifyPassword } from '../../inbox/password';
import { passwordProblem } from '../../inbox/password-policy';
import { isRecoveryCode, newRecoveryCodes, newTotpSecret, totpEnrolment, totpStep } from '../../inbox/second-factor';
import { problemResponses, sendProblem } from '../../problem';
import { LastFactorError, recoveryCodeHash, type Actor } from '../../store/team';
import { passwordGuessKey, sessionStarter, type SignInLimits } from './session';

/** The relying party of passkeys (WebAuthn): the inbox's address (`PUBLIC_URL`) and its host name. */
export interface RelyingParty {
  /** What an authenticator shows the passkey is for. */
  name: string;
  /** `PUBLIC_URL`'s origin: the only one a passkey's answer may come from. */
  origin: string;
  /** `PUBLIC_URL`'s host name. */
  id: string;
}

/** Who makes a change through the inbox API, and from where, as the team's audit log records it. */
export const actorOf = (request: FastifyRequest): Actor => ({ email: request.adminUser!.email, address: request.ip });

/** A member's open sessions as the inbox lists them (their device from the user agent), the request's own marked `current`. */
export async function sessionList(app: FastifyInstance, request: FastifyRequest, userId: string): Promise<SessionEntry[]> {
  return (await app.store.users.sessionsOf(userId, new Date(app.clock()).toISOString())).map((session) => ({
    id: session.ref,
    device: deviceOf(session.userAgent),
    address: session.address,
    createdAt: session.createdAt,
    lastUsedAt: session.lastUsedAt,
    current: session.tokenHash === request.adminSession?.tokenHash,
  }));
}

/** The answer to a code that is not right (or was used already). */
const WRONG_CODE =
  'That code is not right, or was used already: enter the six digits your app shows now (a new one comes every 30 seconds), or one of your recovery codes.';

/** What a sensitive change asks first: the password again (OWASP ASVS: re-authentication before sensitive changes). */
const PASSWORD_AGAIN = 'That password is not right. Enter your password again to make this change.';

/** What a session's stored WebAuthn challenge is for: a passkey sign-in's, or a new passkey's (one never answers the other). */
const SIGN_IN_CHALLENGE = 'sign-in:';
const REGISTRATION_CHALLENGE = 'registration:';

/** The session's challenge for `purpose` (without its prefix), or null when it has none or one for the other. */
const challengeFor = (request: FastifyRequest, purpose: string): string | null => {
  const stored = request.adminSession!.challenge;
  return stored?.startsWith(purpose) ? stored.slice(purpose.length) : null;
};

/**
 * A member's own account in the inbox API (docs/inbox.md, "The team"): the second step of a
 * sign-in (a code from the authenticator app, a recovery code, or a passkey; guesses limited as
 * passwords are), their second factors (enrol an app with its QR code and ten recovery codes shown
 * once; passkeys through WebAuthn; removing one asks for the password again) and their sessions
 * (device, address, last used; end any). Enrolling the first second factor completes a session the
 * team's requirement held at `enrol`.
 */
export const accountRoutes: FastifyPluginAsyncZod<{ relyingParty: RelyingParty; signInLimits: SignInLimits }> = async (app, options) => {
  const { relyingParty: rp, signInLimits: limits } = options;
  const startSession = sessionStarter(app);
  const secondStep = { stages: ['second-factor'] as const, unfinishedOnly: true };
  const enrolling = { stages: ['enrol'] as const };

  /**
   * Counts a guess against the member before it is checked (5 per 15 minutes, as sign-ins): at a
   * second factor (`key` by default), or at the password given again ({@link passwordGuessKey}: the sign-in's own count).
   * @returns a function that takes the guess back once it was right, or undefined after answering 429.
   */
  const countGuess = async (request: FastifyRequest, reply: FastifyReply, key = `second-factor:${request.adminUser!.id}`) => {
    const now = app.clock();
    const { attemptId, counts } = await app.store.users.countSignInAttempt([key], new Date(now).toISOString(), new Date(now - limits.windowMs).toISOString());
    const count = counts.get(key);
    if (count && count.count > limits.perAccount) {
      await app.store.users.forgetSignInAttempt(attemptId);
      const seconds = Math.max(1, Math.ceil((Date.parse(count.oldest) + limits.windowMs - now) / 1000));
      const wait = seconds > 90 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
      const what = key === passwordGuessKey(request.adminUser!.email) ? 'wrong passwords' : 'wrong codes or passkey attempts';
      sendProblem(reply, 429, `Too many ${what}. Try again in ${wait}.`, { headers: { 'Retry-After': String(seconds) } });
      return undefined;
    }
    return () => app.store.users.forgetSignInAttempt(attemptId);
  };

  /** Completes a session: a new one at `full` in place of the request's. */
  const complete = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!(await startSession(request, reply, request.adminUser!.id, 'full'))) return reply;
    return reply.code(204).send();
  };

  app.post(
    '/session/second-factor',
    { schema: { body: SecondFactorCodeSchema, response: { 204: z.void(), ...problemResponses(401, 429) } }, config: secondStep },
    async (request, reply) => {
      const user = request.adminUser!;
      const right = await countGuess(request, reply);
      if (!right) return reply;
      const code = request.body.code.trim();
      let valid = false;
      if (isRecoveryCode(code)) valid = await app.store.team.useRecoveryCode(user.id, code, actorOf(request));
      else {
        const totp = await app.store.team.totp(user.id);
        const step = totp?.secret ? await totpStep(totp.secret, code, app.clock(), totp.lastStep) : undefined;
        // Taken once: the same code again (or an older one) is refused, even by two requests at once.
        valid = step !== undefined && (await app.store.team.takeTotpStep(user.id, step));
      }
      if (!valid) return sendProblem(reply, 401, WRONG_CODE, { errors: [{ path: 'code', message: WRONG_CODE }] });
      await right();
      return complete(request, reply);
    },
  );

  /** The WebAuthn library, read when a passkey is first used (some 2 MB of code a team without passkeys never needs). */
  const webauthn = () => import('@simplewebauthn/server');

  app.post('/session/passkey/options', { schema: { response: { 200: z.record(z.string(), z.unknown()) } }, config: secondStep }, async (request) => {
    const { generateAuthenticationOptions } = await webauthn();
    const credentials = await app.store.team.passkeyCredentials(request.adminUser!.id);
    const optionsJson = await generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials: credentials.map((credential) => ({ id: credential.id, transports: JSON.parse(credential.transports) as string[] })),
      userVerification: 'preferred',
    });
    await app.store.users.setSessionChallenge(request.adminSession!.tokenHash, `${SIGN_IN_CHALLENGE}${optionsJson.challenge}`);
    return optionsJson as unknown as Record<string, unknown>;
  });

  app.post(
    '/session/passkey',
    { schema: { body: PasskeyAuthenticationSchema, response: { 204: z.void(), ...problemResponses(401, 429) } }, config: secondStep },
    async (request, reply) => {
      const right = await countGuess(request, reply);
      if (!right) return reply;
      const refused = () => sendProblem(reply, 401, 'That passkey could not be checked. Try again, or enter a code instead.');
      const challenge = challengeFor(request, SIGN_IN_CHALLENGE);
      const response = request.body.response as unknown as import('@simplewebauthn/server').AuthenticationResponseJSON;
      const stored = typeof response.id === 'string' ? await app.store.team.passkey(response.id) : undefined;
      if (!challenge || !stored || stored.user_id !== request.adminUser!.id) return refused();
      const { verifyAuthenticationResponse } = await webauthn();
      // A challenge answers once: cleared before it is checked.
      await app.store.users.setSessionChallenge(request.adminSession!.tokenHash, null);
      const verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: {
          id: stored.id,
          publicKey: Buffer.from(stored.public_key, 'base64url'),
          counter: Number(stored.counter),
          transports: JSON.parse(stored.transports) as never,
        },
      }).catch((error: unknown) => {
        request.log.info({ err: error }, 'a passkey sign-in was refused');
        return undefined;
      });
      if (!verified?.verified) return refused();
      await app.store.team.usedPasskey(stored.id, verified.authenticationInfo.newCounter);
      await right();
      return complete(request, reply);
    },
  );

  app.get('/me/security', { schema: { response: { 200: SecuritySchema } }, config: enrolling }, async (request) => ({
    ...(await app.store.team.secondFactors(request.adminUser!.id)),
    required: (await app.store.team.settings()).requireSecondFactor,
  }));

  app.post(
    '/me/totp',
    { schema: { body: z.optional(z.nullable(PasswordConfirmSchema)), response: { 200: TotpSetupSchema, ...problemResponses(403, 409) } }, config: enrolling },
    async (request, reply) => {
      if (!(await reauthenticated(request, reply))) return reply;
      // One app at a time: replacing it is removing it (the password again) and setting up another.
      if ((await app.store.team.totp(request.adminUser!.id))?.secret)
        return sendProblem(reply, 409, 'An authenticator app is set up already: remove it first.');
      const secret = await newTotpSecret();
      await app.store.team.setPendingTotp(request.adminUser!.id, secret);
      return { secret, ...(await totpEnrolment(secret, request.adminUser!.email)) };
    },
  );

  app.post(
    '/me/totp/confirm',
    { schema: { body: TotpConfirmSchema, response: { 200: RecoveryCodesSchema, ...problemResponses(409, 422) } }, config: enrolling },
    async (request, reply) => {
      const user = request.adminUser!;
      const totp = await app.store.team.totp(user.id);
      if (!totp?.pending) return sendProblem(reply, 409, 'Start again: scan the QR code, then enter the code your app shows.');
      const step = await totpStep(totp.pending, request.body.code, app.clock(), null);
      const message = 'That code is not right: enter the six digits your app shows now for this account.';
      if (step === undefined) return sendProblem(reply, 422, message, { errors: [{ path: 'code', message }] });
      const codes = newRecoveryCodes();
      await app.store.team.enableTotp(user.id, totp.pending, step, codes.map(recoveryCodeHash), actorOf(request));
      await enrolled(request, reply);
      return { recoveryCodes: codes };
    },
  );

  /** Where the team's requirement held a session at `enrol`: its first second factor completes it. */
  const enrolled = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.adminSession!.stage === 'enrol') await startSession(request, reply, request.adminUser!.id, 'full');
  };

  /**
   * Checks `password`, sent again, against the member's; answers 403 naming `path` when it is not
   * right. Guesses are counted with the sign-in's (5 in 15 minutes in all, then 429, for the
   * sign-in and every route that asks it again together): a session taken over must not become a
   * way to guess the password.
   * @returns whether it was right (false: answered).
   */
  const passwordAgain = async (request: FastifyRequest, reply: FastifyReply, password: string | undefined, path = 'password') => {
    const right = await countGuess(request, reply, passwordGuessKey(request.adminUser!.email));
    if (!right) return false;
    const found = await app.store.users.findUserForSignIn(request.adminUser!.email);
    if (await verifyPassword(password ?? '', found?.passwordHash)) {
      await right();
      return true;
    }
    sendProblem(reply, 403, PASSWORD_AGAIN, { errors: [{ path, message: 'That password is not right.' }] });
    return false;
  };

  /**
   * A new second factor, from a signed-in session, asks for the password again (a session taken
   * over must not add its own factor and lock its member out); one signed in only to set up the
   * factor the team requires has just given it. Answers 403 when it is missing or not right.
   */
  const reauthenticated = async (request: FastifyRequest & { body: { password: string } | null | undefined }, reply: FastifyReply) =>
    request.adminSession!.stage === 'enrol' || passwordAgain(request, reply, request.body?.password);

  /** A second factor removed: 204; 404 when `remove` found no such passkey of the member's; 409 when it is the last the team requires. */
  const factorRemoval = async (reply: FastifyReply, remove: () => Promise<boolean>) => {
    try {
      if (!(await remove())) return sendProblem(reply, 404, 'There is no such passkey.');
    } catch (error) {
      if (error instanceof LastFactorError) return sendProblem(reply, 409, error.message);
      throw error;
    }
    return reply.code(204).send();
  };

  app.post(
    '/me/totp/remove',
    { schema: { body: PasswordConfirmSchema, response: { 204: z.void(), ...problemResponses(403, 409) } } },
    async (request, reply) => {
      if (!(await passwordAgain(request, reply, request.body.password))) return reply;
      return factorRemoval(reply, async () => {
        await app.store.team.removeTotp(request.adminUser!.id, actorOf(request));
        return true;
      });
    },
  );

  app.post(
    '/me/recovery-codes',
    { schema: { body: PasswordConfirmSchema, response: { 200: RecoveryCodesSchema, ...problemResponses(403, 409) } } },
    async (request, reply) => {
      if (!(await passwordAgain(request, reply, request.body.password))) return reply;
      if (!(await app.store.team.secondFactors(request.adminUser!.id)).totp)
        return sendProblem(reply, 409, 'Recovery codes go with an authenticator app: set one up first.');
      const codes = newRecoveryCodes();
      await app.store.team.replaceRecoveryCodes(request.adminUser!.id, codes.map(recoveryCodeHash), actorOf(request));
      return { recoveryCodes: codes };
    },
  );

  app.post(
    '/me/passkeys/options',
    {
      schema: { body: z.optional(z.nullable(PasswordConfirmSchema)), response: { 200: z.record(z.string(), z.unknown()), ...problemResponses(403, 409) } },
      config: enrolling,
    },
    async (request, reply) => {
      if (!(await reauthenticated(request, reply))) return reply;
      const user = request.adminUser!;
      const credentials = await app.store.team.passkeyCredentials(user.id);
      if (credentials.length >= MAX_PASSKEYS) return sendProblem(reply, 409, `A member may have ${MAX_PASSKEYS} passkeys: remove one first.`);
      const { generateRegistrationOptions } = await webauthn();
      const optionsJson = await generateRegistrationOptions({
        rpName: rp.name,
        rpID: rp.id,
        userName: user.email,
        userID: new TextEncoder().encode(user.id),
        attestationType: 'none',
        excludeCredentials: credentials.map((credential) => ({ id: credential.id, transports: JSON.parse(credential.transports) as string[] })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      });
      await app.store.users.setSessionChallenge(request.adminSession!.tokenHash, `${REGISTRATION_CHALLENGE}${optionsJson.challenge}`);
      return optionsJson as unknown as Record<string, unknown>;
    },
  );

  app.post(
    '/me/passkeys',
    { schema: { body: PasskeyRegistrationSchema, response: { 201: z.void(), ...problemResponses(422) } }, config: enrolling },
    async (request, reply) => {
      const challenge = challengeFor(request, REGISTRATION_CHALLENGE);
      const refused = (message: string) => sendProblem(reply, 422, message, { errors: [{ path: 'response', message }] });
      if (!challenge) return refused('Start again: choose “Add a passkey”.');
      const { verifyRegistrationResponse } = await webauthn();
      await app.store.users.setSessionChallenge(request.adminSession!.tokenHash, null);
      const verified = await verifyRegistrationResponse({
        response: request.body.response as unknown as import('@simplewebauthn/server').RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
      }).catch((error: unknown) => {
        request.log.info({ err: error }, 'a passkey registration was refused');
        return undefined;
      });
      if (!verified?.verified) return refused('The passkey could not be checked: try again.');
      const { credential } = verified.registrationInfo;
      const name = request.body.name.trim() || deviceOf(request.headers['user-agent'] ?? '');
      await app.store.team.addPasskey(
        {
          id: credential.id,
          user_id: request.adminUser!.id,
          name,
          public_key: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: JSON.stringify(credential.transports ?? []),
        },
        actorOf(request),
      );
      await enrolled(request, reply);
      return reply.code(201).send();
    },
  );

  app.post(
    '/me/passkeys/:id/remove',
    {
      schema: {
        params: z.object({ id: z.string().check(z.maxLength(1024)) }),
        body: PasswordConfirmSchema,
        response: { 204: z.void(), ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      if (!(await passwordAgain(request, reply, request.body.password))) return reply;
      return factorRemoval(reply, () => app.store.team.removePasskey(request.adminUser!.id, request.params.id, actorOf(request)));
    },
  );

  app.post(
    '/me/password',
    { schema: { body: PasswordChangeSchema, response: { 204: z.void(), ...problemResponses(403, 422, 429) } } },
    async (request, reply) => {
      const user = request.adminUser!;
      if (!(await passwordAgain(request, reply, request.body.current, 'current'))) return reply;
      const problem =
        request.body.password === request.body.current
          ? 'Choose a password other than the one you have.'
          : await passwordProblem(request.body.password, user.email);
      if (problem) return sendProblem(reply, 422, problem, { errors: [{ path: 'password', message: problem }] });
      await app.store.team.changePassword(user.id, await hashPassword(request.body.password), request.adminSession!.tokenHash, actorOf(request));
      return reply.code(204).send();
    },
  );

  app.get('/me/sessions', { schema: { response: { 200: z.array(SessionSchema) } } }, async (request) => sessionList(app, request, request.adminUser!.id));

  app.delete(
    '/me/sessions/:id',
    { schema: { params: z.object({ id: z.string().check(z.maxLength(64)) }), response: { 204: z.void(), ...problemResponses(404) } } },
    async (request, reply) => {
      const user = request.adminUser!;
      const sessions = await app.store.users.sessionsOf(user.id, new Date(app.clock()).toISOString());
      const session = sessions.find((candidate) => candidate.ref === request.params.id);
      if (!session) return sendProblem(reply, 404, 'There is no such session.');
      await app.store.users.deleteSession(session.tokenHash);
      await app.store.team.record(actorOf(request), { kind: 'session-ended', subject: user.email, detail: deviceOf(session.userAgent) });
      return reply.code(204).send();
    },
  );
};
