import type { Kysely, Transaction } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { MAX_NOTES_PER_APPLICATION, type Note } from '../../shared/admin';
import { systemClock, type Clock } from '../clock';
import type { AuditRepository, AuditWrite } from './audit';
import { lockRows } from './locks';
import type { Database } from './schema';

/** What a change to a note of someone else, or to one that is not there, answers. */
export type NoteRefusal = 'no-application' | 'no-note' | 'not-yours';

/**
 * Locks `applicationId`'s row for the rest of `trx` ({@link lockRows}), so an erasure running at
 * the same time either commits first (and this change finds no application) or waits, then
 * deletes what this change wrote. A plain check would let a note be written for an application
 * erased meanwhile and outlive it.
 * @returns false when there is no such application.
 */
export async function lockApplication(trx: Transaction<Database>, applicationId: string): Promise<boolean> {
  return (await lockRows(trx, 'applications', [applicationId])).size > 0;
}

/**
 * Adds a note by `author` at the end of an application's thread, in `trx`: the one rule of every
 * way a note joins a thread (`POST …/notes`, and `PATCH /applications/{id}` with a `note`), at
 * most {@link MAX_NOTES_PER_APPLICATION} notes. The caller has locked the application
 * ({@link lockApplication}) and found it, and writes the `note-added` audit entry returned (never
 * with the text) beside its own, in `trx`.
 * @param at - the note's creation time, ISO-8601 UTC (its audit entry's too).
 * @returns the note and its audit entry; `'full'` when the thread holds
 *   {@link MAX_NOTES_PER_APPLICATION} notes already (nothing written).
 * @throws the driver's error when the store fails.
 */
export async function addNote(
  trx: Transaction<Database>,
  applicationId: string,
  author: string,
  text: string,
  at: string,
): Promise<{ note: Note; entry: AuditWrite } | 'full'> {
  const { count } = await trx
    .selectFrom('application_notes')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('application_id', '=', applicationId)
    .executeTakeFirstOrThrow();
  if (Number(count) >= MAX_NOTES_PER_APPLICATION) return 'full';
  const row = { id: uuidv7(), application_id: applicationId, author, created_at: at, updated_at: at, text };
  await trx.insertInto('application_notes').values(row).execute();
  return { note: toNote(row), entry: { applicationId, actor: author, action: 'note-added' } };
}

const toNote = (row: Database['application_notes']): Note => ({
  id: row.id,
  author: row.author,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  text: row.text,
});

/**
 * The team's conversation on an application: a thread of notes, each by one inbox user
 * (its author, the user's e-mail), who alone may edit or delete it. Every change is audited in
 * the transaction that makes it (`note-added`, `note-edited`, `note-deleted`), never with the
 * note's text: notes may name the applicant, and the audit outlives an erasure, which deletes the
 * thread with the application.
 */
export class NoteRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditRepository,
    private readonly clock: Clock = systemClock,
  ) {}

  /** An application's notes, oldest first ([] for an unknown application). */
  async list(applicationId: string): Promise<Note[]> {
    const rows = await this.db
      .selectFrom('application_notes')
      .selectAll()
      .where('application_id', '=', applicationId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toNote);
  }

  /**
   * Adds a note by `author` at the end of the thread.
   * @returns the note; `'no-application'` when there is no such application; `'full'` when the
   *   thread holds {@link MAX_NOTES_PER_APPLICATION} notes already.
   */
  async add(applicationId: string, author: string, text: string): Promise<Note | 'no-application' | 'full'> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await lockApplication(trx, applicationId))) return 'no-application';
      const at = new Date(this.clock()).toISOString();
      const added = await addNote(trx, applicationId, author, text, at);
      if (added === 'full') return 'full';
      await this.audit.append(trx, at, [added.entry]);
      return added.note;
    });
  }

  /**
   * Replaces the text of `actor`'s own note (the author and creation time stay; `updatedAt` is now).
   * @returns the note; or why not: no such application, no such note on it, or not `actor`'s.
   */
  async edit(applicationId: string, noteId: string, actor: string, text: string): Promise<Note | NoteRefusal> {
    return this.db.transaction().execute(async (trx) => {
      const refused = await this.owned(trx, applicationId, noteId, actor);
      if (typeof refused === 'string') return refused;
      if (refused.text === text) return toNote(refused);
      const at = new Date(this.clock()).toISOString();
      await trx.updateTable('application_notes').set({ text, updated_at: at }).where('id', '=', noteId).execute();
      await this.audit.append(trx, at, [{ applicationId, actor, action: 'note-edited' }]);
      return toNote({ ...refused, text, updated_at: at });
    });
  }

  /**
   * Deletes `actor`'s own note.
   * @returns true; or why not: no such application, no such note on it, or not `actor`'s.
   */
  async remove(applicationId: string, noteId: string, actor: string): Promise<true | NoteRefusal> {
    return this.db.transaction().execute(async (trx) => {
      const refused = await this.owned(trx, applicationId, noteId, actor);
      if (typeof refused === 'string') return refused;
      await trx.deleteFrom('application_notes').where('id', '=', noteId).execute();
      await this.audit.append(trx, new Date(this.clock()).toISOString(), [{ applicationId, actor, action: 'note-deleted' }]);
      return true;
    });
  }

  /** The note `noteId` of `applicationId` when `actor` wrote it (the application locked), else why not. */
  private async owned(trx: Transaction<Database>, applicationId: string, noteId: string, actor: string) {
    if (!(await lockApplication(trx, applicationId))) return 'no-application' as const;
    const note = await trx.selectFrom('application_notes').selectAll().where('id', '=', noteId).where('application_id', '=', applicationId).executeTakeFirst();
    if (!note) return 'no-note' as const;
    if (note.author !== actor) return 'not-yours' as const;
    return note;
  }
}
