import type { Kysely, Migration } from 'kysely';

/**
 * Migration `2026-11-30-024-resume-drafts` (docs/requirements.md §22; docs/decisions/034): the
 * drafts applicants asked to continue on another device, `resume_drafts` — the answers sealed
 * (AES-256-GCM, `sealed`: base64url of nonce, tag and ciphertext), the address the link went to
 * (`email`, lower case; `mailbox`, as the links per mailbox are counted), when it was kept and when
 * it is erased. Frozen: it imports nothing but Kysely.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('resume_drafts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('page_id', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('mailbox', 'text', (c) => c.notNull())
      .addColumn('sealed', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('resume_drafts_mailbox').on('resume_drafts').columns(['mailbox', 'created_at']).execute();
    await db.schema.createIndex('resume_drafts_email').on('resume_drafts').column('email').execute();
    await db.schema.createIndex('resume_drafts_expires').on('resume_drafts').column('expires_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('resume_drafts').execute();
  },
};
