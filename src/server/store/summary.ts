import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { ApplicationFilter } from '../../shared/admin';
import type { PlatformName } from '../../shared/platforms';
import { profileHolds, readAnswerProfile } from './answer-index';
import { answerChoices, profiledText } from './application-filters';
import type { ApplicationReader } from './applications';
import type { Database } from './schema';
import { SharedReads } from './shared-reads';
import { talliesServe, uncountedQuestions, type TallyKind } from './tallies';

/** One question the summary counts, by its key in `payload.fields` (requirements §7: answers stored flat, as text). */
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

/** How {@link SummaryRepository.summarize} counts. */
export interface SummarizeOptions {
  /**
   * Count the answer rows of the applications the filter matches, never a tally or a profile (the
   * tests check that every way of counting agrees with the rows).
   */
  rows?: boolean;
}

/** The day (`YYYY-MM-DD`, UTC, as the list's `from` and `to` read it) `days` days after `day`. */
function shiftDay(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** `whole`'s counts less `part`'s (the applications of `part` are among those of `whole`). */
function less(whole: Counted, part: Counted): Counted {
  const minus = <Row extends { n: Count }>(rows: Row[], taken: Row[], id: (row: Row) => string): Row[] => {
    // Summed: the tallies' counts and the rows no tally counts may both hold a value.
    const byId = new Map<string, Row & { n: number }>();
    for (const row of rows) {
      const kept = byId.get(id(row));
      if (kept) kept.n += Number(row.n);
      else byId.set(id(row), { ...row, n: Number(row.n) });
    }
    for (const row of taken) {
      const kept = byId.get(id(row));
      if (kept) kept.n -= Number(row.n);
      else byId.set(id(row), { ...row, n: -Number(row.n) });
    }
    return [...byId.values()].filter((row) => row.n !== 0);
  };
  return [
    { n: Number(whole[0]?.n ?? 0) - Number(part[0]?.n ?? 0) },
    minus(whole[1], part[1], (row) => row.platform),
    minus(whole[2], part[2], (row) => row.key),
    minus(whole[3], part[3], (row) => `${row.key}\u0000${row.value}`),
  ];
}

/** A count as a driver reads it (PostgreSQL's `count` is a `bigint`, read as text). */
type Count = number | string | bigint;

/** The summary's four reads: the matched count, per platform, per question answered, per question and value. */
type Counted = [{ n: Count } | undefined, { platform: string; n: Count }[], { key: string; n: Count }[], { key: string; value: string; n: Count }[]];

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
 * The summary view's aggregates: for the applications the list's filter matches
 * ({@link ApplicationFilters.matching}), how many there are, how many gave each platform, and
 * per question how many answered and chose each option — grouped reads of the answer and handle
 * rows written at submit time, never of the payloads. Routes never touch SQL.
 */
export class SummaryRepository {
  /** The summaries running, shared by the same ones asked meanwhile (shared-reads.ts). */
  private readonly running: SharedReads<SummaryCounts>;

  constructor(
    private readonly db: Kysely<Database>,
    // Read only: the filters' planner it shares with the lists, waiting for the answer index, and its changes.
    private readonly applications: ApplicationReader,
  ) {
    this.running = new SharedReads(applications.changes);
  }

  /**
   * Counts the applications `filter` matches, their platforms and their answers to `request`'s
   * questions, never from a payload: for a page and a status at most, from the tallies
   * ({@link tallied}); under one `contains` text (with a page, a status, a country, answers and a
   * platform at most), from the profiles of the rows the text matches ({@link profiled}); under any other
   * filter, from the answer rows of the applications it matches, found once ({@link counted};
   * migration 007: `application_answers`, each answer and each option of a multi-select answer, long
   * texts cut to their first 200 characters). An application whose payload cannot be read has no
   * answer rows: it counts as matched, with no answers. The same summary asked while one runs, with
   * nothing changed since that one was asked (by this process or another), is answered by it ({@link SharedReads}).
   * @returns the counts, `questions` in the request's order (a copy of its own for each caller).
   * @throws the store's error when it cannot be reached.
   */
  async summarize(filter: ApplicationFilter, request: SummaryRequest, options: SummarizeOptions = {}): Promise<SummaryCounts> {
    return structuredClone(await this.running.read(JSON.stringify([filter, request, options]), () => this.count(filter, request, options)));
  }

  /** {@link summarize}'s counts, read now. */
  private async count(filter: ApplicationFilter, request: SummaryRequest, options: SummarizeOptions): Promise<SummaryCounts> {
    await this.applications.indexed();
    const keys = request.questions.map((question) => question.key);
    const choiceKeys = request.questions.filter((question) => question.kind !== 'text').map((question) => question.key);
    const [matched, platforms, answered, values] = options.rows
      ? await this.counted(filter, request.platforms, keys, choiceKeys, false)
      : talliesServe(filter)
        ? await this.tallied(filter, request.platforms, keys, choiceKeys)
        : ((await this.outsidePeriod(filter, request.platforms, keys, choiceKeys)) ??
          (await this.profiled(filter, request.platforms, choiceKeys)) ??
          (await this.counted(filter, request.platforms, keys, choiceKeys)));
    const counts: SummaryCounts = { matched: Number(matched?.n ?? 0), platforms: {}, questions: [] };
    for (const platform of request.platforms) counts.platforms[platform] = Number(platforms.find((row) => row.platform === platform)?.n ?? 0);
    // By key, so that a page of many questions is counted in time linear in its rows.
    // Summed: the profiles and the rows of applications without one may both count a question.
    const answeredByKey = new Map<string, number>();
    for (const row of answered) answeredByKey.set(row.key, (answeredByKey.get(row.key) ?? 0) + Number(row.n));
    const valuesByKey = new Map<string, typeof values>();
    for (const row of values) {
      const rows = valuesByKey.get(row.key);
      if (rows) rows.push(row);
      else valuesByKey.set(row.key, [row]);
    }
    for (const question of request.questions) {
      const answeredCount = answeredByKey.get(question.key) ?? 0;
      const rows = valuesByKey.get(question.key) ?? [];
      // Summed: the tallies' counts and the rows no tally counts may both hold a value.
      const count = (value: string) => rows.reduce((sum, row) => (row.value === value ? sum + Number(row.n) : sum), 0);
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
   * most: sums of a few kept rows, whatever the number of applications. A choice question with
   * answers not counted per value (written before the page offered it as choices: an `uncounted`
   * tally) adds those rows' values, read from their partial index (migration 016).
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
    const [matched, platformRows, answered, values, uncounted] = await Promise.all([
      sums('application').executeTakeFirst(),
      platforms.length === 0
        ? []
        : sums('platform')
            .where('key', 'in', [...platforms])
            .execute(),
      byKeys(keys, (chunk) => sums('answered').where('key', 'in', chunk).execute()),
      byKeys(choiceKeys, (chunk) => sums('answer').where('key', 'in', chunk).execute()),
      uncountedQuestions(this.db, choiceKeys, filter.pageId || undefined, filter.status),
    ]);
    const rest = await byKeys([...uncounted], (chunk) =>
      this.db
        .selectFrom('application_answers')
        .select((eb) => ['key', 'value', eb.fn.countAll<Count>().as('n')])
        .where(sql<boolean>`tallied = 0`)
        .where('key', 'in', chunk)
        .$if(Boolean(filter.pageId), (query) => query.where('page_id', '=', filter.pageId!))
        .$if(Boolean(filter.status), (query) => query.where('status', '=', filter.status!))
        .groupBy(['key', 'value'])
        .execute(),
    );
    return [matched, platformRows.map((row) => ({ platform: row.key, n: row.n })), answered, [...values, ...rest]];
  }

  /**
   * The summary's four counts under a period (`from`, `to`, with a page and a status at most) that
   * holds most of its scope's applications: the tallies of the whole scope ({@link tallied}) less
   * the applications outside the period, counted on their rows ({@link counted}: before `from`,
   * after `to`). Exact, as each count is a sum over applications. "The last 30 days" of a campaign
   * younger than that reads the tallies and two empty ranges of the `(received_at, id, status)`
   * index. Undefined, for the period's own rows to be counted, when the filter is not such a
   * period or the applications outside it are at least as many as those inside (counted on the
   * index up to half the scope's tally).
   */
  private async outsidePeriod(
    filter: ApplicationFilter,
    platforms: readonly PlatformName[],
    keys: string[],
    choiceKeys: string[],
  ): Promise<Counted | undefined> {
    const { from, to, ...scope } = filter;
    if ((!from && !to) || !talliesServe(scope)) return undefined;
    // A period that ends before it starts, or a day that is not one: its own rows are counted.
    if ((from && to && from > to) || [from, to].some((day) => day && Number.isNaN(Date.parse(`${day}T00:00:00.000Z`)))) return undefined;
    const outside: ApplicationFilter[] = [];
    if (from) outside.push({ ...scope, to: shiftDay(from, -1) });
    if (to) outside.push({ ...scope, from: shiftDay(to, 1) });
    const whole = await this.tallied(scope, platforms, keys, choiceKeys);
    const total = Number(whole[0]?.n ?? 0);
    // Up to half the scope: past that, the period's own rows are fewer to count.
    const limit = Math.floor(total / 2) + 1;
    let left = limit;
    for (const range of outside) {
      if (left <= 0) break;
      const ids = this.applications.filters.matching(this.db.selectFrom('applications').select(sql<number>`1`.as('one')), range).limit(left);
      const row = await this.db
        .selectFrom(ids.as('outside'))
        .select((eb) => eb.fn.countAll<Count>().as('n'))
        .executeTakeFirst();
      left -= Number(row?.n ?? 0);
    }
    if (left <= 0) return undefined;
    let result = whole;
    if (left < limit) for (const range of outside) result = less(result, await this.counted(range, platforms, keys, choiceKeys));
    return result;
  }

  /**
   * The summary's four counts under one `contains` text (with a page, a status, a country, answer
   * filters and a platform at most), from the answer profiles of the rows the text matches
   * ({@link ApplicationFilters.profilesHolding}: one read of one index, grouped by profile, so its
   * cost is that of finding the rows, not of reading each application's answers); the answer and
   * platform filters applied to the profiles. Undefined, for {@link counted} to count instead, when
   * a profile cannot answer: another filter; rows of the text's question counted per value in that
   * scope (a choice question, or rows written before migration 016: they carry no profile); an
   * answer filter or a choice question asked that an application's profile holds no values of.
   */
  private async profiled(filter: ApplicationFilter, platforms: readonly PlatformName[], choiceKeys: string[]): Promise<Counted | undefined> {
    const scope = profiledText(filter);
    if (!scope) return undefined;
    const { key, text, pageId, country } = scope;
    if (!(await this.applications.filters.profiled(key, pageId, filter.status))) return undefined;
    const choices = answerChoices(filter);
    let matched = 0;
    const byPlatform = new Map<string, number>();
    const answered = new Map<string, number>();
    const values = new Map<string, Map<string, number>>();
    const uncounted = new Set<string>();
    for (const { profile, n } of await this.applications.filters.profilesHolding(key, text, pageId, filter.status, country)) {
      const read = readAnswerProfile(profile);
      const holds = read && profileHolds(read, choices, filter.platform);
      // Not a profile, or one that cannot tell an answer filter (a question not counted per value).
      if (holds === undefined) return undefined;
      if (!holds) continue;
      const count = Number(n);
      matched += count;
      for (const name of platforms) if (read.platformNames.includes(`,${name},`)) byPlatform.set(name, (byPlatform.get(name) ?? 0) + count);
      for (const [question, held] of read.answers) {
        answered.set(question, (answered.get(question) ?? 0) + count);
        if (held === null) uncounted.add(question);
        else {
          const counts = values.get(question) ?? new Map<string, number>();
          for (const value of held) counts.set(value, (counts.get(value) ?? 0) + count);
          values.set(question, counts);
        }
      }
    }
    if (choiceKeys.some((question) => uncounted.has(question))) return undefined;
    return [
      { n: matched },
      [...byPlatform].map(([name, count]) => ({ platform: name, n: count })),
      [...answered].map(([question, count]) => ({ key: question, n: count })),
      choiceKeys.flatMap((question) => [...(values.get(question) ?? [])].map(([value, count]) => ({ key: question, value, n: count }))),
    ];
  }

  /**
   * The summary's four counts on the rows of the applications `filter` matches: the matched ids
   * (with their `platform_names`) found once, in one statement (`as materialized`: PostgreSQL
   * never re-runs the filter's sets per row, whatever its estimates); per matched application, its
   * answer profile's number (answer-index.ts) looked up once in the partial index of the rows that
   * carry one (migrations 017 and 029: one seek, the table never read), grouped, each profile's text
   * then read by its number and the answers read from it; the answer rows (through the `application_id` index) of only the applications with
   * none, per question answered and per choice value. `profiles` false, or a profile that cannot
   * answer (not one; a choice question asked that it holds no values of), counts every matched
   * application's answer rows.
   */
  private async counted(
    filter: ApplicationFilter,
    platforms: readonly PlatformName[],
    keys: string[],
    choiceKeys: string[],
    profiles = true,
  ): Promise<Counted> {
    const ids = this.applications.filters.matching(this.db.selectFrom('applications').select(['applications.id', 'applications.platform_names']), filter);
    // SQLite: `cross join` reads the matched ids first (it has no statistics of them, and else read
    // every answer row of the asked questions, probing the ids), `+key` one seek of an
    // application's rows rather than one per question asked. PostgreSQL plans it as a join.
    const answerKey = this.postgres ? sql.ref('x.key') : sql`+${sql.ref('x.key')}`;
    const useProfiles = profiles && keys.length > 0;
    // With profiles: each matched application's profile looked up once (the literal predicate of
    // migration 029's partial index, one seek; an application's rows that carry one all carry the
    // same), and only the applications without one have their answer rows read. Without: every
    // matched application's answer rows.
    const withProfiles = useProfiles
      ? sql`, profiled as materialized (select matched.id, (select p.profile_id from application_answers as p where p.application_id = matched.id and p.profile_id is not null limit 1) as profile_id from matched)`
      : sql``;
    const answering = useProfiles
      ? sql`profiled as m cross join application_answers as x where m.profile_id is null and`
      : sql`matched as m cross join application_answers as x where`;
    const read = async (keysChunk: string[], choiceChunk: string[], first: boolean) => {
      const arms = [
        ...(first
          ? [
              sql`select 'matched' as kind, '' as key, '' as value, count(*) as n from matched`,
              ...platforms.map(
                (name) => sql`select 'platform' as kind, ${name} as key, '' as value, count(*) as n from matched where platform_names like ${`%,${name},%`}`,
              ),
              ...(useProfiles
                ? [
                    sql`select 'profile' as kind, '' as key, profiles.profile as value, found.n as n
                      from (select profile_id, count(*) as n from profiled where profile_id is not null group by profile_id) as found
                      join answer_profiles as profiles on profiles.id = found.profile_id`,
                  ]
                : []),
            ]
          : []),
        ...(keysChunk.length === 0
          ? []
          : [
              sql`select 'answered' as kind, x.key as key, '' as value, count(distinct x.application_id) as n from ${answering} x.application_id = m.id and ${answerKey} in (${sql.join(keysChunk)}) group by x.key`,
            ]),
        ...(choiceChunk.length === 0
          ? []
          : [
              sql`select 'answer' as kind, x.key as key, x.value as value, count(*) as n from ${answering} x.application_id = m.id and ${answerKey} in (${sql.join(choiceChunk)}) group by x.key, x.value`,
            ]),
      ];
      if (arms.length === 0) return [];
      // Every arm names its columns: a statement's rows take the names of its first.
      const { rows } = await sql<{
        kind: string;
        key: string;
        value: string;
        n: Count;
      }>`with matched as materialized ${ids}${withProfiles} ${sql.join(arms, sql` union all `)}`.execute(this.db);
      return rows;
    };
    const rows: { kind: string; key: string; value: string; n: Count }[] = [];
    for (let start = 0, first = true; first || start < keys.length || start < choiceKeys.length; start += KEYS_PER_STATEMENT, first = false) {
      rows.push(...(await read(keys.slice(start, start + KEYS_PER_STATEMENT), choiceKeys.slice(start, start + KEYS_PER_STATEMENT), first)));
    }
    const answered = rows.filter((row) => row.kind === 'answered');
    const values = rows.filter((row) => row.kind === 'answer');
    if (useProfiles) {
      const asked = new Set(keys);
      const choices = new Set(choiceKeys);
      for (const row of rows) {
        if (row.kind !== 'profile') continue;
        const profile = readAnswerProfile(row.value);
        if (!profile) return this.counted(filter, platforms, keys, choiceKeys, false);
        for (const [key, held] of profile.answers) {
          if (!asked.has(key)) continue;
          answered.push({ kind: 'answered', key, value: '', n: row.n });
          if (!choices.has(key)) continue;
          if (held === null) return this.counted(filter, platforms, keys, choiceKeys, false);
          for (const value of held) values.push({ kind: 'answer', key, value, n: row.n });
        }
      }
    }
    return [
      rows.find((row) => row.kind === 'matched'),
      rows.filter((row) => row.kind === 'platform').map((row) => ({ platform: row.key, n: row.n })),
      answered,
      values,
    ];
  }

  /** PostgreSQL rather than SQLite: the one place the two spell a query differently. */
  private get postgres(): boolean {
    return this.db.getExecutor().adapter instanceof PostgresAdapter;
  }
}
