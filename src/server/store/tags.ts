import type { Kysely, Transaction } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { MAX_TAGS, MAX_TAGS_PER_APPLICATION, normalizeTagName, tagNameKey, type Tag } from '../../shared/admin';
import { systemClock, type Clock } from '../clock';
import type { AuditRepository, AuditWrite } from './audit';
import { lockRows, lockScope } from './locks';
import { lockApplication } from './notes';
import type { Database } from './schema';
import { InboxChanges } from './shared-reads';
import { perStatement } from './statements';

/**
 * Locks tag rows for the rest of `trx` ({@link lockRows}), so applying a tag and deleting it
 * never interleave.
 */
async function lockTags(trx: Transaction<Database>, ids: readonly string[]) {
  await lockRows(trx, 'tags', ids);
}

const toTag = (row: { id: string; name: string; created_at: string }): Tag => ({ id: row.id, name: row.name, createdAt: row.created_at });

/** What applying a set of tags answers when it cannot: no such application, or tag ids that do not exist (their places in the list). */
export type TagsRefusal = { refused: 'no-application' } | { refused: 'unknown-tags'; indexes: number[] };

/**
 * What a bulk tag change answers when it changes nothing: tag ids that do not exist (their places
 * in `add` and `remove`), or applications that would carry more than
 * {@link MAX_TAGS_PER_APPLICATION} tags (their places in `ids`).
 */
export type BulkTagsRefusal = { refused: 'unknown-tags'; add: number[]; remove: number[] } | { refused: 'too-many'; indexes: number[] };

/**
 * The tags the team defines ("gifting", "UGC"), and which applications carry them. A
 * name is unique whatever its case. Applying and removing a tag is audited on the application
 * (`tagged`, `untagged`, with the tag's name: the team's word, not the applicant's); deleting a
 * tag removes it from every application, audited on each.
 */
