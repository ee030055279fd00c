import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AdminRole } from '../../shared/admin';
import { systemClock, type Clock } from '../clock';
import type { Database } from './schema';

/** A user of the brand's inbox. */
export interface AdminUser {
  id: string;
  /** Lower-cased. */
  email: string;
  role: AdminRole;
  /** ISO-8601 UTC. */
  createdAt: string;
}

/** Raised by {@link UserRepository.createUser} when the e-mail has an account. */
export class UserExistsError extends Error {
  constructor(email: string) {
    super(`A user with the e-mail ${email} exists already.`);
    this.name = 'UserExistsError';
  }
}

type UserRow = Database['admin_users'];
const toUser = (row: Pick<UserRow, 'id' | 'email' | 'role' | 'created_at'>): AdminUser => ({
  id: row.id,
  email: row.email,
  // A role this server does not know reads as the one that changes nothing.
  role: row.role === 'editor' ? 'editor' : 'viewer',
  createdAt: row.created_at,
});

/**
 * The inbox's users, their sessions and the sign-in attempts counted against them (issue 7,
 * issue 11; DESIGN §8) on the server's Kysely database. Times are ISO-8601 UTC strings.
 */
export class UserRepository {
  /** @param clock - the time now in ms: when a user is created (default `Date.now`). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock = systemClock,
  ) {}

  /** @throws UserExistsError when the e-mail (any case) has an account. */
  async createUser(email: string, passwordHash: string, role: AdminRole) {
    const row = { id: randomUUID(), email: email.toLowerCase(), password_hash: passwordHash, role, created_at: new Date(this.clock()).toISOString() };
    const result = await this.db
      .insertInto('admin_users')
      .values(row)
      .onConflict((conflict) => conflict.column('email').doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) throw new UserExistsError(row.email);
    return toUser(row);
  }

  /** Replaces a password hash and ends the user's sessions; false when there is no such user. */
  async setPasswordHash(email: string, passwordHash: string) {
    return this.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('admin_users').select('id').where('email', '=', email.toLowerCase()).executeTakeFirst();
      if (!user) return false;
      await trx.updateTable('admin_users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute();
      await trx.deleteFrom('admin_sessions').where('user_id', '=', user.id).execute();
      return true;
    });
  }

  /** Every account, by e-mail. */
  async listUsers(): Promise<AdminUser[]> {
    const rows = await this.db.selectFrom('admin_users').select(['id', 'email', 'role', 'created_at']).orderBy('email').execute();
    return rows.map(toUser);
  }

  /** Deletes a user, their sessions and saved views; false when there is no such user. */
  async deleteUser(email: string) {
    return this.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('admin_users').select('id').where('email', '=', email.toLowerCase()).executeTakeFirst();
      if (!user) return false;
      await trx.deleteFrom('admin_sessions').where('user_id', '=', user.id).execute();
      await trx.deleteFrom('saved_views').where('user_id', '=', user.id).execute();
      await trx.deleteFrom('admin_users').where('id', '=', user.id).execute();
      return true;
    });
  }

  /** The user and password hash for a sign-in, by e-mail (any case). */
  async findUserForSignIn(email: string) {
    const row = await this.db.selectFrom('admin_users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
    return row ? { user: toUser(row), passwordHash: row.password_hash } : undefined;
  }

  /** Stores a session by the SHA-256 of its token; `expiresAt` ISO-8601. */
  async createSession(tokenHash: string, userId: string, createdAt: string, expiresAt: string) {
    await this.db.insertInto('admin_sessions').values({ id: tokenHash, user_id: userId, created_at: createdAt, expires_at: expiresAt }).execute();
  }

  /** The session's user while `now` is before its expiry (ISO-8601 times). */
  async findSession(tokenHash: string, now: string) {
    const row = await this.db
      .selectFrom('admin_sessions')
      .innerJoin('admin_users', 'admin_users.id', 'admin_sessions.user_id')
      .select([
        'admin_users.id',
        'admin_users.email',
        'admin_users.role',
        'admin_users.created_at',
        'admin_sessions.created_at as session_created_at',
        'admin_sessions.expires_at',
      ])
      .where('admin_sessions.id', '=', tokenHash)
      .where('admin_sessions.expires_at', '>', now)
      .executeTakeFirst();
    return row ? { user: toUser(row), createdAt: row.session_created_at, expiresAt: row.expires_at } : undefined;
  }

  /** Moves a session's expiry (ISO-8601) to `expiresAt` (sliding expiry). */
  async extendSession(tokenHash: string, expiresAt: string): Promise<void> {
    await this.db.updateTable('admin_sessions').set({ expires_at: expiresAt }).where('id', '=', tokenHash).execute();
  }

  /** Ends a session (sign-out). */
  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('admin_sessions').where('id', '=', tokenHash).execute();
  }

  /**
   * Counts a sign-in attempt before its password is checked (issue 11): stores one row per key
   * (`account:<email>`, `address:<ip>`) under a new attempt id, then counts each key's rows since
   * `since` — this attempt and every other one stored before it, in any process. Each attempt's
   * insert commits before its count, so the n-th of many simultaneous attempts counts at least n:
   * no more than the limit are ever let through to the password check.
   * @param at - this attempt's time, ISO-8601; rows older than a day are dropped on the way.
   * @returns the attempt's id, and per key the count (this attempt included) and the oldest time.
   */
  async countSignInAttempt(keys: string[], at: string, since: string) {
    const attemptId = randomUUID();
    await this.db.insertInto('sign_in_failures').values(keys.map((key) => ({ key, at, attempt_id: attemptId }))).execute();
    const rows = await this.db
      .selectFrom('sign_in_failures')
      .select(['key', (eb) => eb.fn.countAll<string | number>().as('count'), (eb) => eb.fn.min('at').as('oldest')])
      .where('key', 'in', keys)
      .where('at', '>', since)
      .groupBy('key')
      .execute();
    // Old attempts mean nothing after a day: keep the table small.
    await this.db.deleteFrom('sign_in_failures').where('at', '<', new Date(Date.parse(at) - 86_400_000).toISOString()).execute();
    return { attemptId, counts: new Map(rows.map((row) => [row.key, { count: Number(row.count), oldest: String(row.oldest) }])) };
  }

  /** Takes an attempt back (it was blocked, or its password was right): only failures keep counting. */
  async forgetSignInAttempt(attemptId: string) {
    await this.db.deleteFrom('sign_in_failures').where('attempt_id', '=', attemptId).execute();
  }
}
