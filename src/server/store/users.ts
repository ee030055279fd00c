import { createHash, randomUUID } from 'node:crypto';
import type { DeleteQueryBuilder, DeleteResult, Kysely } from 'kysely';
import type { AdminRole, SessionStage } from '../../shared/admin';
import { systemClock, type Clock } from '../clock';
import { isStoreUnavailable } from './errors';
import type { Database } from './schema';
import { toRole } from './team';

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

/** A session's public id: from its token's hash, which it does not reveal (so a session can be named and ended without exposing what identifies it). */
export const sessionRef = (tokenHash: string) => createHash('sha256').update(`session-ref\n${tokenHash}`).digest('base64url').slice(0, 22);
type AttemptRow = { key: string; at: string; attempt_id: string };

/**
 * Most sign-in attempt rows (two per attempt) a process holds in memory while the store refuses
 * to write them (a full disk: docs/decisions/008); past it, an attempt that cannot be written is
 * refused as the store's error (503), so the limits never stop holding. 5 000 rows are 2 500
 * attempts in the 15-minute window, some 500 KB.
 */
export const MAX_HELD_ATTEMPT_ROWS = 5_000;

/** Rows per insert when held attempts are written (3 parameters a row, within every store's limit). */
const HELD_ROWS_PER_INSERT = 500;
const toUser = (row: Pick<UserRow, 'id' | 'email' | 'role' | 'created_at'>): AdminUser => ({
  id: row.id,
  email: row.email,
  // A role this server does not know reads as the one that changes nothing.
  role: toRole(row.role),
  createdAt: row.created_at,
});

/**
 * The inbox's users, their sessions and the sign-in attempts counted against them (requirements §17;
 * docs/decisions/004 and 006) on the server's Kysely database. Times are ISO-8601 UTC strings.
 */
export class UserRepository {
  /** @param clock - the time now in ms: when a user is created (default `Date.now`). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock = systemClock,
  ) {}

  /** @throws UserExistsError when the e-mail (any case) has an account. */
  async createUser(email: string, passwordHash: string, role: AdminRole) {
    const row = {
      id: randomUUID(),
      email: email.toLowerCase(),
      password_hash: passwordHash,
      role,
      created_at: new Date(this.clock()).toISOString(),
      totp_secret: null,
      totp_pending: null,
      totp_last_step: null,
      recovery_codes: null,
    };
    const result = await this.db
      .insertInto('admin_users')
      .values(row)
      .onConflict((conflict) => conflict.column('email').doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) throw new UserExistsError(row.email);
    return toUser(row);
  }

  /** Every account, by e-mail. */
  async listUsers(): Promise<AdminUser[]> {
    const rows = await this.db.selectFrom('admin_users').select(['id', 'email', 'role', 'created_at']).orderBy('email').execute();
    return rows.map(toUser);
  }

