import type { Kysely } from 'kysely';
import type { ApplicationFilter } from '../../shared/admin';
import type { PlatformName } from '../../shared/platforms';
import type { ApplicationRepository } from './applications';
import type { Database } from './schema';
import { talliesServe, type TallyKind } from './tallies';

/** One question the summary counts, by its key in `payload.fields` (SPEC §7: answers stored flat, as text). */
export interface CountedQuestion {
  /** The key in `payload.fields`, without `fields.`: `howOften`, `campaign.value`. */
  key: string;
  /**
   * `choice`: the stored text is one option; `multiple`: the options picked, joined with `, `;
   * `text`: free text, only counted as answered (never read out).
   */
  kind: 'choice' | 'multiple' | 'text';
  /** The stored values of the options, in the configuration's order (`[]` for free text). */
  options: readonly string[];
}

/** What {@link SummaryRepository.summarize} is asked to count. */
export interface SummaryRequest {
  questions: readonly CountedQuestion[];
  /** The platforms whose applicants are counted. */
  platforms: readonly PlatformName[];
}

/** One question's counts, in the order of {@link SummaryRequest.questions}. */
export interface QuestionCounts {
  /** Applications with a non-empty answer. */
  answered: number;
  /** Per option of the request, in its order: applications whose answer is (choice) or holds (multiple) it. */
  options: number[];
  /** Applications whose answer is, or holds, something that is none of the options (an option since removed). */
  other: number;
}

/** What {@link SummaryRepository.summarize} answers. */
export interface SummaryCounts {
  /** Applications the filter matches. */
  matched: number;
  /** Per platform asked for, the matched applications that gave it (a handle or a URL). */
  platforms: Record<string, number>;
  questions: QuestionCounts[];
}

/** A count as a driver reads it (PostgreSQL's `count` is a `bigint`, read as text). */
type Count = number | string | bigint;

/** The summary's four reads: the matched count, per platform, per question answered, per question and value. */
type Counted = [
  { n: Count } | undefined,
  { platform: string; n: Count }[],
  { key: string; n: Count }[],
  { key: string; value: string; n: Count }[],
];

/**
 * Most keys bound in one `key in (…)` list: SQLite allows 32 766 variables in a statement and
 * PostgreSQL 65 535 parameters; a page whose versions together ask more questions (the fourth
 * outside attack: 420 versions of 80 new questions each made the summary a 500) is read in
 * several statements of this many keys.
 */
export const KEYS_PER_STATEMENT = 1000;

/** Runs `read` on `keys` in chunks of at most {@link KEYS_PER_STATEMENT}, one after another, and joins their rows; none for no keys. */
async function byKeys<Row>(keys: readonly string[], read: (chunk: string[]) => Promise<Row[]>): Promise<Row[]> {
  const rows: Row[] = [];
  for (let start = 0; start < keys.length; start += KEYS_PER_STATEMENT) rows.push(...(await read(keys.slice(start, start + KEYS_PER_STATEMENT))));
  return rows;
}

/**
 * The summary view's aggregates (issue 16): for the applications the list's filter matches
 * ({@link ApplicationRepository.matching}), how many there are, how many gave each platform, and
 * per question how many answered and chose each option — grouped reads of the answer and handle
 * rows written at submit time, never of the payloads. Routes never touch SQL.
 */
