import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-12-01-027-inbox-changes` (docs/decisions/020, "Summaries asked at once share one
 * read"): on PostgreSQL the sequence `inbox_changes`, which every process advances once a decision,
 * an erasure or a change of tags has committed, and reads before a summary shares one running: a
 * summary asked after another process's change never shares one asked before it. SQLite needs
 * none: a connection's `data_version` changes with every other connection's commit.
 * Frozen: it imports nothing but Kysely.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`create sequence inbox_changes`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`drop sequence inbox_changes`.execute(db);
  },
};
