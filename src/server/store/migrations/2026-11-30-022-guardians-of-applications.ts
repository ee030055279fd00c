import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-30-022-guardians-of-applications`: `applications.guardian_email`, the address
 * (lower case) of the parent or guardian who consented to a minor's application (requirements
 * §20), set as their consent stores it and null for every other application; with its partial
 * index, a data-subject request for that address finds the applications it consented to
 * (docs/privacy.md, "A person's data"). The applications released before the column get it from
 * their payload: those whose history records the consent (`guardian-consented`).
 * Frozen: it imports nothing but Kysely.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table applications add column guardian_email text`.execute(db);
    await sql`create index applications_guardian_email on applications (guardian_email) where guardian_email is not null`.execute(db);
    const released = sql`id in (select application_id from audit_log where action = 'guardian-consented')`;
    if (db.getExecutor().adapter instanceof PostgresAdapter)
      await sql`update applications set guardian_email = lower((payload::jsonb) -> 'guardian' ->> 'emailAddress') where ${released}`.execute(db);
    else await sql`update applications set guardian_email = lower(json_extract(payload, '$.guardian.emailAddress')) where ${released}`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index applications_guardian_email`.execute(db);
    await sql`alter table applications drop column guardian_email`.execute(db);
  },
};
