import { createHash, randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { AdminRole } from '../../shared/admin';
import {
  INVITATION_LIFETIME_MS,
  MAX_INVITATIONS_PER_ADDRESS_PER_HOUR,
  MAX_PASSWORD_RESETS_PER_HOUR,
  PASSWORD_RESET_LIFETIME_MS,
  SECURITY_NOTICE_EVENTS,
  TEAM_AUDIT_PAGE_SIZE,
  type Invitation,
  type Member,
  type Passkey,
  type TeamAudit,
  type TeamEventKind,
  type TeamSettings,
} from '../../shared/team';
import { systemClock, type Clock } from '../clock';
import { auditId } from './audit';
import { lockScope } from './locks';
import type { EmailRepository, MadeEmail } from './emails';
import type { Database } from './schema';

/**
 * The team (docs/inbox.md, "The team"; docs/decisions/030) on the server's Kysely database:
 * members and their roles (always one owner at least), invitations, password resets, second
 * factors (an authenticator app's secret, recovery codes, passkeys), the team's settings and its
 * audit log. Every change writes its audit entry, and its e-mail where it sends one, in its own
 * transaction. Times are ISO-8601 UTC strings.
 */

/** Who made a change, and from where: an address and the client's address (`command line` for the admin CLI). */
export interface Actor {
  email: string;
  address: string;
}

/** An entry of the team's audit log to write. */
interface TeamEventWrite {
  kind: TeamEventKind;
  subject?: string | null;
  detail?: string | null;
}

/** Raised when a change would leave the team without an owner. */
export class LastOwnerError extends Error {
  constructor() {
    super('The team needs at least one owner: make someone else an owner first.');
    this.name = 'LastOwnerError';
  }
}

/** Raised when a removal would leave a member no second factor while the team requires one. */
export class LastFactorError extends Error {
  constructor() {
    super('The team requires a second factor: add another (an app or a passkey) before you remove this one.');
    this.name = 'LastFactorError';
  }
}

/** Raised when an address to invite has an account, or an invitation waiting already. */
export class InvitationConflictError extends Error {
  constructor(readonly reason: 'member' | 'invited') {
    super(reason === 'member' ? 'This address has an account already.' : 'This address is invited already: resend that invitation.');
    this.name = 'InvitationConflictError';
  }
}

/** An address was sent {@link MAX_INVITATIONS_PER_ADDRESS_PER_HOUR} invitations in the last hour: the next waits (`retryAfterSeconds`). */
export class InvitationLimitError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`This address was sent ${MAX_INVITATIONS_PER_ADDRESS_PER_HOUR} invitations in the last hour: send it again later.`);
    this.name = 'InvitationLimitError';
  }
}

/** What an invitation's or a reset's link came to: what it opens, or why it does not (`used` covers accepted and revoked). */
export type LinkState<T> = { state: 'valid'; value: T } | { state: 'expired' | 'used' | 'unknown' };

/** The SHA-256 (hex) of a recovery code as stored: its characters without spaces or hyphens, in lower case. */
export function recoveryCodeHash(code: string): string {
  return createHash('sha256').update(code.replace(/[\s-]/g, '').toLowerCase()).digest('hex');
}

type InvitationRow = Database['team_invitations'];
const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role as AdminRole,
  invitedBy: row.invited_by,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

/**
 * What a change of owners serialises on (locks.ts): at READ COMMITTED two owners demoting or
 * removing each other at once would each see the other still an owner, and leave none.
 */
const OWNERS_SCOPE = 'team-owners';

/** The setting that makes a second factor required (`team_settings.name`). */
const REQUIRE_SECOND_FACTOR = 'require_second_factor';

