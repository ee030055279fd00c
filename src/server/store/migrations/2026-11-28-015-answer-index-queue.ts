import { sql, PostgresAdapter, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-28-015-answer-index-queue`: what the inbox derives from an application's
 * answers is written after the application, off the submit's critical path (docs/decisions/022).
 * - `application_index_queue`: the ids of applications stored whose answer rows, answer tallies
 *   and (SQLite) search-index entry are not written yet. The submit's transaction adds the id; the
 *   follow-up that writes those rows removes it in their transaction, so a crash in between leaves
 *   the id for the next start.
 * - SQLite: the search box's FTS5 index (migration 010) is no longer written by a trigger on each
 *   insert but by that follow-up, many rows a transaction; its delete and update triggers skip an
 *   application still queued (it has no index entry to take out yet).
 * Frozen: it imports nothing but Kysely, so it runs tomorrow as it ran when it shipped.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`create table application_index_queue (application_id text primary key)`.execute(db);
      return;
    }
    await sql`create table application_index_queue (application_id text primary key) without rowid`.execute(db);
    await sql`drop trigger applications_search_insert`.execute(db);
    await sql`drop trigger applications_search_delete`.execute(db);
    await sql`drop trigger applications_search_update`.execute(db);
    await sql
      .raw(
        `create trigger applications_search_delete after delete on applications
      when not exists (select 1 from application_index_queue where application_id = old.id) begin
        insert into applications_search (applications_search, rowid, search_text) values ('delete', old.rowid, old.search_text);
      end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger applications_search_update after update of search_text on applications
      when not exists (select 1 from application_index_queue where application_id = old.id) begin
        insert into applications_search (applications_search, rowid, search_text) values ('delete', old.rowid, old.search_text);
        insert into applications_search (rowid, search_text) values (new.rowid, new.search_text);
      end`,
      )
      .execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
      // Every queued application's index entry first, so the triggers below find the index whole.
      await sql`insert into applications_search (rowid, search_text) select a.rowid, a.search_text from applications a join application_index_queue q on q.application_id = a.id`.execute(
        db,
      );
      for (const event of ['delete', 'update']) await sql.raw(`drop trigger applications_search_${event}`).execute(db);
      await sql
        .raw(
          `create trigger applications_search_insert after insert on applications begin
        insert into applications_search (rowid, search_text) values (new.rowid, new.search_text);
      end`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger applications_search_delete after delete on applications begin
        insert into applications_search (applications_search, rowid, search_text) values ('delete', old.rowid, old.search_text);
      end`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger applications_search_update after update of search_text on applications begin
        insert into applications_search (applications_search, rowid, search_text) values ('delete', old.rowid, old.search_text);
        insert into applications_search (rowid, search_text) values (new.rowid, new.search_text);
      end`,
        )
        .execute(db);
    }
    await sql`drop table application_index_queue`.execute(db);
  },
};
