import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { ApplicationFilter } from '../../shared/admin';
import type { PlatformName } from '../../shared/platforms';
import type { ApplicationRepository } from './applications';
import type { Database } from './schema';

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

/** PostgreSQL's SQLSTATE for text that is not valid JSON (`invalid_text_representation`). */
const INVALID_TEXT = '22P02';
/** Payloads read at a time when PostgreSQL counts in JavaScript. */
const FALLBACK_BATCH = 2000;

type Count = number | string | bigint | null;

/** `, a, b, `: a multi-select answer (choices joined with `, `) between separators, so an option is found as `, option, `. */
const between = (joined: string) => `, ${joined}, `;

/**
 * The summary view's aggregates (issue 16): for the applications the list's filter matches
 * ({@link ApplicationRepository.matching}), how many there are, how many gave each platform, and
 * per question how many answered and chose each option — one aggregate query over the stored
 * payload JSON (SQLite `json_extract`, PostgreSQL `jsonb ->>`) that reads each matched payload
 * once; no table of its own, nothing written at submit time. Routes never touch SQL.
 */
export class SummaryRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly applications: ApplicationRepository,
    private readonly dialect: 'sqlite' | 'postgres',
  ) {}

  /**
   * Counts the applications `filter` matches, their platforms and their answers to `request`'s
   * questions. A payload that is not JSON (issue 11) counts as matched with no answers: SQLite
   * skips it by `json_valid`; PostgreSQL 15 cannot test text for JSON without failing, so there
   * the counts are made again in JavaScript, 2 000 payloads at a time (slow, and only while such a
   * row matches).
   * @returns the counts, `questions` in the request's order.
   * @throws the store's error when it cannot be reached.
   */
  async summarize(filter: ApplicationFilter, request: SummaryRequest): Promise<SummaryCounts> {
    try {
      return await this.inDatabase(filter, request);
    } catch (error) {
      if (this.dialect === 'postgres' && (error as { code?: unknown }).code === INVALID_TEXT) return this.inJavaScript(filter, request);
      throw error;
    }
  }

  private async inDatabase(filter: ApplicationFilter, request: SummaryRequest): Promise<SummaryCounts> {
    const sqlite = this.dialect === 'sqlite';
    const matched = this.applications.matching(this.db.selectFrom('applications').select(['payload', 'platform_names']), filter);
    const sum = (condition: RawBuilder<unknown>) => sql<Count>`sum(case when ${condition} then 1 else 0 end)`;
    // The answer at a key as text, or null: each payload is parsed once (SQLite caches the parsed
    // payload between calls on the same row; PostgreSQL parses it in the fenced derived table).
    const answer = (key: string) => (sqlite ? sql`json_extract(m.p, ${`$.fields."${key}"`})` : sql`(m.f ->> ${key})`);
    const holds = (joined: RawBuilder<unknown>, option: string) =>
      sqlite ? sql`instr(', ' || ${joined} || ', ', ${between(option)}) > 0` : sql`strpos(', ' || ${joined} || ', ', ${between(option)}) > 0`;
    const columns: RawBuilder<Count>[] = [sql<Count>`count(*)`];
    for (const platform of request.platforms) columns.push(sum(sql`m.platform_names like ${`%,${platform},%`}`));
    for (const question of request.questions) {
      const value = answer(question.key);
      columns.push(sum(sql`${value} <> ''`));
      if (question.kind === 'choice') for (const option of question.options) columns.push(sum(sql`${value} = ${option}`));
      if (question.kind === 'multiple') {
        for (const option of question.options) columns.push(sum(holds(value, option)));
        // What is left once every option is taken out: only separators, or something else.
        let rest: RawBuilder<unknown> = sql`', ' || ${value} || ', '`;
        for (const option of question.options) rest = sql`replace(${rest}, ${between(option)}, ', ')`;
        columns.push(sum(sqlite ? sql`${value} <> '' and trim(${rest}, ', ') <> ''` : sql`${value} <> '' and btrim(${rest}, ', ') <> ''`));
      }
    }
    const source = sqlite
      ? sql`(select case when json_valid(payload) then payload else '{}' end as p, platform_names from (${matched}) as a) as m`
      : // `offset 0` keeps PostgreSQL from folding the derived table into the outer query, which
        // would parse the payload again for every option counted (over the query timeout at 100 000 rows).
        sql`(select (payload::jsonb) -> 'fields' as f, platform_names from (${matched}) as a offset 0) as m`;
    const query = sql<Record<string, Count>>`select ${sql.join(columns.map((column, index) => sql`${column} as ${sql.ref(`c${index}`)}`))} from ${source}`;
    const row = (await query.execute(this.db)).rows[0] ?? {};
    const values = columns.map((_, index) => Number(row[`c${index}`] ?? 0));
    let next = 0;
    const take = () => values[next++]!;
    const counts: SummaryCounts = { matched: take(), platforms: {}, questions: [] };
    for (const platform of request.platforms) counts.platforms[platform] = take();
    for (const question of request.questions) {
      const answered = take();
      const options = question.kind === 'text' ? [] : question.options.map(take);
      const other = question.kind === 'choice' ? answered - options.reduce((a, b) => a + b, 0) : question.kind === 'multiple' ? take() : 0;
      counts.questions.push({ answered, options, other });
    }
    return counts;
  }

  /** The same counts read in JavaScript, {@link FALLBACK_BATCH} payloads at a time (PostgreSQL with an unreadable payload among the matched). */
  private async inJavaScript(filter: ApplicationFilter, request: SummaryRequest): Promise<SummaryCounts> {
    const counts: SummaryCounts = {
      matched: 0,
      platforms: Object.fromEntries(request.platforms.map((platform) => [platform, 0])),
      questions: request.questions.map((question) => ({ answered: 0, options: question.kind === 'text' ? [] : question.options.map(() => 0), other: 0 })),
    };
    let after: string | undefined;
    for (;;) {
      let query = this.applications.matching(this.db.selectFrom('applications').select(['id', 'payload', 'platform_names']), filter);
      if (after !== undefined) query = query.where('id', '>', after);
      const rows = await query.orderBy('id').limit(FALLBACK_BATCH).execute();
      for (const row of rows) {
        counts.matched += 1;
        for (const platform of request.platforms) if (row.platform_names.includes(`,${platform},`)) counts.platforms[platform]! += 1;
        let fields: Record<string, unknown> = {};
        try {
          const parsed = (JSON.parse(row.payload) as { fields?: unknown } | null)?.fields;
          if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) fields = parsed as Record<string, unknown>;
        } catch {
          // Unreadable: matched, no answers.
        }
        request.questions.forEach((question, index) => tally(question, fields[question.key], counts.questions[index]!));
      }
      if (rows.length < FALLBACK_BATCH) break;
      after = rows.at(-1)!.id;
    }
    return counts;
  }
}

/** Adds one stored answer to its question's counts, as the aggregate query counts it. */
function tally(question: CountedQuestion, stored: unknown, counts: QuestionCounts) {
  if (stored === undefined || stored === null || stored === '') return;
  const value = typeof stored === 'string' ? stored : JSON.stringify(stored);
  counts.answered += 1;
  if (question.kind === 'choice') {
    const index = question.options.indexOf(value);
    if (index >= 0) counts.options[index]! += 1;
    else counts.other += 1;
  }
  if (question.kind === 'multiple') {
    let rest = between(value);
    question.options.forEach((option, index) => {
      if (between(value).includes(between(option))) counts.options[index]! += 1;
      rest = rest.split(between(option)).join(', ');
    });
    if (rest.replace(/^[, ]+|[, ]+$/g, '') !== '') counts.other += 1;
  }
}
