import { sql, type Kysely } from 'kysely';
import type { FunnelEvent } from '../../shared/admin';
import type { Database } from './schema';

/** Counts of one UTC day and event of a page's funnel (step -1 for events without a step). */
export interface FunnelCount {
  day: string;
  event: FunnelEvent;
  step: number;
  count: number;
}

interface PendingFunnelCount {
  pageId: string;
  day: string;
  event: FunnelEvent;
  step: number;
  count: number;
}

/** How often funnel counts held in memory are written, in ms. */
const FUNNEL_FLUSH_MS = 1000;

/**
 * The wizard's anonymous funnel counts on the server's Kysely database: counted in
 * memory and written at most {@link FUNNEL_FLUSH_MS} later in one transaction, so a beacon
 * costs no write of its own.
 */
export class FunnelRepository {
  private funnel = new Map<string, PendingFunnelCount>();
  private funnelTimer: NodeJS.Timeout | undefined;

  constructor(private readonly db: Kysely<Database>) {}

  /** Counts one funnel event (kept in memory, written at most {@link FUNNEL_FLUSH_MS} later). */
  recordFunnelEvent(pageId: string, day: string, event: FunnelEvent, step: number) {
    this.addFunnelCount({ pageId, day, event, step, count: 1 });
  }

  private addFunnelCount(count: PendingFunnelCount) {
    const key = `${count.pageId}\u0000${count.day}\u0000${count.event}\u0000${count.step}`;
    const entry = this.funnel.get(key);
    if (entry) entry.count += count.count;
    else this.funnel.set(key, { ...count });
    this.funnelTimer ??= setTimeout(() => void this.flush().catch(() => undefined), FUNNEL_FLUSH_MS).unref();
  }

  /** Writes the counts still in memory; on failure keeps them for the next try and rethrows. */
  async flush() {
    clearTimeout(this.funnelTimer);
    this.funnelTimer = undefined;
    const counts = [...this.funnel.values()];
    this.funnel = new Map();
    if (counts.length === 0) return;
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const count of counts) {
          await trx
            .insertInto('funnel_counts')
            .values({ page_id: count.pageId, day: count.day, event: count.event, step: count.step, count: count.count })
            .onConflict((conflict) =>
              conflict.columns(['page_id', 'day', 'event', 'step']).doUpdateSet({ count: sql<number>`funnel_counts.count + ${count.count}` }),
            )
            .execute();
        }
      });
    } catch (error) {
      // Keep the counts for the next attempt (the store may be back by then).
      for (const count of counts) this.addFunnelCount(count);
      throw error;
    }
  }

  /** A page's funnel counts for UTC days `from`–`to` inclusive (YYYY-MM-DD), those in memory included. */
  async funnelCounts(pageId: string, from: string, to: string) {
    await this.flush();
    const rows = await this.db
      .selectFrom('funnel_counts')
      .select(['day', 'event', 'step', 'count'])
      .where('page_id', '=', pageId)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .execute();
    return rows.map((row) => ({ day: row.day, event: row.event as FunnelEvent, step: Number(row.step), count: Number(row.count) }));
  }
}
