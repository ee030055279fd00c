import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { SavedView } from '../../shared/admin';
import type { Clock } from '../clock';
import { lockScope } from './locks';
import type { Database } from './schema';

/**
 * Each inbox user's saved views: a name for a list's filters and sort, kept as the
 * list's query string, so a view opens as a bookmark would. One view per user and name: saving a
 * name again replaces its query.
 */
export class SavedViewRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** A user's views, by name. */
  async list(userId: string): Promise<SavedView[]> {
    const rows = await this.db.selectFrom('saved_views').select(['id', 'name', 'query', 'created_at']).where('user_id', '=', userId).orderBy('name').execute();
    return rows.map((row) => ({ id: row.id, name: row.name, query: row.query, createdAt: row.created_at }));
  }

  /**
   * Saves a view under `name` (trimmed), replacing the user's view of that name. The user's saves
   * take turns ({@link lockScope}, `saved-views:<user id>`), so many at once neither break the
   * unique (user, name) key nor pass `max` together.
   * @returns the view, or undefined when the user already has `max` other views.
   * @throws the driver's error when the store fails.
   */
  async save(userId: string, name: string, query: string, max: number): Promise<SavedView | undefined> {
    const trimmed = name.trim();
    return this.db.transaction().execute(async (trx) => {
      await lockScope(trx, `saved-views:${userId}`);
      const existing = await trx
        .selectFrom('saved_views')
        .select(['id', 'created_at'])
        .where('user_id', '=', userId)
        .where('name', '=', trimmed)
        .executeTakeFirst();
      if (existing) {
        await trx.updateTable('saved_views').set({ query }).where('id', '=', existing.id).execute();
        return { id: existing.id, name: trimmed, query, createdAt: existing.created_at };
      }
      const { count } = await trx
        .selectFrom('saved_views')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      if (Number(count) >= max) return undefined;
      const view = { id: randomUUID(), name: trimmed, query, createdAt: new Date(this.clock()).toISOString() };
      await trx.insertInto('saved_views').values({ id: view.id, user_id: userId, name: view.name, query, created_at: view.createdAt }).execute();
      return view;
    });
  }

  /** Deletes one of the user's views; false when the user has no such view. */
  async remove(userId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('saved_views').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
