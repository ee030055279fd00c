import { DEFAULT_MIGRATION_TABLE, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { migration as m001 } from './migrations/2026-11-22-001-create-applications';
import { migration as m002 } from './migrations/2026-11-22-002-inbox';
import { migration as m003 } from './migrations/2026-11-24-003-sign-in-attempts-and-secrets';
import { migration as m004 } from './migrations/2026-11-24-004-rate-limits';
import { migration as m005 } from './migrations/2026-11-24-005-rate-limits-reset-at';
import { migration as m006 } from './migrations/2026-11-24-006-phone-e164';
import { migration as m007 } from './migrations/2026-11-27-007-sorts-and-answers';
import { migration as m008 } from './migrations/2026-11-27-008-notes-and-tags';
import { migration as m009 } from './migrations/2026-11-27-009-tallies';
import { migration as m010 } from './migrations/2026-11-27-010-text-search';
import { migration as m011 } from './migrations/2026-11-27-011-answer-status';
import { migration as m012 } from './migrations/2026-11-27-012-pages';
import { migration as m013 } from './migrations/2026-11-27-013-page-slots';
import { migration as m014 } from './migrations/2026-11-28-014-store-probe';
import { migration as m015 } from './migrations/2026-11-28-015-answer-index-queue';
import { migration as m016 } from './migrations/2026-11-28-016-counted-answers';
import { migration as m017 } from './migrations/2026-11-28-017-answer-profiles';
import { migration as m018 } from './migrations/2026-11-29-018-outbox-and-webhooks';
import { migration as m019 } from './migrations/2026-11-29-019-email';
import { migration as m020 } from './migrations/2026-11-29-020-secrets-and-mailboxes';
import { migration as m021 } from './migrations/2026-11-30-021-children-and-consents';
import { migration as m022 } from './migrations/2026-11-30-022-guardians-of-applications';
import { migration as m023 } from './migrations/2026-11-30-023-the-team';
import { migration as m024 } from './migrations/2026-11-30-024-resume-drafts';
import { migration as m025 } from './migrations/2026-11-30-025-file-pages';
import { migration as m026 } from './migrations/2026-11-30-026-resume-link-proofs';
import { migration as m027 } from './migrations/2026-12-01-027-inbox-changes';
import { migration as m028 } from './migrations/2026-12-01-028-handles-by-application';
import { migration as m029 } from './migrations/2026-12-01-029-answer-profiles-by-number';

/**
 * The store's schema, as Kysely migrations kept in code (so they ship with the server whatever
 * bundles it), one file each in `migrations/`. Append only: never edit a migration that has run;
 * and a migration imports nothing but Kysely (migrations.test.ts checks it), so code changed
 * later cannot change what an old migration does.
 */
const migrations: Record<string, Migration> = {
  '2026-11-22-001-create-applications': m001,
  '2026-11-22-002-inbox': m002,
  '2026-11-24-003-sign-in-attempts-and-secrets': m003,
  '2026-11-24-004-rate-limits': m004,
  '2026-11-24-005-rate-limits-reset-at': m005,
  '2026-11-24-006-phone-e164': m006,
  '2026-11-27-007-sorts-and-answers': m007,
  '2026-11-27-008-notes-and-tags': m008,
  '2026-11-27-009-tallies': m009,
  '2026-11-27-010-text-search': m010,
  '2026-11-27-011-answer-status': m011,
  '2026-11-27-012-pages': m012,
  '2026-11-27-013-page-slots': m013,
  '2026-11-28-014-store-probe': m014,
  '2026-11-28-015-answer-index-queue': m015,
  '2026-11-28-016-counted-answers': m016,
  '2026-11-28-017-answer-profiles': m017,
  '2026-11-29-018-outbox-and-webhooks': m018,
  '2026-11-29-019-email': m019,
  '2026-11-29-020-secrets-and-mailboxes': m020,
  '2026-11-30-021-children-and-consents': m021,
  '2026-11-30-022-guardians-of-applications': m022,
  '2026-11-30-023-the-team': m023,
  '2026-11-30-024-resume-drafts': m024,
  '2026-11-30-025-file-pages': m025,
  '2026-11-30-026-resume-link-proofs': m026,
  '2026-12-01-027-inbox-changes': m027,
  '2026-12-01-028-handles-by-application': m028,
  '2026-12-01-029-answer-profiles-by-number': m029,
};

/** Provides the in-code migrations to Kysely's Migrator. */
export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};

/**
 * True unless every migration above is recorded as run in Kysely's migration table. One query, so
 * that a start on an up-to-date database skips the Migrator's checks of its own tables and its
 * lock (on PostgreSQL also a connection of its own). A missing table or any other error
 * counts as pending: the Migrator then runs, and reports what is wrong.
 */
export async function migrationsPending<DB>(db: Kysely<DB>): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(db);
    const done = new Set(rows.map((row) => row.name));
    return Object.keys(migrations).some((name) => !done.has(name));
  } catch {
    return true;
  }
}