  /** The user and password hash for a sign-in, by e-mail (any case). */
  async findUserForSignIn(email: string) {
    const row = await this.db.selectFrom('admin_users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
    return row ? { user: toUser(row), passwordHash: row.password_hash } : undefined;
  }

  /**
   * Stores a session by the SHA-256 of its token; times ISO-8601.
   * @param client - what its member sees of it in their sessions: the user agent and the client's address.
   * @param stage - `full`, or short of it: a second factor to come, or one to enrol (docs/inbox.md, "The team").
   */
  async createSession(
    tokenHash: string,
    userId: string,
    createdAt: string,
    expiresAt: string,
    client: { userAgent?: string | undefined; address?: string | undefined } = {},
    stage: SessionStage = 'full',
  ) {
    await this.db
      .insertInto('admin_sessions')
      .values({
        id: tokenHash,
        user_id: userId,
        created_at: createdAt,
        expires_at: expiresAt,
        // Bounded: a user agent is the client's to say, and only read to name a device.
        user_agent: client.userAgent?.slice(0, 512) ?? null,
        address: client.address ?? null,
        last_used_at: createdAt,
        stage,
        challenge: null,
      })
      .execute();
  }

  /** The session's user, stage and (a passkey sign-in's) challenge while `now` is before its expiry (ISO-8601 times). */
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
        'admin_sessions.stage',
        'admin_sessions.challenge',
      ])
      .where('admin_sessions.id', '=', tokenHash)
      .where('admin_sessions.expires_at', '>', now)
      .executeTakeFirst();
    return row
      ? { user: toUser(row), createdAt: row.session_created_at, expiresAt: row.expires_at, stage: row.stage as SessionStage, challenge: row.challenge }
      : undefined;
  }

  /** Moves a session's expiry (ISO-8601) to `expiresAt` (sliding expiry), and its last use to `usedAt`. */
  async extendSession(tokenHash: string, expiresAt: string, usedAt?: string): Promise<void> {
    await this.db
      .updateTable('admin_sessions')
      .set({ expires_at: expiresAt, ...(usedAt ? { last_used_at: usedAt } : {}) })
      .where('id', '=', tokenHash)
      .execute();
  }

  /** Sets a session's stage (`full` once its second factor is given) and expiry, and clears its challenge. */
  async setSessionStage(tokenHash: string, stage: SessionStage, expiresAt: string): Promise<void> {
    await this.db.updateTable('admin_sessions').set({ stage, expires_at: expiresAt, challenge: null }).where('id', '=', tokenHash).execute();
  }

  /** Keeps a passkey sign-in's challenge (base64url) on the session that asked for it. */
  async setSessionChallenge(tokenHash: string, challenge: string | null): Promise<void> {
    await this.db.updateTable('admin_sessions').set({ challenge }).where('id', '=', tokenHash).execute();
  }

  /** A member's open sessions, newest use first; each with its public id ({@link sessionRef}), never its token's hash. */
  async sessionsOf(userId: string, now: string) {
    const rows = await this.db
      .selectFrom('admin_sessions')
      .select(['id', 'created_at', 'last_used_at', 'user_agent', 'address'])
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .where('stage', '=', 'full')
      .orderBy('last_used_at', 'desc')
      .execute();
    return rows.map((row) => ({
      ref: sessionRef(row.id),
      tokenHash: row.id,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at ?? row.created_at,
      userAgent: row.user_agent ?? '',
      address: row.address ?? '',
    }));
  }

  /** Ends every session of a member but `except` (a token's hash); how many of those signed in and open (as the Team view counts them) ended. */
  async deleteSessionsOf(userId: string, except?: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const others = (query: DeleteQueryBuilder<Database, 'admin_sessions', DeleteResult>) =>
        query.where('user_id', '=', userId).$if(except !== undefined, (where) => where.where('id', '<>', except!));
      // Those past their end or short of a full sign-in first, uncounted: the count is of the sessions the Team view showed.
      const now = new Date(this.clock()).toISOString();
      await others(trx.deleteFrom('admin_sessions'))
        .where((eb) => eb.or([eb('expires_at', '<=', now), eb('stage', '<>', 'full')]))
        .execute();
      const result = await others(trx.deleteFrom('admin_sessions')).executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  /** A member by id. */
  async userById(id: string): Promise<AdminUser | undefined> {
    const row = await this.db.selectFrom('admin_users').select(['id', 'email', 'role', 'created_at']).where('id', '=', id).executeTakeFirst();
    return row && toUser(row);
  }

  /** Whether any account is an owner. */
  async hasOwner(): Promise<boolean> {
    return (await this.db.selectFrom('admin_users').select('id').where('role', '=', 'owner').executeTakeFirst()) !== undefined;
  }

  /** Ends a session (sign-out). */
  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('admin_sessions').where('id', '=', tokenHash).execute();
  }

  /**
   * Sign-in attempts not written yet because the store refused the write (a full disk, an I/O
   * error; docs/decisions/008): counted from here, and written at the next attempt the store takes.
   * This process's alone: on PostgreSQL, other server processes do not see them until then.
   */
  private held: AttemptRow[] = [];
  /** Attempts taken back while the store refused the deletion: not counted, deleted at the next attempt written. */
  private forgotten = new Set<string>();
  /** The run of {@link writeHeld} going on. */
  private writingHeld: Promise<void> | undefined;

  /**
   * Counts a sign-in attempt before its password is checked: stores one row per key
   * (`account:<email>`, `address:<ip>`) under a new attempt id, then counts each key's rows since
   * `since` — this attempt and every other one stored before it, in any process. Each attempt's
   * insert commits before its count, so the n-th of many simultaneous attempts counts at least n:
   * no more than the limit are ever let through to the password check.
   *
   * While the store refuses writes but answers reads (a full disk; docs/decisions/008), the rows are
   * held in this process's memory (at most {@link MAX_HELD_ATTEMPT_ROWS}) and counted with the
   * stored ones, so signing in goes on and the limits hold; they are written at the next attempt
   * the store takes, unless they have left the window by then (they would count for nothing).
   * @param at - this attempt's time, ISO-8601; rows older than a day are dropped on the way.
   * @returns the attempt's id, per key the count (this attempt included) and the oldest time, and
   *   `held` when this attempt could not be written.
   * @throws the store's error when it cannot be read, or refuses the write with too many held already.
   */
  async countSignInAttempt(keys: string[], at: string, since: string) {
    const attemptId = randomUUID();
    const rows = keys.map((key) => ({ key, at, attempt_id: attemptId }));
    this.held = this.held.filter((row) => row.at > since);
    let held = false;
    try {
      await this.writeHeld();
      await this.db.insertInto('sign_in_failures').values(rows).execute();
    } catch (error) {
      if (!isStoreUnavailable(error) || this.held.length + rows.length > MAX_HELD_ATTEMPT_ROWS) throw error;
      this.held.push(...rows);
      held = true;
    }
    let stored: { key: string; count: string | number; oldest: string | null }[];
    try {
      const forgotten = [...this.forgotten];
      stored = await this.db
        .selectFrom('sign_in_failures')
        .select(['key', (eb) => eb.fn.countAll<string | number>().as('count'), (eb) => eb.fn.min('at').as('oldest')])
        .where('key', 'in', keys)
        .where('at', '>', since)
        .$if(forgotten.length > 0, (query) => query.where((eb) => eb.or([eb('attempt_id', 'is', null), eb('attempt_id', 'not in', forgotten)])))
        .groupBy('key')
        .execute();
    } catch (error) {
      // An attempt the store could not even count checks nothing: it does not count either.
      if (held) this.held = this.held.filter((row) => row.attempt_id !== attemptId);
      throw error;
    }
    const counts = new Map(stored.map((row) => [row.key, { count: Number(row.count), oldest: String(row.oldest) }]));
    for (const row of this.held) {
      if (!keys.includes(row.key) || row.at <= since) continue;
      const count = counts.get(row.key);
      counts.set(row.key, { count: (count?.count ?? 0) + 1, oldest: count && count.oldest < row.at ? count.oldest : row.at });
    }
    // Old attempts mean nothing after a day: keep the table small (when the store takes the deletion).
    await this.db
      .deleteFrom('sign_in_failures')
      .where('at', '<', new Date(Date.parse(at) - 86_400_000).toISOString())
      .execute()
      .catch((error: unknown) => {
        if (!isStoreUnavailable(error)) throw error;
      });
    return { attemptId, counts, held };
  }

  /**
   * Takes an attempt back (it was blocked, or its password was right): only failures keep counting.
   * One the store refuses to delete (docs/decisions/008) stops counting here at once, and is
   * deleted at the next attempt the store takes.
   */
  async forgetSignInAttempt(attemptId: string) {
    const before = this.held.length;
    this.held = this.held.filter((row) => row.attempt_id !== attemptId);
    if (this.held.length < before) return;
    try {
      await this.db.deleteFrom('sign_in_failures').where('attempt_id', '=', attemptId).execute();
    } catch (error) {
      if (!isStoreUnavailable(error) || this.forgotten.size >= MAX_HELD_ATTEMPT_ROWS) throw error;
      this.forgotten.add(attemptId);
    }
  }

  /**
   * Writes the attempts held while the store refused writes, and deletes those taken back
   * meanwhile; attempts arriving at once share one run (each held row is written once).
   */
  private writeHeld(): Promise<void> {
    if (this.held.length === 0 && this.forgotten.size === 0) return Promise.resolve();
    this.writingHeld ??= (async () => {
      while (this.held.length > 0) {
        const rows = new Set(this.held.slice(0, HELD_ROWS_PER_INSERT));
        await this.db
          .insertInto('sign_in_failures')
          .values([...rows])
          .execute();
        this.held = this.held.filter((row) => !rows.has(row));
      }
      if (this.forgotten.size > 0) {
        const ids = [...this.forgotten];
        await this.db.deleteFrom('sign_in_failures').where('attempt_id', 'in', ids).execute();
        for (const id of ids) this.forgotten.delete(id);
      }
    })().finally(() => (this.writingHeld = undefined));
    return this.writingHeld;
  }
}
