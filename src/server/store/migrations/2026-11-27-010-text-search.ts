import { sql, PostgresAdapter, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-27-010-text-search`: trigram indexes for the inbox's search box (`q`, on
 * `applications.search_text`) and its free-text answer filters (`contains`, on
 * `application_answers.value`), so that a search finds its rows through an index rather than by
 * reading every row (p95 < 50 ms at 100 000 applications).
 * - SQLite: an FTS5 table with the trigram tokenizer over `search_text` (external content: the
 *   text stays in its table, the index only), kept by triggers, with FTS5's `secure-delete` on so
 *   that an erased application's text leaves the index at once (decision 005). Not over the answers:
 *   seven index entries per application doubled the submit path's cost, where an index-only scan of
 *   one question's answers takes 15–40 ms at 100 000 applications.
 * - PostgreSQL: GIN indexes with `pg_trgm`'s operator class, which serve `like` and `ilike`
 *   patterns. Where the server has no `pg_trgm` the indexes are left out and searches read the
 *   rows as before.
 * Both: a partial index of the answers cut to 200 characters, whose rest `contains` reads in the payload.
 * Frozen: it imports nothing but Kysely, so it runs tomorrow as it ran when it shipped.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // The answers longer than an answer row keeps (200 characters): `contains` reads the rest of
    // them in the payload, found through this (small) partial index.
    await sql`create index application_answers_cut on application_answers (key, application_id) where length(value) >= 200`.execute(db);
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      const available = await sql<{ name: string }>`select name from pg_available_extensions where name = 'pg_trgm'`.execute(db);
      if (available.rows.length === 0) return;
      // A role that may not create it (not the database's owner) goes on without it: a savepoint,
      // as the migrations run in one transaction, which a failed statement would abort.
      await sql`savepoint pg_trgm`.execute(db);
      try {
        await sql`create extension if not exists pg_trgm`.execute(db);
      } catch {
        await sql`rollback to savepoint pg_trgm`.execute(db);
        return;
      }
      await sql`release savepoint pg_trgm`.execute(db);
      await sql`create index applications_search_text_trgm on applications using gin (search_text gin_trgm_ops)`.execute(db);
      await sql`create index application_answers_value_trgm on application_answers using gin (value gin_trgm_ops)`.execute(db);
      return;
    }
    for (const [index, table, column] of [['applications_search', 'applications', 'search_text']] as const) {
      await sql`create virtual table ${sql.raw(index)} using fts5(${sql.raw(column)}, content='${sql.raw(table)}', content_rowid='rowid', tokenize='trigram')`.execute(
        db,
      );
      await sql`insert into ${sql.raw(index)} (${sql.raw(index)}, rank) values ('secure-delete', 1)`.execute(db);
      await sql`insert into ${sql.raw(index)} (${sql.raw(index)}) values ('rebuild')`.execute(db);
      await sql
        .raw(
          `create trigger ${index}_insert after insert on ${table} begin
        insert into ${index} (rowid, ${column}) values (new.rowid, new.${column});
      end`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger ${index}_delete after delete on ${table} begin
        insert into ${index} (${index}, rowid, ${column}) values ('delete', old.rowid, old.${column});
      end`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger ${index}_update after update of ${column} on ${table} begin
        insert into ${index} (${index}, rowid, ${column}) values ('delete', old.rowid, old.${column});
        insert into ${index} (rowid, ${column}) values (new.rowid, new.${column});
      end`,
        )
        .execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index if exists application_answers_cut`.execute(db);
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`drop index if exists applications_search_text_trgm`.execute(db);
      await sql`drop index if exists application_answers_value_trgm`.execute(db);
      return;
    }
    for (const index of ['applications_search']) {
      for (const event of ['insert', 'delete', 'update']) await sql.raw(`drop trigger if exists ${index}_${event}`).execute(db);
      await sql.raw(`drop table if exists ${index}`).execute(db);
    }
  },
};
