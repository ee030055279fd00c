import type { ConsentRecord } from '../../shared/consents';
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { GUARDIAN_WAIT_MS } from '../../shared/age';
import type { Clock } from '../clock';
import { mailboxKey } from '../../shared/rules';
import type { ApplicationRepository, NewApplication } from './applications';
import type { AuditRepository } from './audit';
import { eraseFromEmailLog, type EmailRepository } from './emails';
import type { ErasureFollowUp } from './erasure-follow-up';
import { heldApplications, toHeld, type HeldRow } from './held-applications';
import type { Database, HeldApplication } from './schema';

/** What holding an application came to: its id, when it arrived, whether it was held now, and whether an earlier one of its key had another body. */
export interface Held {
  id: string;
  receivedAt: string;
  created: boolean;
  conflict: boolean;
  /** The guardian is e-mailed; false when their mailbox had its requests for the day (the request waits unsent, then is erased). True for a replay. */
  asked: boolean;
}

/** What {@link GuardianRepository} works with. */
export interface GuardianRepositoryParts {
  applications: ApplicationRepository;
  audit: AuditRepository;
  emails: EmailRepository;
  erasure: ErasureFollowUp | undefined;
  clock: Clock;
}

/**
 * Minors' applications held for a parent's or guardian's consent (requirements §20): kept apart from
 * the applications (`guardian_requests`, migration 021), so no inbox list, count, search, export,
 * webhook or e-mail of the team sees one before consent. Consent stores it as an application (under
 * the same id, with an audit entry saying so); a refusal, 7 days without an answer, or a
 * data-subject erasure erases it with the e-mail that asked.
 */
