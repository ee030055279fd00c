import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-28-014-store-probe`: `store_probe`, one row the readiness check writes while
 * the store's last write of applications failed (a full disk, an I/O error), to learn when it
 * takes writes again (docs/decisions/008, "A full disk, as the operator lives it"). Holds nothing
 * of anyone: an id, a time and filler. Frozen: it imports nothing but Kysely.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('store_probe')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('written_at', 'text', (c) => c.notNull())
      .addColumn('filler', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table store_probe`.execute(db);
  },
};
