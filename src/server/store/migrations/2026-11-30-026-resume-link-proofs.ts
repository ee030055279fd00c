import type { Kysely, Migration } from 'kysely';

/**
 * Migration `2026-11-30-026-resume-link-proofs` (docs/decisions/034, "One proof of work a link"):
 * every link to finish on another device asked for, kept apart from its draft so that erasing the
 * draft frees neither its proof nor its mailbox's count (`resume_link_sends`): the page, the
 * Idempotency-Key whose solved challenge paid for it (the draft's id where the server asks no
 * proof), unique together; the SHA-256 of its mailbox (no address), when it was asked, and whether a
 * link was sent (`kept`, 0 or 1: a request refused at the mailbox's cap spends its proof and counts
 * nothing). Erased after 24 hours. The drafts' own `mailbox` column and its index, which counted
 * the links before and which erasing a draft emptied, go. Frozen: it imports nothing but Kysely.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('resume_link_sends')
      .addColumn('page_id', 'text', (c) => c.notNull())
      .addColumn('proof_key', 'text', (c) => c.notNull())
      .addColumn('mailbox_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('kept', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('resume_link_sends_pk', ['page_id', 'proof_key'])
      .execute();
    await db.schema.createIndex('resume_link_sends_mailbox').on('resume_link_sends').columns(['mailbox_hash', 'created_at']).execute();
    await db.schema.createIndex('resume_link_sends_created').on('resume_link_sends').column('created_at').execute();
    await db.schema.dropIndex('resume_drafts_mailbox').execute();
    await db.schema.alterTable('resume_drafts').dropColumn('mailbox').execute();
  },
  async down(db: Kysely<unknown>) {
    // The mailbox of a draft kept meanwhile is not known again (only its hash was): left empty.
    await db.schema
      .alterTable('resume_drafts')
      .addColumn('mailbox', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('resume_drafts_mailbox').on('resume_drafts').columns(['mailbox', 'created_at']).execute();
    await db.schema.dropTable('resume_link_sends').execute();
  },
};