export class SummaryRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly applications: ApplicationRepository,
  ) {}

  /**
   * Counts the applications `filter` matches, their platforms and their answers to `request`'s
   * questions, from the rows stored beside each application at submit time (migration 007:
   * `application_answers`, each answer and each option of a multi-select answer, long texts cut to
   * their first 200 characters; `application_handles`, one row per platform given): four grouped
   * reads of indexes, never a payload parsed. An application whose payload cannot be read has no
   * such rows: it counts as matched, with no answers.
   * @returns the counts, `questions` in the request's order.
   * @throws the store's error when it cannot be reached.
   */
  async summarize(filter: ApplicationFilter, request: SummaryRequest): Promise<SummaryCounts> {
    await this.applications.indexed();
    const keys = request.questions.map((question) => question.key);
    const choiceKeys = request.questions.filter((question) => question.kind !== 'text').map((question) => question.key);
    const [matched, platforms, answered, values] = talliesServe(filter) ? await this.tallied(filter, request.platforms, keys, choiceKeys) : await this.counted(filter, request.platforms, keys, choiceKeys);
    const counts: SummaryCounts = { matched: Number(matched?.n ?? 0), platforms: {}, questions: [] };
    for (const platform of request.platforms) counts.platforms[platform] = Number(platforms.find((row) => row.platform === platform)?.n ?? 0);
    // By key, so that a page of many questions is counted in time linear in its rows.
    const answeredByKey = new Map(answered.map((row) => [row.key, Number(row.n)]));
    const valuesByKey = new Map<string, typeof values>();
    for (const row of values) {
      const rows = valuesByKey.get(row.key);
      if (rows) rows.push(row);
      else valuesByKey.set(row.key, [row]);
    }
    for (const question of request.questions) {
      const answeredCount = answeredByKey.get(question.key) ?? 0;
      const rows = valuesByKey.get(question.key) ?? [];
      const count = (value: string) => Number(rows.find((row) => row.value === value)?.n ?? 0);
      const options = question.kind === 'text' ? [] : question.options.map(count);
      let other = 0;
      if (question.kind === 'choice') other = answeredCount - options.reduce((a, b) => a + b, 0);
      if (question.kind === 'multiple') {
        // An answer's own row holds every pick joined; its picks have rows of their own. What is
        // left, neither an option nor a joined answer, is a pick no option holds any more.
        const known = new Set(question.options);
        for (const row of rows) if (!known.has(row.value) && !row.value.includes(', ')) other += Number(row.n);
      }
      counts.questions.push({ answered: answeredCount, options, other });
    }
    return counts;
  }

  /**
   * The summary's four counts from the tallies (tallies.ts), for a filter of a page and status at
   * most: sums of a few kept rows, whatever the number of applications.
   */
  private async tallied(filter: ApplicationFilter, platforms: readonly PlatformName[], keys: string[], choiceKeys: string[]): Promise<Counted> {
    const sums = (kind: TallyKind) =>
      this.db
        .selectFrom('application_tallies')
        .select((eb) => ['key', 'value', eb.fn.sum<Count>('n').as('n')])
        .where('kind', '=', kind)
        .$if(Boolean(filter.pageId), (query) => query.where('page_id', '=', filter.pageId!))
        .$if(Boolean(filter.status), (query) => query.where('status', '=', filter.status!))
        .groupBy(['key', 'value']);
    const [matched, platformRows, answered, values] = await Promise.all([
      sums('application').executeTakeFirst(),
      platforms.length === 0 ? [] : sums('platform').where('key', 'in', [...platforms]).execute(),
      byKeys(keys, (chunk) => sums('answered').where('key', 'in', chunk).execute()),
      byKeys(choiceKeys, (chunk) => sums('answer').where('key', 'in', chunk).execute()),
    ]);
    return [matched, platformRows.map((row) => ({ platform: row.key, n: row.n })), answered, values];
  }

  /** The summary's four counts, counted on the answer and handle rows of the applications `filter` matches. */
  private async counted(filter: ApplicationFilter, platforms: readonly PlatformName[], keys: string[], choiceKeys: string[]): Promise<Counted> {
    const ids = () => this.applications.matching(this.db.selectFrom('applications').select('applications.id'), filter);
    return Promise.all([
      this.applications.matching(this.db.selectFrom('applications').select((eb) => eb.fn.countAll<Count>().as('n')), filter).executeTakeFirst(),
      platforms.length === 0
        ? []
        : this.db
            .selectFrom('application_handles')
            .select((eb) => ['platform', eb.fn.countAll<Count>().as('n')])
            .where('platform', 'in', [...platforms])
            .where('application_id', 'in', ids())
            .groupBy('platform')
            .execute(),
      byKeys(keys, (chunk) =>
        this.db
          .selectFrom('application_answers')
          .select((eb) => ['key', eb.fn.count<Count>('application_id').distinct().as('n')])
          .where('key', 'in', chunk)
          .where('application_id', 'in', ids())
          .groupBy('key')
          .execute(),
      ),
      byKeys(choiceKeys, (chunk) =>
        this.db
          .selectFrom('application_answers')
          .select((eb) => ['key', 'value', eb.fn.countAll<Count>().as('n')])
          .where('key', 'in', chunk)
          .where('application_id', 'in', ids())
          .groupBy(['key', 'value'])
          .execute(),
      ),
    ]);
  }
}