export class TeamRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly emails: EmailRepository,
    private readonly clock: Clock = systemClock,
  ) {}

  private now(): string {
    return new Date(this.clock()).toISOString();
  }

  /**
   * Writes an audit entry, in `trx` when given (the change's own transaction); a change to how a
   * member signs in ({@link SECURITY_NOTICE_EVENTS}) plans that member's security notice with it.
   */
  async record(actor: Actor, event: TeamEventWrite, trx: Kysely<Database> | Transaction<Database> = this.db): Promise<void> {
    const at = this.now();
    const id = auditId(at);
    const detail = event.detail ?? null;
    await trx
      .insertInto('team_events')
      .values({ id, at, kind: event.kind, actor: actor.email, subject: event.subject ?? null, detail, address: actor.address })
      .execute();
    if (!event.subject || !(SECURITY_NOTICE_EVENTS as readonly string[]).includes(event.kind)) return;
    const member = await trx.selectFrom('admin_users').select('id').where('email', '=', event.subject.toLowerCase()).executeTakeFirst();
    if (member) await this.emails.securityNotice(trx, { userId: member.id, eventId: id, kind: event.kind, detail, at, address: actor.address });
  }

  /** Every member, by address, with whether they have a second factor and how many sessions they have open. */
  async members(): Promise<Member[]> {
    const now = this.now();
    const users = await this.db
      .selectFrom('admin_users')
      .select(['id', 'email', 'role', 'created_at', 'totp_secret'])
      .select((eb) => [
        eb.selectFrom('passkeys').select(eb.fn.countAll<number | string>().as('n')).whereRef('passkeys.user_id', '=', 'admin_users.id').as('passkeys'),
        eb
          .selectFrom('admin_sessions')
          .select(eb.fn.countAll<number | string>().as('n'))
          .whereRef('admin_sessions.user_id', '=', 'admin_users.id')
          .where('admin_sessions.expires_at', '>', now)
          .where('admin_sessions.stage', '=', 'full')
          .as('sessions'),
      ])
      .orderBy('email')
      .execute();
    return users.map((row) => ({
      id: row.id,
      email: row.email,
      role: toRole(row.role),
      createdAt: row.created_at,
      secondFactor: row.totp_secret !== null || Number(row.passkeys) > 0,
      sessions: Number(row.sessions),
    }));
  }

  /** The team's settings. */
  async settings(): Promise<TeamSettings> {
    const row = await this.db.selectFrom('team_settings').select('value').where('name', '=', REQUIRE_SECOND_FACTOR).executeTakeFirst();
    return { requireSecondFactor: row?.value === 'true' };
  }

  /** Changes the team's settings (an owner's), audited when something changed. */
  async setSettings(settings: TeamSettings, actor: Actor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('team_settings').select('value').where('name', '=', REQUIRE_SECOND_FACTOR).executeTakeFirst();
      const value = String(settings.requireSecondFactor);
      if ((before?.value ?? 'false') === value) return;
      await trx
        .insertInto('team_settings')
        .values({ name: REQUIRE_SECOND_FACTOR, value })
        .onConflict((conflict) => conflict.column('name').doUpdateSet({ value }))
        .execute();
      await this.record(actor, { kind: settings.requireSecondFactor ? 'second-factor-required' : 'second-factor-not-required' }, trx);
    });
  }

  /** The invitations waiting to be accepted (expired ones included: they can be resent), newest first. */
  async invitations(): Promise<Invitation[]> {
    const rows = await this.db.selectFrom('team_invitations').selectAll().where('state', '=', 'pending').orderBy('created_at', 'desc').execute();
    return rows.map(toInvitation);
  }

  /**
   * Invites `email` with `role`, and plans its e-mail, in one transaction.
   * @param made - the e-mail, made for the invitation's link id (its link is added as it is sent).
   * @throws InvitationConflictError when the address has an account or an invitation waiting.
   */
  async invite(input: { email: string; role: AdminRole }, actor: Actor, made: (invitation: Invitation) => MadeEmail) {
    const email = input.email.toLowerCase();
    return this.db.transaction().execute(async (trx) => {
      await this.holdInvitationsTo(trx, email);
      const member = await trx.selectFrom('admin_users').select('id').where('email', '=', email).executeTakeFirst();
      if (member) throw new InvitationConflictError('member');
      const waiting = await trx.selectFrom('team_invitations').select('id').where('email', '=', email).where('state', '=', 'pending').executeTakeFirst();
      if (waiting) throw new InvitationConflictError('invited');
      const now = this.clock();
      const row: InvitationRow = {
        id: randomUUID(),
        email,
        role: input.role,
        link_id: randomUUID(),
        invited_by: actor.email,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + INVITATION_LIFETIME_MS).toISOString(),
        state: 'pending',
      };
      await trx.insertInto('team_invitations').values(row).execute();
      const invitation = toInvitation(row);
      await this.emails.planMade(trx, { kind: 'invitation', dedupeKey: `invitation:${row.link_id}`, linkId: row.link_id, made: made(invitation) });
      await this.record(actor, { kind: 'invitation-sent', subject: email, detail: input.role }, trx);
      return { invitation, linkId: row.link_id };
    });
  }

  /**
   * Sends an invitation again with a new link valid 72 hours from now; the earlier link stops working.
   * @returns undefined when there is no such invitation waiting.
   */
  async resend(id: string, actor: Actor, made: (invitation: Invitation) => MadeEmail) {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('team_invitations').selectAll().where('id', '=', id).where('state', '=', 'pending').executeTakeFirst();
      if (!row) return undefined;
      await this.holdInvitationsTo(trx, row.email);
      const renewed = { ...row, link_id: randomUUID(), expires_at: new Date(this.clock() + INVITATION_LIFETIME_MS).toISOString() };
      await trx.updateTable('team_invitations').set({ link_id: renewed.link_id, expires_at: renewed.expires_at }).where('id', '=', id).execute();
      const invitation = toInvitation(renewed);
      await this.emails.planMade(trx, { kind: 'invitation', dedupeKey: `invitation:${renewed.link_id}`, linkId: renewed.link_id, made: made(invitation) });
      await this.record(actor, { kind: 'invitation-resent', subject: row.email }, trx);
      return { invitation, linkId: renewed.link_id };
    });
  }

  /**
   * Takes the address's lock and counts what it was sent in the last hour (the audit log's
   * invitations sent and resent), so that parallel sends all count.
   * @throws InvitationLimitError at {@link MAX_INVITATIONS_PER_ADDRESS_PER_HOUR}.
   */
  private async holdInvitationsTo(trx: Transaction<Database>, email: string): Promise<void> {
    await lockScope(trx, `invitations:${email}`);
    const now = this.clock();
    const sent = await trx
      .selectFrom('team_events')
      .select('at')
      .where('subject', '=', email)
      .where('kind', 'in', ['invitation-sent', 'invitation-resent'])
      .where('at', '>', new Date(now - 3_600_000).toISOString())
      .orderBy('at')
      .execute();
    if (sent.length >= MAX_INVITATIONS_PER_ADDRESS_PER_HOUR)
      throw new InvitationLimitError(Math.max(1, Math.ceil((Date.parse(sent[0]!.at) + 3_600_000 - now) / 1000)));
  }

  /** Revokes a waiting invitation: its link stops working. False when there is none waiting under `id`. */
  async revoke(id: string, actor: Actor): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('team_invitations').select('email').where('id', '=', id).where('state', '=', 'pending').executeTakeFirst();
      if (!row) return false;
      await trx.updateTable('team_invitations').set({ state: 'revoked' }).where('id', '=', id).execute();
      await this.record(actor, { kind: 'invitation-revoked', subject: row.email }, trx);
      return true;
    });
  }

  /** What an invitation's link (its `link_id`) opens now. */
  async invitationByLink(linkId: string): Promise<LinkState<Invitation>> {
    const row = await this.db.selectFrom('team_invitations').selectAll().where('link_id', '=', linkId).executeTakeFirst();
    return linkState(row, row ? toInvitation(row) : undefined, this.now());
  }

  /**
   * Accepts an invitation: makes the account with `passwordHash` and the invitation's role, once.
   * @returns the new member, or why the link does not work (an account made meanwhile for the address: `used`).
   */
  async accept(linkId: string, passwordHash: string, address: string): Promise<LinkState<{ id: string; email: string; role: AdminRole }>> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('team_invitations').selectAll().where('link_id', '=', linkId).executeTakeFirst();
      const state = linkState(row, row, this.now());
      if (state.state !== 'valid') return state;
      const invitation = state.value;
      // An account made meanwhile for the address (the command line): the invitation stays waiting, for an owner to revoke.
      const exists = await trx.selectFrom('admin_users').select('id').where('email', '=', invitation.email).executeTakeFirst();
      if (exists) return { state: 'used' };
      // Only the first of two acceptances at once changes the row: the other finds it taken.
      const taken = await trx
        .updateTable('team_invitations')
        .set({ state: 'accepted' })
        .where('id', '=', invitation.id)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 0) return { state: 'used' };
      const user = { id: randomUUID(), email: invitation.email, role: invitation.role as AdminRole };
      await trx
        .insertInto('admin_users')
        .values({
          ...user,
          password_hash: passwordHash,
          created_at: this.now(),
          totp_secret: null,
          totp_pending: null,
          totp_last_step: null,
          recovery_codes: null,
        })
        .execute();
      await this.record({ email: invitation.email, address }, { kind: 'invitation-accepted', subject: invitation.email, detail: invitation.role }, trx);
      return { state: 'valid', value: user };
    });
  }

  /**
   * Changes a member's role; the change holds from their next request.
   * @returns false when there is no such member.
   * @throws LastOwnerError when it would leave no owner.
   */
  async changeRole(userId: string, role: AdminRole, actor: Actor): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await lockScope(trx, OWNERS_SCOPE);
      const user = await trx.selectFrom('admin_users').select(['email', 'role']).where('id', '=', userId).executeTakeFirst();
      if (!user) return false;
      if (user.role === role) return true;
      if (user.role === 'owner') await assertAnotherOwner(trx, userId);
      await trx.updateTable('admin_users').set({ role }).where('id', '=', userId).execute();
      await this.record(actor, { kind: 'role-changed', subject: user.email, detail: `${toRole(user.role)} → ${role}` }, trx);
      return true;
    });
  }

  /**
   * Removes a member: their account, sessions, saved views, passkeys and reset links go at once.
   * @returns false when there is no such member.
   * @throws LastOwnerError when they are the last owner.
   */
  async remove(userId: string, actor: Actor): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await lockScope(trx, OWNERS_SCOPE);
      const user = await trx.selectFrom('admin_users').select(['email', 'role']).where('id', '=', userId).executeTakeFirst();
      if (!user) return false;
      if (user.role === 'owner') await assertAnotherOwner(trx, userId);
      for (const table of ['admin_sessions', 'saved_views', 'passkeys', 'password_resets'] as const)
        await trx.deleteFrom(table).where('user_id', '=', userId).execute();
      await trx.deleteFrom('admin_users').where('id', '=', userId).execute();
      await this.record(actor, { kind: 'member-removed', subject: user.email, detail: toRole(user.role) }, trx);
      return true;
    });
  }

  /**
   * Plans a password reset for the account of `email` (any case), unless it has none or was sent
   * {@link MAX_PASSWORD_RESETS_PER_HOUR} in the last hour: the caller answers alike either way.
   * @param made - the e-mail to the account's address (its link added as it is sent).
   * @returns whether a reset was planned.
   */
  async requestReset(email: string, address: string, made: (to: string, expiresAt: string) => MadeEmail): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('admin_users').select(['id', 'email']).where('email', '=', email.toLowerCase()).executeTakeFirst();
      if (!user) return false;
      // Counted, then inserted: one request of an account's at a time, or parallel requests all count the same few.
      await lockScope(trx, `password-resets:${user.id}`);
      const now = this.clock();
      const recent = await trx
        .selectFrom('password_resets')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', user.id)
        .where('created_at', '>', new Date(now - 3_600_000).toISOString())
        .executeTakeFirstOrThrow();
      if (Number(recent.n) >= MAX_PASSWORD_RESETS_PER_HOUR) return false;
      const row = {
        id: randomUUID(),
        user_id: user.id,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + PASSWORD_RESET_LIFETIME_MS).toISOString(),
        used_at: null,
      };
      await trx.insertInto('password_resets').values(row).execute();
      await this.emails.planMade(trx, {
        kind: 'password_reset',
        dedupeKey: `password_reset:${row.id}`,
        linkId: row.id,
        userId: user.id,
        made: made(user.email, row.expires_at),
      });
      // Anyone may ask for an address's reset: the log says so rather than naming the member as who asked.
      await this.record({ email: 'not signed in', address }, { kind: 'password-reset-requested', subject: user.email }, trx);
      return true;
    });
  }

  /** What a reset's link (its id) opens now: the account's address. */
  async resetByLink(id: string): Promise<LinkState<{ email: string; expiresAt: string }>> {
    const row = await this.db
      .selectFrom('password_resets')
      .innerJoin('admin_users', 'admin_users.id', 'password_resets.user_id')
      .select(['password_resets.expires_at', 'password_resets.used_at', 'admin_users.email'])
      .where('password_resets.id', '=', id)
      .executeTakeFirst();
    if (!row) return { state: 'unknown' };
    if (row.used_at !== null) return { state: 'used' };
    if (row.expires_at <= this.now()) return { state: 'expired' };
    return { state: 'valid', value: { email: row.email, expiresAt: row.expires_at } };
  }

  /**
   * Sets a new password through a reset's link, once: every session of the account ends, and every
   * other reset link of it stops working.
   */
  async completeReset(id: string, passwordHash: string, address: string): Promise<LinkState<{ email: string }>> {
    return this.db.transaction().execute(async (trx) => {
      const now = this.now();
      const row = await trx
        .selectFrom('password_resets')
        .innerJoin('admin_users', 'admin_users.id', 'password_resets.user_id')
        .select(['password_resets.user_id', 'password_resets.expires_at', 'password_resets.used_at', 'admin_users.email'])
        .where('password_resets.id', '=', id)
        .executeTakeFirst();
      if (!row) return { state: 'unknown' };
      if (row.used_at !== null) return { state: 'used' };
      if (row.expires_at <= now) return { state: 'expired' };
      const taken = await trx.updateTable('password_resets').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 0) return { state: 'used' };
      await this.replacePassword(trx, row.user_id, passwordHash);
      await this.record({ email: row.email, address }, { kind: 'password-reset', subject: row.email }, trx);
      return { state: 'valid', value: { email: row.email } };
    });
  }

  /** Changes a member's password (its hash) and ends every other session of theirs (`keep`: the one they changed it from). */
  async changePassword(userId: string, passwordHash: string, keep: string, actor: Actor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.replacePassword(trx, userId, passwordHash, keep);
      await this.record(actor, { kind: 'password-changed', subject: actor.email }, trx);
    });
  }

  /**
   * Sets a password from the command line (recovery: docs/inbox.md, "The team"): as a reset link
   * does, every session of the member ends and every reset link of theirs dies.
   * @returns false when there is no account with that e-mail (any case).
   */
  async resetPassword(email: string, passwordHash: string, actor: Actor): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('admin_users').select(['id', 'email']).where('email', '=', email.toLowerCase()).executeTakeFirst();
      if (!user) return false;
      await this.replacePassword(trx, user.id, passwordHash);
      await this.record(actor, { kind: 'password-reset', subject: user.email, detail: 'command line' }, trx);
      return true;
    });
  }

  /** The one way a password is replaced: its hash, the member's sessions ended (but `keep`), their reset links used up. */
  private async replacePassword(trx: Transaction<Database>, userId: string, passwordHash: string, keep?: string): Promise<void> {
    await trx.updateTable('admin_users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
    let sessions = trx.deleteFrom('admin_sessions').where('user_id', '=', userId);
    if (keep !== undefined) sessions = sessions.where('id', '<>', keep);
    await sessions.execute();
    await trx.updateTable('password_resets').set({ used_at: this.now() }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  }

  /** A member's second factors: whether an app is enrolled, how many recovery codes are left, their passkeys. */
  async secondFactors(userId: string): Promise<{ totp: boolean; recoveryCodesLeft: number; passkeys: Passkey[] }> {
    const user = await this.db.selectFrom('admin_users').select(['totp_secret', 'recovery_codes']).where('id', '=', userId).executeTakeFirst();
    const passkeys = await this.db
      .selectFrom('passkeys')
      .select(['id', 'name', 'created_at', 'last_used_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
    return {
      totp: Boolean(user?.totp_secret),
      recoveryCodesLeft: user?.totp_secret ? (JSON.parse(user.recovery_codes ?? '[]') as string[]).length : 0,
      passkeys: passkeys.map((row) => ({ id: row.id, name: row.name, createdAt: row.created_at, lastUsedAt: row.last_used_at })),
    };
  }

  /** Keeps an authenticator app's secret being enrolled (Base32), until a code confirms it. */
  async setPendingTotp(userId: string, secret: string): Promise<void> {
    await this.db.updateTable('admin_users').set({ totp_pending: secret }).where('id', '=', userId).execute();
  }

  /** The secret being enrolled, and the one enrolled, with the last time step a code was taken at. */
  async totp(userId: string): Promise<{ pending: string | null; secret: string | null; lastStep: number | null } | undefined> {
    const row = await this.db.selectFrom('admin_users').select(['totp_pending', 'totp_secret', 'totp_last_step']).where('id', '=', userId).executeTakeFirst();
    return row && { pending: row.totp_pending, secret: row.totp_secret, lastStep: row.totp_last_step === null ? null : Number(row.totp_last_step) };
  }

  /** Enrols the pending secret (its first code taken at `step`) with recovery codes' hashes. */
  async enableTotp(userId: string, secret: string, step: number, codeHashes: string[], actor: Actor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('admin_users')
        .set({ totp_secret: secret, totp_pending: null, totp_last_step: step, recovery_codes: JSON.stringify(codeHashes) })
        .where('id', '=', userId)
        .execute();
      await this.record(actor, { kind: 'second-factor-added', subject: actor.email, detail: 'authenticator app' }, trx);
    });
  }

  /** Replaces the recovery codes (the earlier ones stop working). */
  async replaceRecoveryCodes(userId: string, codeHashes: string[], actor: Actor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('admin_users')
        .set({ recovery_codes: JSON.stringify(codeHashes) })
        .where('id', '=', userId)
        .execute();
      await this.record(actor, { kind: 'recovery-codes-made', subject: actor.email }, trx);
    });
  }

  /**
   * Takes a code's time step: true only when it is later than every step taken before (a code is
   * never taken twice, even by two requests at once: the update is conditional).
   */
  async takeTotpStep(userId: string, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('admin_users')
      .set({ totp_last_step: step })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Uses a recovery code, once: true when it was one of the member's and is now gone. */
  async useRecoveryCode(userId: string, code: string, actor: Actor): Promise<boolean> {
    const hash = recoveryCodeHash(code);
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('admin_users').select('recovery_codes').where('id', '=', userId).executeTakeFirst();
      const codes = JSON.parse(row?.recovery_codes ?? '[]') as string[];
      if (!codes.includes(hash)) return false;
      const left = JSON.stringify(codes.filter((stored) => stored !== hash));
      // Conditional on the codes read: of two uses at once, one changes the row.
      const result = await trx
        .updateTable('admin_users')
        .set({ recovery_codes: left })
        .where('id', '=', userId)
        .where('recovery_codes', '=', row!.recovery_codes)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await this.record(actor, { kind: 'recovery-code-used', subject: actor.email, detail: `${codes.length - 1} left` }, trx);
      return true;
    });
  }

  /** Removes the authenticator app and its recovery codes. */
  async removeTotp(userId: string, actor: Actor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await assertFactorLeft(trx, userId, 'totp');
      await trx
        .updateTable('admin_users')
        .set({ totp_secret: null, totp_pending: null, totp_last_step: null, recovery_codes: null })
        .where('id', '=', userId)
        .execute();
      await this.record(actor, { kind: 'second-factor-removed', subject: actor.email, detail: 'authenticator app' }, trx);
    });
  }

  /** Removes every second factor of a member (the admin CLI's recovery): the app, its recovery codes, their passkeys. */
  async removeSecondFactors(userId: string, actor: Actor, subject: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('admin_users')
        .set({ totp_secret: null, totp_pending: null, totp_last_step: null, recovery_codes: null })
        .where('id', '=', userId)
        .execute();
      await trx.deleteFrom('passkeys').where('user_id', '=', userId).execute();
      await this.record(actor, { kind: 'second-factor-removed', subject, detail: 'every second factor' }, trx);
    });
  }

  /** A member's passkeys as WebAuthn needs them (id and transports, base64url and JSON). */
  async passkeyCredentials(userId: string) {
    return this.db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).execute();
  }

  /** A passkey by its credential id. */
  async passkey(id: string) {
    return this.db.selectFrom('passkeys').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Stores a passkey registered by a member. */
  async addPasskey(row: Omit<Database['passkeys'], 'created_at' | 'last_used_at'>, actor: Actor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('passkeys')
        .values({ ...row, created_at: this.now(), last_used_at: null })
        .execute();
      await this.record(actor, { kind: 'second-factor-added', subject: actor.email, detail: `passkey "${row.name}"` }, trx);
    });
  }

  /** Records a passkey's use: its signature counter and when. */
  async usedPasskey(id: string, counter: number): Promise<void> {
    await this.db.updateTable('passkeys').set({ counter, last_used_at: this.now() }).where('id', '=', id).execute();
  }

  /** Removes one of a member's passkeys; false when they have none under `id`. */
  async removePasskey(userId: string, id: string, actor: Actor): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('passkeys').select('name').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      if (!row) return false;
      await assertFactorLeft(trx, userId, id);
      await trx.deleteFrom('passkeys').where('id', '=', id).execute();
      await this.record(actor, { kind: 'second-factor-removed', subject: actor.email, detail: `passkey "${row.name}"` }, trx);
      return true;
    });
  }

  /**
   * The team's audit log, newest first, a page of {@link TEAM_AUDIT_PAGE_SIZE}: by `person` (any
   * part of the address of who did it or whom it concerns), by `kind`, before the entry `before`.
   */
  async events(query: { person?: string | undefined; kind?: TeamEventKind | undefined; before?: string | undefined }): Promise<TeamAudit> {
    // Any part of an address: `lena` finds lena@brand.example, as it acted or was acted on.
    const person = query.person
      ?.trim()
      .toLowerCase()
      .replace(/[\\%_]/g, (character) => `\\${character}`);
    const rows = await this.db
      .selectFrom('team_events')
      .selectAll()
      .$if(Boolean(person), (q) =>
        q.where((eb) =>
          eb.or([sql<boolean>`${eb.ref('actor')} like ${`%${person!}%`} escape '\\'`, sql<boolean>`${eb.ref('subject')} like ${`%${person!}%`} escape '\\'`]),
        ),
      )
      .$if(query.kind !== undefined, (q) => q.where('kind', '=', query.kind!))
      .$if(query.before !== undefined, (q) => q.where('id', '<', query.before!))
      .orderBy('id', 'desc')
      .limit(TEAM_AUDIT_PAGE_SIZE + 1)
      .execute();
    const page = rows.slice(0, TEAM_AUDIT_PAGE_SIZE);
    return {
      events: page.map((row) => ({
        id: row.id,
        at: row.at,
        kind: row.kind as TeamEventKind,
        actor: row.actor,
        subject: row.subject,
        detail: row.detail,
        address: row.address,
      })),
      next: rows.length > TEAM_AUDIT_PAGE_SIZE ? page.at(-1)!.id : null,
    };
  }
}

