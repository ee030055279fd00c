import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ConsentRecord } from '../../shared/consents';
import type { Clock } from '../clock';
import type { AuditRepository } from './audit';
import { lockRows } from './locks';
import { appendEvents } from './outbox';
import type { Database } from './schema';

/** Who the audit log names for a withdrawal: the role, never the person. */
export const APPLICANT_ACTOR = 'applicant';

/**
 * Consent records (requirements §21; docs/privacy.md, "Consents"): those made as each application was
 * stored (its `consents` column, never updated) and the withdrawals since (`consent_withdrawals`,
 * append-only), read together as one history per application; a withdrawal is audited and told to
 * webhooks as `consent.withdrawn` in its own transaction.
 */
export class ConsentRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditRepository,
    private readonly clock: Clock,
  ) {}

  /** Every record of application `id`, oldest first: as stored, then each withdrawal (the withdrawn record's text, `given` false). Empty for none or no such application. */
  async records(id: string): Promise<ConsentRecord[]> {
    return (await this.recordsOf([id])).get(id) ?? [];
  }

  /** {@link records} of several applications at once, by id. */
  async recordsOf(ids: readonly string[]): Promise<Map<string, ConsentRecord[]>> {
    const map = new Map<string, ConsentRecord[]>();
    if (ids.length === 0) return map;
    const rows = await this.db.selectFrom('applications').select(['id', 'consents']).where('id', 'in', ids).where('consents', 'is not', null).execute();
    if (rows.length === 0) return map;
    const withdrawals = await this.db
      .selectFrom('consent_withdrawals')
      .select(['application_id', 'purpose', 'at'])
      .where(
        'application_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('at')
      .execute();
    for (const row of rows) {
      const given = JSON.parse(row.consents!) as ConsentRecord[];
      const later = withdrawals
        .filter((withdrawal) => withdrawal.application_id === row.id)
        .flatMap((withdrawal) => {
          const record = given.find((stored) => stored.purpose === withdrawal.purpose);
          return record ? [{ ...record, given: false, at: withdrawal.at, source: 'withdrawal' as const }] : [];
        });
      map.set(row.id, [...given, ...later]);
    }
    return map;
  }

  /**
   * Withdraws the consent to `purpose` of application `id`: a record appended, an audit entry (by
   * {@link APPLICANT_ACTOR}, naming the purpose), and `consent.withdrawn` in the outbox, in one
   * transaction. A consent not given, or withdrawn already, changes nothing.
   * @returns `withdrawn`, `not-given` (never given, or withdrawn before), or `gone` (no such application).
   */
  async withdraw(id: string, purpose: string): Promise<'withdrawn' | 'not-given' | 'gone'> {
    return this.db.transaction().execute(async (trx) => {
      if ((await lockRows(trx, 'applications', [id])).size === 0) return 'gone';
      const row = await trx.selectFrom('applications').select(['page_id', 'consents']).where('id', '=', id).executeTakeFirst();
      if (!row) return 'gone';
      const given = row.consents === null ? [] : (JSON.parse(row.consents) as ConsentRecord[]);
      if (!given.some((record) => record.purpose === purpose && record.given)) return 'not-given';
      const earlier = await trx
        .selectFrom('consent_withdrawals')
        .select('id')
        .where('application_id', '=', id)
        .where('purpose', '=', purpose)
        .executeTakeFirst();
      if (earlier) return 'not-given';
      const at = new Date(this.clock()).toISOString();
      await trx.insertInto('consent_withdrawals').values({ id: randomUUID(), application_id: id, purpose, at }).execute();
      await this.audit.append(trx, at, [{ applicationId: id, actor: APPLICANT_ACTOR, action: 'consent-withdrawn', to: purpose }]);
      await appendEvents(trx, [{ type: 'consent.withdrawn', occurredAt: at, pageId: row.page_id, applicationId: id, data: { purpose, withdrawnAt: at } }]);
      return 'withdrawn';
    });
  }
}
