import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { AuditEntry } from '../../shared/admin';
import type { PageAuditAction } from '../../shared/pages';
import type { Database } from './schema';
import { perStatement } from './statements';

/** One audit entry to write: who did what to which application, with the values before and after. */
export interface AuditWrite {
  /** The application's id; a page's change: `page:{id}` (`pageAuditSubject`). */
  applicationId: string;
  actor: string;
  action: AuditEntry['action'] | PageAuditAction;
  from?: string | null;
  to?: string | null;
}

/** The time of the entries written last in this process, and the place the next entry at that time takes. */
let written = { at: '', next: 0 };

/**
 * An audit entry's id: its time, its place among the entries this process wrote at that time
 * (six digits: a bulk change writes thousands), and randomness — so ordering by id is ordering by
 * when, then by what came first, even for two changes made within the same millisecond (a note
 * added and then edited). Entries of other processes at the same millisecond fall in either order.
 */
export function auditId(at: string): string {
  if (written.at !== at) written = { at, next: 0 };
  return `${at}#${String(written.next++).padStart(6, '0')}#${randomUUID().slice(0, 8)}`;
}

/**
 * The inbox's audit log (requirements §17): what each user changed on each application and when.
 * Entries are written inside the transaction of the change they record, so a change and its entry
 * commit together; nothing an applicant wrote is ever copied into it.
 */
export class AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Writes `entries` in `trx`, all at time `at` (ISO-8601 UTC), in the order given.
   * @param trx - the transaction of the change the entries record.
   */
  async append(trx: Transaction<Database>, at: string, entries: readonly AuditWrite[]): Promise<void> {
    const rows = entries.map((entry) => ({
      id: auditId(at),
      application_id: entry.applicationId,
      at,
      actor: entry.actor,
      action: entry.action,
      from_value: entry.from ?? null,
      to_value: entry.to ?? null,
    }));
    // A bulk change's thousands of entries stay under both databases' limits on bound parameters.
    for (const chunk of perStatement(rows)) await trx.insertInto('audit_log').values(chunk).execute();
  }

  /** An application's entries, oldest first. */
  /** Appends `entries` at `at` (ISO-8601 UTC) in a transaction of their own: a record of something that changed nothing (an export). */
  async record(entries: readonly AuditWrite[], at: string): Promise<void> {
    if (entries.length === 0) return;
    await this.db.transaction().execute((trx) => this.append(trx, at, entries));
  }

  async of(applicationId: string): Promise<AuditEntry[]> {
    const rows = await this.db.selectFrom('audit_log').selectAll().where('application_id', '=', applicationId).orderBy('id').execute();
    return rows.map((row) => ({
      at: row.at,
      actor: row.actor,
      action: row.action as AuditEntry['action'],
      ...(row.from_value === null ? {} : { from: row.from_value }),
      ...(row.to_value === null ? {} : { to: row.to_value }),
    }));
  }
}
