import { sql, type Kysely, type Migration } from 'kysely';

/** The author the notes carried over from the single `note` column are shown by: no user has this e-mail. */
const EARLIER_NOTE_AUTHOR = '(earlier note)';

/**
 * Migration `2026-11-27-008-notes-and-tags`: the conversation on an application: a
 * thread of notes (`application_notes`), the tags the team defines (`tags`, unique by name
 * whatever its case) and the tags applied to each application (`application_tags`).
 *
 * The single `note` column stays (requirements §17's `PATCH {note}` still sets it). Its non-empty values
 * are copied into the thread once, as a note by "(earlier note)", dated by the last audit entry
 * that changed it (or the application's arrival when none did), so that the thread starts with
 * what the team had written.
 * Frozen: it imports nothing but Kysely, so it runs tomorrow as it ran when it shipped.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('application_notes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('application_id', 'text', (c) => c.notNull())
      .addColumn('author', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .execute();
    // An application's thread, oldest first; and erasure's delete.
    await db.schema.createIndex('application_notes_application_id_created_at').on('application_notes').columns(['application_id', 'created_at']).execute();

    await db.schema
      .createTable('tags')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      // lower(name): unique whatever the case ("UGC" and "ugc" are one tag), on both stores.
      .addColumn('name_key', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('application_tags')
      .addColumn('application_id', 'text', (c) => c.notNull())
      .addColumn('tag_id', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('application_tags_pk', ['application_id', 'tag_id'])
      .execute();
    // The list's tag filter (`exists … where tag_id = ? and application_id = applications.id`)
    // and a tag's deletion; the primary key serves an application's tags and its erasure.
    await db.schema.createIndex('application_tags_tag_id_application_id').on('application_tags').columns(['tag_id', 'application_id']).execute();

    const rows = await sql<{ id: string; note: string; received_at: string; changed_at: string | null }>`
      select a.id, a.note, a.received_at,
        (select max(l.at) from audit_log l where l.application_id = a.id and l.action = 'note') as changed_at
      from applications a where a.note <> ''`.execute(db);
    for (const row of rows.rows) {
      const at = row.changed_at ?? row.received_at;
      await sql`insert into application_notes (id, application_id, author, created_at, updated_at, text)
        values (${`earlier-${row.id}`}, ${row.id}, ${EARLIER_NOTE_AUTHOR}, ${at}, ${at}, ${row.note})`.execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['application_tags', 'tags', 'application_notes']) await sql`drop table ${sql.table(table)}`.execute(db);
  },
};