export class GuardianRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly parts: GuardianRepositoryParts,
  ) {}

  /**
   * Holds `application` and plans the e-mail to `guardianEmail` in the same transaction. The same
   * `idempotencyKey` on the same page answers as the first time (`created` false; `conflict` when
   * its body differs), whether still held or released since.
   * @throws the store's error.
   */
  async hold(application: NewApplication & { guardianEmail: string }): Promise<Held> {
    const payload = application.payloadJson ?? JSON.stringify(application.payload);
    const key = application.idempotencyKey ?? randomUUID();
    const now = this.parts.clock();
    return this.db.transaction().execute(async (trx) => {
      const earlier =
        (await heldUnderKey(trx, application.pageId, key)) ??
        (await trx
          .selectFrom('applications')
          .select(['id', 'received_at', 'payload'])
          .where('page_id', '=', application.pageId)
          .where('idempotency_key', '=', key)
          .executeTakeFirst());
      if (earlier) return { id: earlier.id, receivedAt: earlier.received_at, created: false, conflict: earlier.payload !== payload, asked: true };
      const row: HeldRow = {
        id: uuidv7(),
        page_id: application.pageId,
        page_version: application.pageVersion ?? null,
        idempotency_key: key,
        email: application.emailAddress.toLowerCase(),
        guardian_email: application.guardianEmail.toLowerCase(),
        guardian_mailbox: mailboxKey(application.guardianEmail),
        payload,
        user_agent: application.userAgent?.slice(0, 512) ?? null,
        received_at: new Date(now).toISOString(),
        expires_at: new Date(now + GUARDIAN_WAIT_MS).toISOString(),
        consents: application.consents
          ? JSON.stringify(application.consents.map((record) => ({ ...record, at: record.at ?? new Date(now).toISOString() })))
          : null,
        released_at: null,
      };
      // Anyone may name anyone as a guardian: one mailbox is asked at most a few times a day (the
      // confirmations' cap); past it the request waits unsent, and is erased after its 7 days.
      const { count } = await trx
        .selectFrom('guardian_requests')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('guardian_mailbox', '=', row.guardian_mailbox)
        .where('received_at', '>=', new Date(now - 24 * 60 * 60 * 1000).toISOString())
        .executeTakeFirstOrThrow();
      await trx.insertInto('guardian_requests').values(row).execute();
      const asked = Number(count) < MAX_GUARDIAN_REQUESTS_PER_MAILBOX;
      if (asked) await this.parts.emails.planGuardianConsent(trx, { id: row.id, pageId: row.page_id });
      return { id: row.id, receivedAt: row.received_at, created: true, conflict: false, asked };
    });
  }

  /**
   * The application held on page `pageId` under `idempotencyKey` (lower case), or undefined: what an
   * adult's application under a key a minor's took answers as (the key is one application's).
   */
  async findByKey(pageId: string, idempotencyKey: string): Promise<{ id: string; receivedAt: string; payload: unknown } | undefined> {
    const row = await heldUnderKey(this.db, pageId, idempotencyKey);
    return row && { id: row.id, receivedAt: row.received_at, payload: JSON.parse(row.payload) as unknown };
  }

  /** The held application `id`, or undefined (answered, erased, or never held). */
  async get(id: string): Promise<HeldApplication | undefined> {
    const row = await this.db.selectFrom('guardian_requests').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toHeld(row);
  }

  /** The held applications of `ids`, by id (for the e-mail that asks). */
  ofIds(ids: readonly string[]): Promise<Map<string, HeldApplication>> {
    return heldApplications(this.db, ids);
  }

  /** Every held application given by or naming `email` (either address, any case): a data-subject request's. */
  async byEmail(email: string): Promise<HeldApplication[]> {
    const address = email.trim().toLowerCase();
    const rows = await this.db
      .selectFrom('guardian_requests')
      .selectAll()
      .where((eb) => eb.or([eb('email', '=', address), eb('guardian_email', '=', address)]))
      .orderBy('received_at')
      .execute();
    return rows.map(toHeld);
  }

  /**
   * Consent: stores the held application as an application under its id (as its page version
   * asked), then drops the held row and records the consent in the application's audit log. The
   * held row is claimed first (`released_at`): a refusal, an erasure or the sweep arriving meanwhile
   * finds nothing to erase, and a consent cut short (a crash) resumes when it is given again. Given
   * twice, one application is stored and one consent recorded. An Idempotency-Key another
   * application took meanwhile is not the held one's: it is stored under a key of its own.
   * @param consent - the guardian's consent record, kept with the application's own (`applications.consents`).
   * @param capped - its page has a cap: it takes a slot, or is not stored (`full`; the held row is then erased).
   * @returns `released`, `full`, or `gone` when there is no such held application (answered, erased, expired).
   * @throws the store's error (nothing is lost: the held row stays until the application is stored).
   */
  async release(id: string, capped = false, consent?: ConsentRecord): Promise<'released' | 'full' | 'gone'> {
    const now = new Date(this.parts.clock()).toISOString();
    const claimed = await this.db
      .updateTable('guardian_requests')
      .set({ released_at: now })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('expires_at', '>', now), eb('released_at', 'is not', null)]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return 'gone';
    const held = await this.get(id);
    if (!held) return 'gone';
    const application = {
      id: held.id,
      pageId: held.pageId,
      pageVersion: held.pageVersion ?? undefined,
      capped,
      emailAddress: held.email,
      payload: held.payload,
      payloadJson: held.payloadJson,
      userAgent: held.userAgent ?? undefined,
      consents: consent ? [...(held.consents ?? []), consent] : held.consents,
    };
    let saved = await this.parts.applications.save({ ...application, idempotencyKey: held.idempotencyKey });
    // The key went to another application meanwhile (a client used it again): this one under its own.
    if (!saved.full && saved.id !== held.id) saved = await this.parts.applications.save({ ...application, idempotencyKey: randomUUID() });
    if (saved.full) {
      await this.erase(id, { releasing: true });
      return 'full';
    }
    await this.db.transaction().execute(async (trx) => {
      const dropped = await trx.deleteFrom('guardian_requests').where('id', '=', id).executeTakeFirst();
      if (Number(dropped.numDeletedRows) === 0) return;
      // Who consented, found by their address (a data-subject request: migration 022).
      await trx.updateTable('applications').set({ guardian_email: held.guardianEmail }).where('id', '=', id).execute();
      await this.parts.audit.append(trx, new Date(this.parts.clock()).toISOString(), [
        { applicationId: id, actor: GUARDIAN_ACTOR, action: 'guardian-consented' },
      ]);
    });
    return 'released';
  }

  /**
   * Erases a held application (a refusal, its 7 days over, a data-subject erasure): its row, and the
   * e-mail that asked (kept in the log without its recipient or content, as an erased application's).
   * One whose consent is being stored is left alone unless `releasing` (the consent itself gives up).
   * @returns false when there was none to erase.
   */
  async erase(id: string, { releasing = false }: { releasing?: boolean } = {}): Promise<boolean> {
    const erased = await this.db.transaction().execute(async (trx) => {
      let query = trx.deleteFrom('guardian_requests').where('id', '=', id);
      if (!releasing) query = query.where('released_at', 'is', null);
      const deleted = await query.executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return false;
      await eraseFromEmailLog(trx, id);
      await this.parts.erasure?.inTransaction(trx);
      return true;
    });
    if (erased) this.parts.erasure?.erased();
    return erased;
  }

  /** The ids of the held applications whose 7 days are over at `now` (ISO-8601 UTC), oldest first, at most `limit`. */
  async expired(now: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('guardian_requests')
      .select('id')
      .where('expires_at', '<=', now)
      .where('released_at', 'is', null)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }
}

/** The most consent requests one guardian's mailbox is e-mailed in 24 hours: 3 (as confirmations to one address). */
export const MAX_GUARDIAN_REQUESTS_PER_MAILBOX = 3;

/** Who the audit log names for a consent: the role, never the person (the audit log keeps no personal data). */
export const GUARDIAN_ACTOR = 'parent or guardian';

/** The application held on page `pageId` under `idempotencyKey`: its id, arrival and payload's JSON, or undefined. */
function heldUnderKey(db: Kysely<Database> | Transaction<Database>, pageId: string, idempotencyKey: string) {
  return db
    .selectFrom('guardian_requests')
    .select(['id', 'received_at', 'payload'])
    .where('page_id', '=', pageId)
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}
