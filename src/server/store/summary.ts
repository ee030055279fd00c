import { sql, type Kysely } from 'kysely';
import type { ApplicationFilter } from '../../shared/admin';
import type { PlatformName } from '../../shared/platforms';
import type { ApplicationRepository } from './applications';
import type { Database } from './schema';

/** How many matched applications stored one value under one key of their payload's `fields`. */
export interface AnswerTally {
  /** The key in `payload.fields`, without `fields.`: `howOften`, `campaign.value`. */
  key: string;
  /** The stored text (a multi-select's choices joined with `, `), or `''` for a key counted as free text. */
  value: string;
  /** Applications, ≥ 1. */
  count: number;
}

/** What {@link SummaryRepository.summarize} is asked to count. */
export interface SummaryRequest {
  /** `fields` keys whose answers are counted per stored value (selects, yes/no, checkboxes). */
  choiceKeys: readonly string[];
  /** `fields` keys whose answers are only counted as given (free text): their value is never read out. */
  textKeys: readonly string[];
  /** The platforms whose applicants are counted. */
  platforms: readonly PlatformName[];
}

/** What {@link SummaryRepository.summarize} answers. */
export interface SummaryCounts {
  /** Applications the filter matches. */
  matched: number;
  /** Per platform asked for, the matched applications that gave it (a handle or a URL). */
  platforms: Record<string, number>;
  /** One row per key and distinct value (choices), or per key with `value: ''` (free text); answers left empty are not counted. */
  answers: AnswerTally[];
}

/** PostgreSQL's SQLSTATE for text that is not valid JSON (`invalid_text_representation`). */
const INVALID_TEXT = '22P02';

/**
 * The summary view's aggregates (issue 16): for the applications the list's filter matches
 * ({@link ApplicationRepository.matching}), how many there are, how many gave each platform, and
 * how many stored each answer, computed by the database in two grouped queries over the stored
 * payload JSON (SQLite `json_each`, PostgreSQL `jsonb_each_text`): no table of its own, nothing
 * written at submit time. Routes never touch SQL.
 */
export class SummaryRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly applications: ApplicationRepository,
    private readonly dialect: 'sqlite' | 'postgres',
  ) {}

  /**
   * Counts the applications `filter` matches, their platforms and their answers to `request`'s keys.
   * A payload the database cannot read as JSON (issue 11) counts as matched with no answers: on
   * SQLite it is skipped by `json_valid`; PostgreSQL 15 cannot test text for JSON without failing,
   * so there a failed aggregate is counted again in JavaScript, in batches (slow, and only while such
   * a row matches).
   * @throws the store's error when it cannot be reached.
   */
  async summarize(filter: ApplicationFilter, request: SummaryRequest): Promise<SummaryCounts> {
    const [totals, answers] = await Promise.all([this.totals(filter, request.platforms), this.answers(filter, request)]);
    return { ...totals, answers };
  }

  private async totals(filter: ApplicationFilter, platforms: readonly PlatformName[]) {
    const row = await this.applications
      .matching(
        this.db
          .selectFrom('applications')
          .select((eb) => [
            eb.fn.countAll<number | string | bigint>().as('matched'),
            // Platform names come from PLATFORM_NAMES (letters only); the pattern is a parameter.
            ...platforms.map((platform) => sql<number | string | bigint | null>`sum(case when platform_names like ${`%,${platform},%`} then 1 else 0 end)`.as(platform)),
          ]),
        filter,
      )
      .executeTakeFirstOrThrow();
    const counts = row as unknown as Record<string, number | string | bigint | null>;
    return { matched: Number(counts.matched ?? 0), platforms: Object.fromEntries(platforms.map((platform) => [platform, Number(counts[platform] ?? 0)])) };
  }

  private async answers(filter: ApplicationFilter, request: SummaryRequest): Promise<AnswerTally[]> {
    const keys = [...request.choiceKeys, ...request.textKeys];
    if (keys.length === 0) return [];
    const matched = this.applications.matching(this.db.selectFrom('applications').select('payload'), filter);
    const keyList = sql.join(keys);
    // Free text is counted, never grouped by its value: one group per key.
    const textList = request.textKeys.length > 0 ? sql.join(request.textKeys) : sql`null`;
    const query =
      this.dialect === 'sqlite'
        ? sql<{ key: string; value: string; count: number | string | bigint }>`
            select f.key as key, case when f.key in (${textList}) then '' else f.value end as value, count(*) as count
            from (${matched}) as m, json_each(case when json_valid(m.payload) then m.payload else '{}' end, '$.fields') as f
            where f.key in (${keyList}) and f.type = 'text' and f.value <> ''
            group by 1, 2`
        : sql<{ key: string; value: string; count: number | string | bigint }>`
            select f.key as key, case when f.key in (${textList}) then '' else f.value end as value, count(*) as count
            from (${matched}) as m
            cross join lateral (select m.payload::jsonb -> 'fields' as fields) as p
            cross join lateral jsonb_each_text(case when jsonb_typeof(p.fields) = 'object' then p.fields else '{}'::jsonb end) as f(key, value)
            where f.key in (${keyList}) and f.value <> ''
            group by 1, 2`;
    try {
      const { rows } = await query.execute(this.db);
      return rows.map((row) => ({ key: row.key, value: row.value, count: Number(row.count) }));
    } catch (error) {
      if (this.dialect === 'postgres' && (error as { code?: unknown }).code === INVALID_TEXT) return this.answersInJavaScript(filter, request);
      throw error;
    }
  }

  /** PostgreSQL with an unreadable payload among the matched: the same tallies, reading 2 000 payloads at a time. */
  private async answersInJavaScript(filter: ApplicationFilter, request: SummaryRequest): Promise<AnswerTally[]> {
    const text = new Set(request.textKeys);
    const wanted = new Set([...request.choiceKeys, ...request.textKeys]);
    const tallies = new Map<string, AnswerTally>();
    let after: string | undefined;
    for (;;) {
      let query = this.applications.matching(this.db.selectFrom('applications').select(['id', 'payload']), filter);
      if (after !== undefined) query = query.where('id', '>', after);
      const rows = await query.orderBy('id').limit(2000).execute();
      for (const row of rows) {
        let fields: unknown;
        try {
          fields = (JSON.parse(row.payload) as { fields?: unknown } | null)?.fields;
        } catch {
          continue;
        }
        if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) continue;
        for (const [key, stored] of Object.entries(fields as Record<string, unknown>)) {
          if (!wanted.has(key) || typeof stored !== 'string' || stored === '') continue;
          const value = text.has(key) ? '' : stored;
          const id = `${key}\u0000${value}`;
          const tally = tallies.get(id) ?? { key, value, count: 0 };
          tally.count += 1;
          tallies.set(id, tally);
        }
      }
      if (rows.length < 2000) break;
      after = rows.at(-1)!.id;
    }
    return [...tallies.values()];
  }
}
