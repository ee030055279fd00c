import { v7 as uuidv7 } from 'uuid';

/**
 * A new `Idempotency-Key` for one application (IETF `Idempotency-Key` header draft; requirements §13): a
 * UUID version 7 (RFC 9562 §5.7), 48 bits of Unix time in ms then 74 random bits. Unique as a
 * random (v4) UUID is for this purpose, and time-ordered: the store's unique index on
 * `(page_id, idempotency_key)` takes each new key next to the last ones instead of on a random
 * page of the index, so a submission costs the same at a million stored applications as at none
 * (with v4 keys the SQLite batch cost 24 % more at a million rows, docs/performance.md).
 * The server accepts any UUID; this is what the wizard, and so the bench, sends.
 * @returns the canonical lower-case form, e.g. `019ab3c4-…`.
 */
export function newIdempotencyKey(): string {
  return uuidv7();
}
