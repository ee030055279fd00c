import type { Kysely, Migration } from 'kysely';

/**
 * Migration `2026-11-30-026-resume-link-proofs` (docs/decisions/034, "One proof of work a link"): the
 * Idempotency-Key whose solved challenge paid for a draft's link (`resume_drafts.proof_key`, lower
 * case; null where the server asks no proof), unique per page, so one solution sends one link.
 * Frozen: it imports nothing but Kysely.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('resume_drafts').addColumn('proof_key', 'text').execute();
    await db.schema.createIndex('resume_drafts_proof').on('resume_drafts').columns(['page_id', 'proof_key']).unique().execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('resume_drafts_proof').execute();
    await db.schema.alterTable('resume_drafts').dropColumn('proof_key').execute();
  },
};