export class TagRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditRepository,
    private readonly clock: Clock = systemClock,
    /** Where the changes of which applications carry which tags are recorded (the summary's shared reads). */
    private readonly changes: InboxChanges = new InboxChanges(),
  ) {}

  /** Every tag, by name (case aside). */
  async list(): Promise<Tag[]> {
    const rows = await this.db.selectFrom('tags').select(['id', 'name', 'created_at']).orderBy('name_key').orderBy('id').execute();
    return rows.map(toTag);
  }

  /**
   * Creates a tag named `name`, normalised as the body's schema does ({@link normalizeTagName}).
   * Creations take turns ({@link lockScope}), so the team's tags are counted one creation after
   * another and never pass {@link MAX_TAGS} together. A tag stored before names were normalised
   * keeps its `name_key`: the existing one is found by comparing every tag's {@link tagNameKey}
   * (at most {@link MAX_TAGS} rows), so `Café` typed decomposed finds it too.
   * @returns `{ tag, created: true }`; `{ tag, created: false }` with the tag that has the name
   *   already (case aside); `'full'` when {@link MAX_TAGS} exist.
   * @throws the driver's error when the store fails.
   */
  async create(name: string): Promise<{ tag: Tag; created: boolean } | 'full'> {
    const normalized = normalizeTagName(name);
    const key = tagNameKey(normalized);
    return this.db.transaction().execute(async (trx) => {
      await lockScope(trx, 'tags');
      const tags = await trx.selectFrom('tags').select(['id', 'name', 'created_at']).execute();
      const existing = tags.find((tag) => tagNameKey(tag.name) === key);
      if (existing) return { tag: toTag(existing), created: false };
      if (tags.length >= MAX_TAGS) return 'full';
      const row = { id: uuidv7(), name: normalized, name_key: key, created_at: new Date(this.clock()).toISOString() };
      await trx.insertInto('tags').values(row).execute();
      return { tag: toTag(row), created: true };
    });
  }

  /**
   * Deletes a tag and removes it from every application, one `untagged` audit entry each.
   * @returns false when there is no such tag.
   */
  async remove(id: string, actor: string): Promise<boolean> {
    return this.changes.after(
      this.db.transaction().execute(async (trx) => {
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
      }),
    );
  }

  /** An application's tags, by name ([] for an unknown application). */
  async of(applicationId: string): Promise<Tag[]> {
    return tagsOf(this.db, applicationId);
  }

  /**
   * The tags of each of `applicationIds`, by name, in one query (the list's page).
   * @returns a map from application id to its tags; an id without tags (or of no application) is absent.
   */
  async ofMany(applicationIds: readonly string[]): Promise<Map<string, Tag[]>> {
    const byApplication = new Map<string, Tag[]>();
    if (applicationIds.length === 0) return byApplication;
    const rows = await this.db
      .selectFrom('application_tags')
      .innerJoin('tags', 'tags.id', 'application_tags.tag_id')
      .select(['application_tags.application_id', 'tags.id', 'tags.name', 'tags.created_at'])
      .where('application_tags.application_id', 'in', [...new Set(applicationIds)])
      .orderBy('tags.name_key')
      .orderBy('tags.id')
      .execute();
    for (const row of rows) {
      const tags = byApplication.get(row.application_id) ?? [];
      tags.push(toTag(row));
      byApplication.set(row.application_id, tags);
    }
    return byApplication;
  }

  /**
   * Adds the tags `add` to, and removes the tags `remove` from, every application of `ids`
   * (repeats ignored), in one transaction: one `tagged` or `untagged` audit entry per application
   * and tag that changed, as {@link set} writes them. Takes the applications' row locks, then the
   * tags', in the order {@link set} and {@link remove} take them (erasure and tag deletion races).
   * @returns how many applications changed and the ids of no application (skipped); or, changing
   *   nothing, why: a tag id of no tag, or an application that would carry more than
   *   {@link MAX_TAGS_PER_APPLICATION} tags.
   */
  async bulk(
    ids: readonly string[],
    change: { add?: readonly string[] | undefined; remove?: readonly string[] | undefined },
    actor: string,
  ): Promise<{ updated: number; notFound: string[] } | BulkTagsRefusal> {
    const wanted = [...new Set(ids)];
    const add = change.add ?? [];
    const remove = change.remove ?? [];
    const tagIds = [...new Set([...add, ...remove])];
    return this.changes.after(
      this.db.transaction().execute(async (trx) => {
        // Row locks on the applications, then which exist.
        const existing = await lockRows(trx, 'applications', wanted);
        await lockTags(trx, tagIds);
        const found = await trx.selectFrom('tags').select(['id', 'name']).where('id', 'in', tagIds).execute();
        const known = new Map(found.map((tag) => [tag.id, tag.name]));
        const unknownIn = (list: readonly string[]) => list.flatMap((id, index) => (known.has(id) ? [] : [index]));
        if (found.length < tagIds.length) return { refused: 'unknown-tags' as const, add: unknownIn(add), remove: unknownIn(remove) };

        const present =
          existing.size === 0
            ? []
            : await trx
                .selectFrom('application_tags')
                .select(['application_id', 'tag_id'])
                .where('application_id', 'in', [...existing])
                .execute();
        const had = new Map<string, Set<string>>();
        for (const link of present) had.set(link.application_id, (had.get(link.application_id) ?? new Set()).add(link.tag_id));
        const byName = (a: string, b: string) => known.get(a)!.toLowerCase().localeCompare(known.get(b)!.toLowerCase());
        const adding = [...new Set(add)].sort(byName);
        const removing = [...new Set(remove)].sort(byName);
        const links: { application_id: string; tag_id: string }[] = [];
        const unlinked = new Set<string>();
        const entries: AuditWrite[] = [];
        const tooMany: number[] = [];
        for (const id of wanted) {
          if (!existing.has(id)) continue;
          const own = had.get(id) ?? new Set<string>();
          const added = adding.filter((tag) => !own.has(tag));
          const removed = removing.filter((tag) => own.has(tag));
          if (own.size + added.length - removed.length > MAX_TAGS_PER_APPLICATION) tooMany.push(ids.indexOf(id));
          links.push(...added.map((tag) => ({ application_id: id, tag_id: tag })));
          if (removed.length > 0) unlinked.add(id);
          // Each application's entries together, additions first, each with the tag's name.
          entries.push(
            ...added.map((tag) => ({ applicationId: id, actor, action: 'tagged' as const, to: known.get(tag)! })),
            ...removed.map((tag) => ({ applicationId: id, actor, action: 'untagged' as const, to: known.get(tag)! })),
          );
        }
        if (tooMany.length > 0) return { refused: 'too-many' as const, indexes: tooMany };

        for (const chunk of perStatement(links)) await trx.insertInto('application_tags').values(chunk).execute();
        if (unlinked.size > 0)
          await trx
            .deleteFrom('application_tags')
            .where('application_id', 'in', [...unlinked])
            .where('tag_id', 'in', removing)
            .execute();
        await this.audit.append(trx, new Date(this.clock()).toISOString(), entries);
        return { updated: new Set(entries.map((entry) => entry.applicationId)).size, notFound: wanted.filter((id) => !existing.has(id)) };
      }),
    );
  }

  /**
   * Makes `tagIds` (repeats ignored) the tags of an application: those it lacked are applied
   * (`tagged`), those left out removed (`untagged`), one audit entry per change.
   * @returns the application's tags by name; or why not: no such application, or ids of no tag
   *   (deleted meanwhile: nothing is changed then).
   */
  async set(applicationId: string, tagIds: readonly string[], actor: string): Promise<Tag[] | TagsRefusal> {
    const wanted = [...new Set(tagIds)];
    return this.changes.after(
      this.db.transaction().execute(async (trx) => {
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
        if (added.length > 0)
          await trx
            .insertInto('application_tags')
            .values(added.map((id) => ({ application_id: applicationId, tag_id: id })))
            .execute();
        if (removed.length > 0) {
          await trx
            .deleteFrom('application_tags')
            .where('application_id', '=', applicationId)
            .where(
              'tag_id',
              'in',
              removed.map((tag) => tag.id),
            )
            .execute();
        }
        await this.audit.append(trx, new Date(this.clock()).toISOString(), [
          ...added.map((id) => ({ applicationId, actor, action: 'tagged' as const, to: known.get(id)! })),
          ...removed.map((tag) => ({ applicationId, actor, action: 'untagged' as const, to: tag.name })),
        ]);
        return tagsOf(trx, applicationId);
      }),
    );
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
