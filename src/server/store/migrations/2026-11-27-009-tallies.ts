import { sql, PostgresAdapter, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-27-009-tallies`: `application_tallies`, counts kept per page and status of
 * the applications, the platforms they name, the questions they answered and each answer row
 * (the status tabs' counts and the summary read a few rows instead of counting 100 000
 * applications). Kept by every write that adds, decides or erases an application; filled here
 * from the rows already stored, in four grouped statements. And an index of each application's
 * status and page by id, for the counts under the filters the tallies do not serve.
 * Frozen: it imports nothing but Kysely, so it runs tomorrow as it ran when it shipped.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('application_tallies')
      .addColumn('page_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      // application | platform | answered | answer
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('n', 'bigint', (c) => c.notNull())
      // Kind, page and key first: the counts read one kind of a page, the summary a few keys of it
      // (all their values and statuses), both a short range whatever the free-text rows.
      .addPrimaryKeyConstraint('application_tallies_pk', ['kind', 'page_id', 'key', 'value', 'status'])
      .execute();
    await sql`insert into application_tallies (page_id, status, kind, key, value, n)
      select page_id, status, 'application', '', '', count(*) from applications group by page_id, status`.execute(db);
    await sql`insert into application_tallies (page_id, status, kind, key, value, n)
      select a.page_id, a.status, 'platform', h.platform, '', count(distinct a.id)
      from application_handles h join applications a on a.id = h.application_id
      group by a.page_id, a.status, h.platform`.execute(db);
    await sql`insert into application_tallies (page_id, status, kind, key, value, n)
      select a.page_id, a.status, 'answered', x.key, '', count(distinct a.id)
      from application_answers x join applications a on a.id = x.application_id
      group by a.page_id, a.status, x.key`.execute(db);
    await sql`insert into application_tallies (page_id, status, kind, key, value, n)
      select a.page_id, a.status, 'answer', x.key, x.value, count(*)
      from application_answers x join applications a on a.id = x.application_id
      group by a.page_id, a.status, x.key, x.value`.execute(db);
    // The counts under an answer, a tag or a `contains` filter: each matched id's status (and
    // page) from this small index rather than from its (wide) row.
    await db.schema.createIndex('applications_id_status_page_id').on('applications').columns(['id', 'status', 'page_id']).execute();
    // PostgreSQL plans the new table's reads from statistics autovacuum would gather only later.
    if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`analyze application_tallies`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('applications_id_status_page_id').execute();
    await db.schema.dropTable('application_tallies').execute();
  },
};
