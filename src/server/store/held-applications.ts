import type { Kysely, Transaction } from 'kysely';
import type { ConsentRecord } from '../../shared/consents';
import type { Database, HeldApplication } from './schema';
import { perStatement } from './statements';

/**
 * Minors' applications held for a guardian's answer (`guardian_requests`, migration 021) as they are
 * read: by the guardians' repository (guardians.ts) and by the e-mail that asks (emails.ts, through
 * the store or a transaction), from one reading of the row.
 */

/** A `guardian_requests` row. */
export type HeldRow = Database['guardian_requests'];

/** A row as a {@link HeldApplication}: its payload and consent records parsed. */
export function toHeld(row: HeldRow): HeldApplication {
  return {
    id: row.id,
    pageId: row.page_id,
    pageVersion: row.page_version === null ? null : Number(row.page_version),
    idempotencyKey: row.idempotency_key,
    email: row.email,
    guardianEmail: row.guardian_email,
    payload: JSON.parse(row.payload) as unknown,
    payloadJson: row.payload,
    userAgent: row.user_agent,
    receivedAt: row.received_at,
    expiresAt: row.expires_at,
    consents: row.consents === null ? undefined : (JSON.parse(row.consents) as ConsentRecord[]),
  };
}

/** The held applications of `ids`, by id (one answered or erased is absent), a statement per thousand ids. */
export async function heldApplications(db: Kysely<Database> | Transaction<Database>, ids: readonly string[]): Promise<Map<string, HeldApplication>> {
  const map = new Map<string, HeldApplication>();
  for (const slice of perStatement(ids)) {
    for (const row of await db.selectFrom('guardian_requests').selectAll().where('id', 'in', slice).execute()) map.set(row.id, toHeld(row));
  }
  return map;
}
