import type { Kysely, Transaction } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { MAX_TAGS, type Tag } from '../../shared/admin';
import { systemClock, type Clock } from '../clock';
import type { AuditRepository } from './audit';
import { lockApplication } from './notes';
import type { Database } from './schema';

/**
 * Locks tag rows for the rest of `trx` (a no-op update: PostgreSQL's row locks, SQLite's write
 * lock), so applying a tag and deleting it never interleave.
 */
async function lockTags(trx: Transaction<Database>, ids: readonly string[]) {
  if (ids.length === 0) return;
  await trx.updateTable('tags').set((eb) => ({ name: eb.ref('name') })).where('id', 'in', [...ids]).execute();
}

const toTag = (row: { id: string; name: string; created_at: string }): Tag => ({ id: row.id, name: row.name, createdAt: row.created_at });

/** What applying a set of tags answers when it cannot: no such application, or tag ids that do not exist (their places in the list). */
export type TagsRefusal = { refused: 'no-application' } | { refused: 'unknown-tags'; indexes: number[] };

/**
 * The tags the team defines (issue 16: "gifting", "UGC"), and which applications carry them. A
 * name is unique whatever its case. Applying and removing a tag is audited on the application
 * (`tagged`, `untagged`, with the tag's name: the team's word, not the applicant's); deleting a
 * tag removes it from every application, audited on each.
 */
export class TagRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditRepository,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Every tag, by name (case aside). */
  async list(): Promise<Tag[]> {
    const rows = await this.db.selectFrom('tags').select(['id', 'name', 'created_at']).orderBy('name_key').orderBy('id').execute();
    return rows.map(toTag);
  }

  /**
   * Creates a tag named `name` (trimmed).
   * @returns `{ tag, created: true }`; `{ tag, created: false }` with the tag that has the name
   *   already (case aside); `'full'` when {@link MAX_TAGS} exist.
   */
  async create(name: string): Promise<{ tag: Tag; created: boolean } | 'full'> {
    const trimmed = name.trim();
    const key = trimmed.toLowerCase();
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom('tags').select(['id', 'name', 'created_at']).where('name_key', '=', key).executeTakeFirst();
      if (existing) return { tag: toTag(existing), created: false };
      const { count } = await trx.selectFrom('tags').select((eb) => eb.fn.countAll<number | string | bigint>().as('count')).executeTakeFirstOrThrow();
      if (Number(count) >= MAX_TAGS) return 'full';
      const row = { id: uuidv7(), name: trimmed, name_key: key, created_at: new Date(this.clock()).toISOString() };
      // Two users creating the same name at once: the second finds the first's.
      await trx.insertInto('tags').values(row).onConflict((oc) => oc.column('name_key').doNothing()).execute();
      const stored = await trx.selectFrom('tags').select(['id', 'name', 'created_at']).where('name_key', '=', key).executeTakeFirstOrThrow();
      return { tag: toTag(stored), created: stored.id === row.id };
    });
  }

  /**
   * Deletes a tag and removes it from every application, one `untagged` audit entry each.
   * @returns false when there is no such tag.
   */
  async remove(id: string, actor: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      // The tag's row lock first, as `set` takes it: one waits for the other, so no link to a
      // deleted tag is ever left behind.
      await lockTags(trx, [id]);
      const tag = await trx.selectFrom('tags').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
      if (!tag) return false;
      const links = await trx.selectFrom('application_tags').select('application_id').where('tag_id', '=', id).execute();
      await trx.deleteFrom('application_tags').where('tag_id', '=', id).execute();
      await trx.deleteFrom('tags').where('id', '=', id).execute();
      await this.audit.append(
        trx,
        new Date(this.clock()).toISOString(),
        links.map((link) => ({ applicationId: link.application_id, actor, action: 'untagged' as const, to: tag.name })),
      );
      return true;
    });
  }

  /** An application's tags, by name ([] for an unknown application). */
  async of(applicationId: string): Promise<Tag[]> {
    return tagsOf(this.db, applicationId);
  }

  /**
   * Makes `tagIds` (repeats ignored) the tags of an application: those it lacked are applied
   * (`tagged`), those left out removed (`untagged`), one audit entry per change.
   * @returns the application's tags by name; or why not: no such application, or ids of no tag
   *   (deleted meanwhile: nothing is changed then).
   */
  async set(applicationId: string, tagIds: readonly string[], actor: string): Promise<Tag[] | TagsRefusal> {
    const wanted = [...new Set(tagIds)];
    return this.db.transaction().execute(async (trx) => {
      if (!(await lockApplication(trx, applicationId))) return { refused: 'no-application' as const };
      await lockTags(trx, wanted);
      const found = wanted.length === 0 ? [] : await trx.selectFrom('tags').select(['id', 'name']).where('id', 'in', wanted).execute();
      const known = new Map(found.map((tag) => [tag.id, tag.name]));
      const unknown = tagIds.flatMap((id, index) => (known.has(id) ? [] : [index]));
      if (unknown.length > 0) return { refused: 'unknown-tags' as const, indexes: unknown };
      const current = await trx
        .selectFrom('application_tags')
        .innerJoin('tags', 'tags.id', 'application_tags.tag_id')
        .select(['tags.id', 'tags.name'])
        .where('application_tags.application_id', '=', applicationId)
        .execute();
      const had = new Set(current.map((tag) => tag.id));
      const byName = (a: string, b: string) => known.get(a)!.toLowerCase().localeCompare(known.get(b)!.toLowerCase());
      const added = wanted.filter((id) => !had.has(id)).sort(byName);
      const removed = current.filter((tag) => !known.has(tag.id));
      if (added.length > 0) await trx.insertInto('application_tags').values(added.map((id) => ({ application_id: applicationId, tag_id: id }))).execute();
      if (removed.length > 0) {
        await trx
          .deleteFrom('application_tags')
          .where('application_id', '=', applicationId)
          .where('tag_id', 'in', removed.map((tag) => tag.id))
          .execute();
      }
      await this.audit.append(trx, new Date(this.clock()).toISOString(), [
        ...added.map((id) => ({ applicationId, actor, action: 'tagged' as const, to: known.get(id)! })),
        ...removed.map((tag) => ({ applicationId, actor, action: 'untagged' as const, to: tag.name })),
      ]);
      return tagsOf(trx, applicationId);
    });
  }
}

/** An application's tags, by name, read on `db` (the store, or a transaction). */
async function tagsOf(db: Kysely<Database>, applicationId: string): Promise<Tag[]> {
  const rows = await db
    .selectFrom('application_tags')
    .innerJoin('tags', 'tags.id', 'application_tags.tag_id')
    .select(['tags.id', 'tags.name', 'tags.created_at'])
    .where('application_tags.application_id', '=', applicationId)
    .orderBy('tags.name_key')
    .execute();
  return rows.map(toTag);
}