/** A stored role as this server reads it: one it does not know reads as the one that changes nothing. */
export function toRole(role: string): AdminRole {
  return role === 'owner' || role === 'editor' ? role : 'viewer';
}

/** @throws LastOwnerError when no owner but `userId` is left. */
async function assertAnotherOwner(trx: Transaction<Database>, userId: string): Promise<void> {
  const other = await trx.selectFrom('admin_users').select('id').where('role', '=', 'owner').where('id', '<>', userId).executeTakeFirst();
  if (!other) throw new LastOwnerError();
}

/**
 * @throws LastFactorError when removing `factor` (`totp`, or a passkey's id) would leave the member
 *   none while the team requires one; two removals at once are serialised (the member's lock).
 */
async function assertFactorLeft(trx: Transaction<Database>, userId: string, factor: string): Promise<void> {
  await lockScope(trx, `factors:${userId}`);
  const required = await trx.selectFrom('team_settings').select('value').where('name', '=', REQUIRE_SECOND_FACTOR).executeTakeFirst();
  if (required?.value !== 'true') return;
  const user = await trx.selectFrom('admin_users').select('totp_secret').where('id', '=', userId).executeTakeFirst();
  const passkeys = await trx.selectFrom('passkeys').select('id').where('user_id', '=', userId).execute();
  const left = (user?.totp_secret && factor !== 'totp' ? 1 : 0) + passkeys.filter((passkey) => passkey.id !== factor).length;
  if (left === 0) throw new LastFactorError();
}

/** What a link's row says now: valid, used (accepted or revoked), expired, or unknown. */
function linkState<T>(row: { state: string; expires_at: string } | undefined, value: T | undefined, now: string): LinkState<T> {
  if (!row || value === undefined) return { state: 'unknown' };
  if (row.state !== 'pending') return { state: 'used' };
  if (row.expires_at <= now) return { state: 'expired' };
  return { state: 'valid', value };
}
