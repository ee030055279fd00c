import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-12-01-028-handles-by-application` (docs/decisions/027, "Erasures find an
 * application's handles through an index"): an index of `application_handles` by
 * `application_id`. An erasure deletes an application's handle rows by its id; the table had an
 * index by handle only, so each erasure read the whole table (two rows an application: 7 ms of
 * the event loop at 20 000 applications on SQLite, growing with the table), and the retention
 * sweep's rounds of 100 erasures held the event loop for seconds. The ids are UUIDv7 (time
 * ordered): a submission's two handle rows add their entries at the index's end.
 * Frozen: it imports nothing but Kysely.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create index application_handles_application_id on application_handles (application_id)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index if exists application_handles_application_id`.execute(db);
  },
};
