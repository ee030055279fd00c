import { PostgresAdapter, sql, type ExpressionBuilder, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { splitAnswerTerm, type ApplicationFilter, type ApplicationSort, type SortDirection } from '../../shared/admin';
import { profileHolds, readAnswerProfile } from './answer-index';
import { MAX_ANSWER_ROW_LENGTH } from './indexed-columns';
import type { Database } from './schema';
import { ofPages, talliesServe, uncountedQuestions } from './tallies';

/**
 * The inbox's filters as SQL (requirements §17; docs/decisions/020): how an `ApplicationFilter`
 * narrows a query of the applications (`matching`), how each of its terms is best found on each
 * store (`planFor`, `countPlan`: a common answer or text row by row, a rare one from its index),
 * and the counts and answer profiles read from the answer rows instead of the applications. Read
 * by the applications' repository (lists, counts, neighbours, exports) and by the summary
 * (summary.ts), so every view of a filter agrees. Reads only.
 */

/** How a list is ordered: the sort and its direction (default received, newest first). */
export interface ListOrder {
  sort: ApplicationSort;
  dir: SortDirection;
}

/**
 * How {@link ApplicationFilters.matching} finds rows: by default, the search's text and the
 * answers through their indexes (an `in (…)` set); `scanText`, the text row by row (SQLite's
 * search box with `like`, `contains` by a probe of the row's answers); `probeAnswers`, each
 * answer filter by an `exists` probe per row. Row by row is faster
 * when the rows are read in the list's order and the match is common (the page fills within a
 * few hundred rows), and what an export, reading page after page in that order, wants (no sort
 * per page).
 */
export interface MatchPlan {
  scanText?: boolean;
  probeAnswers?: boolean;
  /** SQLite: per `contains` term (in the filter's order), the applications whose answer rows hold it, when they are few. */
  containsIds?: (string[] | undefined)[];
  /**
   * The answer filters as one set driven from this question's rows, each other question an
   * `exists` probe of the same application's rows: a count reads the applications of that set
   * only (its fewest, from the tallies), where one set per question had the store read them all.
   */
  answersFrom?: string;
  /**
   * SQLite: the country filter checked on each row (`+country_code`) rather than read from its
   * index, for a list sorted by a column of its own whose country is common: the sort's index is
   * walked and stops after a page, where the country's index gave every row of the country to sort.
   */
  scanCountry?: boolean;
}

/** Matches from which an answer or a text counts as common ({@link MatchPlan}): 2 % of 100 000 applications. */
const COMMON_MATCHES = 2000;

/** `text` as one FTS5 phrase (its double quotes doubled): with the trigram tokenizer, the rows holding it. */
const ftsPhrase = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** A filter's answer filters by question: the values given for one key are alternatives. */
export function answerChoices(filter: Pick<ApplicationFilter, 'answer'>): Map<string, string[]> {
  const choices = new Map<string, string[]>();
  for (const term of filter.answer ?? []) {
    const { key, value } = splitAnswerTerm(term)!;
    choices.set(key, [...(choices.get(key) ?? []), value]);
  }
  return choices;
}

/** Newest first: the list's and the export's order unless a sort is chosen. */
export const NEWEST_FIRST: ListOrder = { sort: 'received', dir: 'desc' };

/**
 * The column each sort orders by before `(received_at, id)`; each has an index ending in those
 * two (migration 007), so a sorted page walks an index and stops, filter or not.
 */
export const SORT_COLUMNS = {
  received: undefined,
  name: 'sort_name',
  country: 'country_code',
  followers: 'total_followers',
  topPlatform: 'top_followers',
} as const satisfies Record<ApplicationSort, keyof Database['applications'] | undefined>;

/** `%`, `_` and `\` taken literally in a `like … escape '\'` pattern. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Exclusive end of a UTC day: `2026-11-22` → `2026-11-23T00:00:00.000Z`. */
const dayEnd = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

/**
 * The one `contains` text of a filter whose matches answer profiles can count (the counts per
 * status, the summary): its question, its text, the filter's page and country (the answer rows
 * keep their application's: migration 029). Undefined when the filter has no such text, or
 * several, or a term besides a page, a status, a country, answer filters and a platform (which
 * the rows and profiles cannot tell).
 */
export function profiledText(filter: ApplicationFilter): { key: string; text: string; pageId: string | undefined; country: string | undefined } | undefined {
  const terms = new Map(
    (filter.contains ?? []).map((term) => {
      const { key, value } = splitAnswerTerm(term)!;
      return [`${key}\u0000${value.trim()}`, { key, text: value.trim() }] as const;
    }),
  );
  if (terms.size !== 1 || !talliesServe({ ...filter, contains: undefined, answer: undefined, platform: undefined, country: undefined })) return undefined;
  const { key, text } = [...terms.values()][0]!;
  return { key, text, pageId: filter.pageId || undefined, country: filter.country || undefined };
}

/**
 * The planner of the inbox's filters (see the module's comment), on the store's database `db` (its
 * kind: SQLite or PostgreSQL) and the connection its reads go through (`reads`: on a SQLite file,
 * threads of their own).
 */
export class ApplicationFilters {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly reads: Kysely<Database>,
  ) {}

  /** PostgreSQL rather than SQLite: the one place the two spell a query differently (JSON). */
  get postgres(): boolean {
    return this.db.getExecutor().adapter instanceof PostgresAdapter;
  }

  /**
   * `column` of `table` holds `text` (as typed), case aside: on PostgreSQL an answer's value by
   * `ilike` (its own case folding on both sides) and the search box's text (`search_text`, stored
   * lower-cased) by `like` on the text lower-cased as it was, both of which `pg_trgm`'s GIN index
   * serves (migration 010). On SQLite the
   * search box's text (`search_text`, stored lower-cased) through the FTS5 trigram index (a phrase
   * query: any substring of three characters or more), or row by row with `like` for a shorter
   * text and when `scan` is set; an answer's text row by row (an index-only scan of its question's
   * answers), with `like` when the text is ASCII (SQLite's `like` folds ASCII letters; `casefold`
   * too on a value holding a character past ASCII) and else with `casefold` (sqlite-file.ts:
   * JavaScript's `toLowerCase`, for every letter): as a value folded by `toLowerCase` compares.
   */
  textMatch(table: 'applications' | 'application_answers' | 'counted' | 'probe', column: 'search_text' | 'value', text: string, scan = false) {
    const ref = sql.ref(`${table}.${column}`);
    const lower = `%${likeLiteral(text.toLowerCase())}%`;
    if (this.postgres) {
      // The search box's text is stored lower-cased (indexed-columns.ts): `like` on the text
      // lower-cased alike, which the trigram index serves as it serves `ilike`, without lower-casing
      // every candidate row again (a common name's 10 000 rows: 23 → 16 ms).
      return column === 'search_text' ? sql<boolean>`${ref} like ${lower} escape '\\'` : sql<boolean>`${ref} ilike ${`%${likeLiteral(text)}%`} escape '\\'`;
    }
    // An ASCII text: `like` on the value, and `casefold` on a value past ASCII only, where a letter
    // may lower-case to ASCII (the Kelvin sign to "k", "İ" to "i̇"), as the answer's folded copy
    // does ({@link foldedMatch}).
    if (column === 'value')
      return !/[^\p{ASCII}]/u.test(text)
        ? sql<boolean>`(${ref} like ${lower} escape '\\' or (octet_length(${ref}) > length(${ref}) and casefold(${ref}) like ${lower} escape '\\'))`
        : sql<boolean>`casefold(${ref}) like ${lower} escape '\\'`;
    if (scan || [...text].length < 3) return sql<boolean>`${ref} like ${lower} escape '\\'`;
    return sql<boolean>`${sql.ref(`${table}.rowid`)} in (select rowid from applications_search where applications_search match ${ftsPhrase(text)})`;
  }

  /**
   * The answer row `alias` holds `text` as {@link textMatch} matches its value, read from its
   * `folded` value (a row not counted per value, lower-cased when written: migration 029), so that
   * no value is folded as it is read: PostgreSQL's `ilike` is `lower` of both sides then `like`.
   */
  foldedMatch(alias: 'counted', text: string) {
    const ref = sql.ref(`${alias}.folded`);
    return this.postgres
      ? sql<boolean>`${ref} like lower(${`%${likeLiteral(text)}%`}) escape '\\'`
      : sql<boolean>`${ref} like ${`%${likeLiteral(text.toLowerCase())}%`} escape '\\'`;
  }

  /**
   * The answer `key` in `table`'s payload holds `text`, case folded as {@link textMatch} folds an
   * answer row: for a text past the 200 characters an answer row keeps (MAX_ANSWER_ROW_LENGTH).
   */
  payloadHolds(table: 'applications' | 'whole', key: string, text: string) {
    return this.postgres
      ? sql<boolean>`(${sql.ref(`${table}.payload`)}::json -> 'fields' ->> ${key}) ilike ${`%${likeLiteral(text)}%`} escape '\\'`
      : sql<boolean>`casefold(json_extract(${sql.ref(`${table}.payload`)}, ${`$.fields."${key}"`})) like ${`%${likeLiteral(text.toLowerCase())}%`} escape '\\'`;
  }

  /**
   * The answer profiles (answer-index.ts) of the applications whose answer to `key` holds `text`
   * (as `contains=key:text` matches it: case aside, anywhere in the answer, the rest of an answer
   * longer than its row keeps read in the payload), within page `pageId`, status `status` and
   * country `country` when given, grouped: each profile with how many of those applications have
   * it. Only rows not counted per value carry a profile, one per application (its whole answer): the caller makes
   * sure every row of `key` in that scope is such a row (no `answer` tally of `key` there).
   * Read from the partial index of those rows (`application_answers_untallied`, migrations 016
   * and 029: each entry a profile's number and the answer folded as written, {@link foldedMatch})
   * alone, in profile order (grouped as read, no sort), then the few profiles' texts by number:
   * no application's other answers are read (the summary under a `contains` filter).
   * @returns the profiles with their applications' status and how many have both, a pair possibly
   *   twice (added up by the caller).
   */
  async profilesHolding(
    key: string,
    text: string,
    pageId?: string,
    status?: string,
    country?: string,
  ): Promise<{ profile: string; status: string; n: number | string | bigint }[]> {
    const scope = sql.join(
      [
        sql`counted.tallied = 0`,
        sql`counted.profile_id is not null`,
        sql`counted.key = ${key}`,
        ...(pageId ? [sql`counted.page_id = ${pageId}`] : []),
        ...(status ? [sql`counted.status = ${status}`] : []),
        ...(country ? [sql`counted.country_code = ${country}`] : []),
      ],
      sql` and `,
    );
    const holds = this.foldedMatch('counted', text);
    // The answers longer than a row keeps whose row does not hold the text: read from the partial
    // index of those (a few), their payload then read for the rest of the answer.
    const cut = this.fenced(
      this.reads
        .selectFrom('application_answers')
        .select('application_id')
        .where('key', '=', key)
        .where(sql<boolean>`length(value) >= ${sql.lit(MAX_ANSWER_ROW_LENGTH)}`),
    );
    // Grouped in the index's order (profile's number, then status): no sort; then each group's profile read by its number.
    const { rows } = await sql<{
      profile: string;
      status: string;
      n: number | string | bigint;
    }>`select profiles.profile as profile, found.status as status, found.n as n from (
      select counted.profile_id as profile_id, counted.status as status, count(*) as n from application_answers as counted
        where ${scope} and ${holds} group by counted.profile_id, counted.status
      union all
      select counted.profile_id as profile_id, counted.status as status, count(*) as n from ${cut} as cut
        join application_answers as counted on counted.application_id = cut.application_id
        join applications as whole on whole.id = cut.application_id
        where ${scope} and length(counted.value) >= ${sql.lit(MAX_ANSWER_ROW_LENGTH)} and not (${holds}) and ${this.payloadHolds('whole', key, text)}
        group by counted.profile_id, counted.status
    ) as found join answer_profiles as profiles on profiles.id = found.profile_id`.execute(this.reads);
    return rows;
  }

  /**
   * `query` as PostgreSQL's planner must take it: `offset 0` keeps it from folding a subquery into
   * the query around it (an `exists` probe into a join of every match, a set of rows into a read
   * of every payload), where the estimate behind that choice is wrong. SQLite: as it is.
   */
  fenced<Q extends { offset(offset: number): Q }>(query: Q): Q {
    return this.postgres ? query.offset(0) : query;
  }

  /**
   * `query` narrowed to the applications `filter` matches: the list's filter, also read by the
   * counts and by the summary's aggregates (store/summary.ts), so every view of a filter agrees.
   * `plan` chooses, on SQLite, how the search and the answers are matched ({@link MatchPlan}).
   */
  matching<O>(query: SelectQueryBuilder<Database, 'applications', O>, filter: ApplicationFilter, plan: MatchPlan = {}) {
    // `page_id || ''` keeps the planner off the (page_id, idempotency_key) index: with it, SQLite
    // read every row of the page and sorted them for each page of a list or export (0.15 s a page
    // at 100 000 applications), where walking the (received_at, id) index stops after a
    // page. A server serves one page configuration, so its filter matches most rows.
    if (filter.pageId) query = query.where(sql<string>`${sql.ref('page_id')} || ''`, '=', filter.pageId);
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.country) query = query.where(plan.scanCountry ? sql<string>`+${sql.ref('country_code')}` : sql.ref<string>('country_code'), '=', filter.country);
    if (filter.platform) query = query.where('platform_names', 'like', `%,${filter.platform},%`);
    if (filter.from) query = query.where('received_at', '>=', `${filter.from}T00:00:00.000Z`);
    if (filter.to) query = query.where('received_at', '<', dayEnd(filter.to));
    const q = filter.q?.trim().toLowerCase();
    if (q) query = query.where(this.textMatch('applications', 'search_text', q, plan.scanText));
    // Answer filters: the values given for one key are alternatives, the keys all hold.
    const choices = answerChoices(filter);
    const driver = plan.answersFrom === undefined ? undefined : choices.get(plan.answersFrom);
    if (driver) {
      const probes = [...choices].filter(([key]) => key !== plan.answersFrom);
      query = query.where('id', 'in', (eb) =>
        this.fenced(
          eb
            .selectFrom('application_answers as driver')
            .select('driver.application_id')
            .where('driver.key', '=', plan.answersFrom!)
            .where('driver.value', 'in', driver)
            .where((probe) =>
              probe.and(
                probes.map(([key, values]) =>
                  probe.exists(
                    probe
                      .selectFrom('application_answers as probe')
                      .select('probe.key')
                      .where('probe.key', '=', key)
                      .where('probe.value', 'in', values)
                      .whereRef('probe.application_id', '=', 'driver.application_id'),
                  ),
                ),
              ),
            ),
        ),
      );
      choices.clear();
    }
    for (const [key, values] of choices) {
      query = plan.probeAnswers
        ? query.where((eb) =>
            eb.exists(
              this.fenced(
                eb
                  .selectFrom('application_answers as probe')
                  .select('probe.key')
                  .where('probe.key', '=', key)
                  .where('probe.value', 'in', values)
                  .whereRef('probe.application_id', '=', 'applications.id'),
              ),
            ),
          )
        : query.where('id', 'in', (eb) => eb.selectFrom('application_answers').select('application_id').where('key', '=', key).where('value', 'in', values));
    }
    for (const [index, term] of (filter.contains ?? []).entries()) {
      const { key, value } = splitAnswerTerm(term)!;
      const text = value.trim();
      // A free text's answer row; or, for a text longer than its row keeps (MAX_ANSWER_ROW_LENGTH),
      // the rest of it in the payload, case folded as textMatch folds it.
      const inPayload = (table: 'applications' | 'whole') => this.payloadHolds(table, key, text);
      const cut = sql<boolean>`length(value) >= ${sql.lit(MAX_ANSWER_ROW_LENGTH)}`;
      const found = plan.containsIds?.[index];
      const longAnswers = (eb: ExpressionBuilder<Database, 'applications'>) =>
        eb
          // A fence: PostgreSQL would otherwise guess the payload's pattern rare and read every payload first.
          .selectFrom(this.fenced(eb.selectFrom('application_answers').select('application_id').where('key', '=', key).where(cut)).as('cut'))
          .innerJoin('applications as whole', 'whole.id', 'cut.application_id')
          .select('cut.application_id')
          .where(inPayload('whole'));
      query = found
        ? // The answer rows holding it, found while planning (a few), and the long ones (a partial index) whose payload does.
          query.where((eb) => eb.or([eb('id', 'in', found), eb('id', 'in', longAnswers(eb))]))
        : plan.scanText
          ? // Row by row: a probe of the row's own answers (the application_id index).
            query.where((eb) => {
              // The row's own answers by the application_id index: on SQLite `+key` keeps the planner
              // off the (key, value) index, which, before statistics are gathered (a store filled
              // since it opened), it took, reading every answer of the question for each row (1.2 s).
              const answerKey = this.postgres ? sql.ref('application_answers.key') : sql`+${sql.ref('application_answers.key')}`;
              const own = () =>
                eb
                  .selectFrom('application_answers')
                  .select('application_answers.key')
                  .whereRef('application_answers.application_id', '=', 'applications.id')
                  .where(answerKey, '=', key);
              return eb.or([
                eb.exists(this.fenced(own().where(this.textMatch('application_answers', 'value', text, true)))),
                eb.and([eb.exists(this.fenced(own().where(cut))), inPayload('applications')]),
              ]);
            })
          : // From the indexes: the answer rows holding the text, and the long ones whose payload does, one set the query is driven from.
            query.where('id', 'in', (eb) =>
              eb
                .selectFrom('application_answers')
                .select('application_id')
                .where('key', '=', key)
                .where(this.textMatch('application_answers', 'value', text))
                .union(longAnswers(eb)),
            );
    }
    // The applications carrying a tag (the (tag_id, application_id) index answers each probe).
    const tag = filter.tag;
    if (tag) {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('application_tags')
            .select('application_tags.tag_id')
            .where('application_tags.tag_id', '=', tag)
            .whereRef('application_tags.application_id', '=', 'applications.id'),
        ),
      );
    }
    return query;
  }

  /**
   * How a page of `filter`'s list is best found ({@link MatchPlan}). A store that gathers every
   * match of an answer or a text before sorting them is fast for a rare one and slow for one a
   * quarter of the rows share, which reading rows in the list's order finds within a few hundred:
   * SQLite drives a query from an `in (…)` set whatever its size, and PostgreSQL's planner,
   * misjudging how many rows share an answer, joins them all before the sort. So each answer
   * filter and `contains` text (and on SQLite the search box's) is first counted up to
   * {@link COMMON_MATCHES} on its index (a ms or two), and the common ones are matched row by row.
   * PostgreSQL's planner serves the search box well as it is. On SQLite a list sorted by a
   * column of its own (name, followers, largest platform) within a common country walks the sort's
   * index ({@link MatchPlan.scanCountry}: the country's index ends with the time received only).
   */
  async planFor(filter: ApplicationFilter, order: ListOrder = NEWEST_FIRST): Promise<MatchPlan> {
    const common = async (matches: RawBuilder<unknown>) =>
      Number((await sql<{ n: number }>`select count(*) as n from (${matches} limit ${COMMON_MATCHES}) as found`.execute(this.reads)).rows[0]!.n) >=
      COMMON_MATCHES;
    const scanCountry =
      !this.postgres &&
      Boolean(filter.country) &&
      SORT_COLUMNS[order.sort] !== undefined &&
      order.sort !== 'country' &&
      (await common(sql`select 1 from applications where country_code = ${filter.country}`));
    const contains = (filter.contains ?? []).map((term) => {
      const { key, value } = splitAnswerTerm(term)!;
      return { key, text: value.trim() };
    });
    const q = filter.q?.trim().toLowerCase();
    // The search box on SQLite: common when its FTS5 index finds COMMON_MATCHES (or it is too short for the index).
    const searchIsCommon =
      !q || this.postgres ? undefined : [...q].length < 3 || common(sql`select 1 from applications_search where applications_search match ${ftsPhrase(q)}`);
    // A `contains` text: on PostgreSQL counted through pg_trgm; on SQLite its question's answer rows
    // read once (an index-only scan), the ids kept when they are few.
    const containsIds: (string[] | undefined)[] = [];
    const textIsCommon = async ({ key, text }: { key: string; text: string }, index: number) => {
      if (this.postgres) return common(sql`select 1 from application_answers where key = ${key} and value ilike ${`%${likeLiteral(text)}%`} escape '\\'`);
      const found = await this.reads
        .selectFrom('application_answers')
        .select('application_id')
        .where('key', '=', key)
        .where(this.textMatch('application_answers', 'value', text))
        .limit(COMMON_MATCHES)
        .execute();
      if (found.length >= COMMON_MATCHES) return true;
      containsIds[index] = found.map((row) => row.application_id);
      return false;
    };
    const [scanText, probeAnswers] = await Promise.all([
      Promise.all([...(searchIsCommon === undefined ? [] : [searchIsCommon]), ...contains.map(textIsCommon)]).then(
        (found) => found.length > 0 && found.every(Boolean),
      ),
      Promise.all(
        [...answerChoices(filter)].map(([key, values]) => common(sql`select 1 from application_answers where key = ${key} and value in (${sql.join(values)})`)),
      ).then((found) => found.length > 0 && found.every(Boolean)),
    ]);
    return { scanText, probeAnswers, ...(containsIds.length > 0 ? { containsIds } : {}), ...(scanCountry ? { scanCountry } : {}) };
  }

  /**
   * How a count of `filter` reads its answer filters ({@link MatchPlan.answersFrom}): from the
   * question whose chosen values the fewest applications gave (their tallies, summed over pages
   * and statuses; a few rows), the others probed per application.
   */
  async countPlan(filter: ApplicationFilter): Promise<MatchPlan> {
    const choices = answerChoices(filter);
    if (choices.size === 0) return {};
    // A question whose answers are not all counted per value (free text: tallies.ts) is read on its
    // rows (the (key, value) index), up to as many as make an answer common: the order of the
    // drivers is all this is for.
    const uncounted = await uncountedQuestions(this.reads, [...choices.keys()], filter.pageId);
    // One read per question: each seeks its key and values in the tallies' primary key, where one
    // read of them all (an `or`) read every answer tally of the page.
    const given = new Map(
      await Promise.all(
        [...choices].map(async ([key, values]) => {
          const row = await this.reads
            .selectFrom('application_tallies')
            .select((eb) => eb.fn.sum<number | string | bigint>('n').as('n'))
            .where('kind', '=', 'answer')
            .where((eb) => ofPages(eb, filter.pageId))
            .where('key', '=', key)
            .where('value', 'in', values)
            .executeTakeFirst();
          const rows = uncounted.has(key)
            ? await sql<{
                n: number | string | bigint;
              }>`select count(*) as n from (select 1 from application_answers where key = ${key} and value in (${sql.join(values)}) limit ${COMMON_MATCHES}) as found`.execute(
                this.reads,
              )
            : undefined;
          return [key, Math.max(Number(row?.n ?? 0), Number(rows?.rows[0]?.n ?? 0))] as const;
        }),
      ),
    );
    // A question no application answered so is its fewest: the set is empty at once.
    const [answersFrom] = [...choices.keys()].sort((a, b) => (given.get(a) ?? 0) - (given.get(b) ?? 0));
    const fewest = given.get(answersFrom!) ?? 0;
    // The filter's other terms (a country, a search, dates…) may match fewer applications than that
    // answer: counted up to it on their own indexes, they then drive, each answer probed per row.
    const others: ApplicationFilter = { ...filter, answer: undefined, status: undefined };
    if (fewest > 0 && !talliesServe(others)) {
      const upTo = this.matching(this.reads.selectFrom('applications').select(sql<number>`1`.as('one')), others).limit(fewest);
      const found = await this.reads
        .selectFrom(upTo.as('found'))
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
        .executeTakeFirstOrThrow();
      if (Number(found.n) < fewest) return { probeAnswers: true };
    }
    return { answersFrom };
  }

  /**
   * Whether the rows of question `key` within page `pageId` (every page when none) all carry
   * answer profiles, as the rows of a question not counted per value do: no `answer` tally of it
   * there (a choice question's rows, and rows written before migration 016, have one and no
   * profile). Then {@link profilesHolding} finds every application whose answer holds a text.
   */
  async profiled(key: string, pageId?: string, status?: string): Promise<boolean> {
    const counted = await this.reads
      .selectFrom('application_tallies')
      .select('key')
      .where('kind', '=', 'answer')
      .where((eb) => ofPages(eb, pageId))
      .where('key', '=', key)
      .$if(Boolean(status), (query) => query.where('status', '=', status!))
      .limit(1)
      .executeTakeFirst();
    return counted === undefined;
  }

  /**
   * The counts per status under one `contains` text on a question not counted per value (with a
   * page, a country, answer filters and a platform at most): from the profiles of the rows the
   * text matches ({@link profilesHolding}: one index, grouped, no application's rows read), the
   * answer and platform filters applied to the profiles. Undefined when they cannot answer (another filter,
   * rows of the question without profiles, a profile that cannot tell an answer filter).
   */
  async countedFromProfiles(filter: ApplicationFilter): Promise<{ status: string; count: number }[] | undefined> {
    const scope = profiledText(filter);
    if (!scope) return undefined;
    const { key, text, pageId, country } = scope;
    if (!(await this.profiled(key, pageId))) return undefined;
    const choices = answerChoices(filter);
    const counts = new Map<string, number>();
    for (const row of await this.profilesHolding(key, text, pageId, undefined, country)) {
      const profile = readAnswerProfile(row.profile);
      const holds = profile && profileHolds(profile, choices, filter.platform);
      if (holds === undefined) return undefined;
      if (holds) counts.set(row.status, (counts.get(row.status) ?? 0) + Number(row.n));
    }
    return [...counts].map(([status, count]) => ({ status, count }));
  }

  /**
   * The counts per status of a filter of answers and `contains` texts (and a page) only, read from
   * the answer rows, which keep their application's status (migration 011): the rows of one term
   * (the answer the fewest gave, from the tallies, else the first text), each other term probed
   * among the same application's rows. Undefined for any other filter: its applications are
   * counted. An application counts once, whichever of its rows match.
   */
  async countedFromAnswers(filter: ApplicationFilter): Promise<{ status: string; count: number | string | bigint }[] | undefined> {
    if (!talliesServe({ ...filter, answer: undefined, contains: undefined })) return undefined;
    const choices = answerChoices(filter);
    const texts = (filter.contains ?? []).map((term) => {
      const { key, value } = splitAnswerTerm(term)!;
      return { key, text: value.trim() };
    });
    if (choices.size === 0 && texts.length === 0) return undefined;
    const answerHolds = (alias: 'counted' | 'probe', key: string, values: string[]) =>
      sql<boolean>`${sql.ref(`${alias}.key`)} = ${key} and ${sql.ref(`${alias}.value`)} in (${sql.join(values)})`;
    // A text in the row, or past the 200 characters a row keeps, in the application's payload.
    const textHolds = (alias: 'counted' | 'probe', key: string, text: string) => {
      const payload = this.payloadHolds('whole', key, text);
      // On SQLite a probe's `+key` keeps the planner on the application_id index (see matching).
      const keyRef = alias === 'probe' && !this.postgres ? sql`+${sql.ref('probe.key')}` : sql.ref(`${alias}.key`);
      // The long answers of the question whose payload holds the text: a set read once from the
      // partial index of long answers (a correlated probe became, on PostgreSQL, a hashed read of
      // every payload).
      const long = sql`select cut.application_id from application_answers as cut join applications as whole on whole.id = cut.application_id
        where cut.key = ${key} and length(cut.value) >= ${sql.lit(MAX_ANSWER_ROW_LENGTH)} and ${payload}`;
      return sql<boolean>`${keyRef} = ${key} and (${this.textMatch(alias, 'value', text)} or (length(${sql.ref(`${alias}.value`)}) >= ${sql.lit(MAX_ANSWER_ROW_LENGTH)}
        and ${sql.ref(`${alias}.application_id`)} in (${long})))`;
    };
    const driver = choices.size > 0 ? (await this.countPlan({ ...filter, contains: undefined })).answersFrom! : undefined;
    const conditions: RawBuilder<boolean>[] = [];
    if (driver !== undefined) conditions.push(answerHolds('counted', driver, choices.get(driver)!));
    else conditions.push(textHolds('counted', texts[0]!.key, texts[0]!.text));
    if (filter.pageId) conditions.push(sql<boolean>`counted.page_id = ${filter.pageId}`);
    const probe = (holds: RawBuilder<boolean>) =>
      sql<boolean>`exists (select 1 from application_answers as probe where probe.application_id = counted.application_id and ${holds})`;
    for (const [key, values] of choices) if (key !== driver) conditions.push(probe(answerHolds('probe', key, values)));
    for (const [index, { key, text }] of texts.entries()) if (driver !== undefined || index > 0) conditions.push(probe(textHolds('probe', key, text)));
    // One row per application and option: several options of one question, or a text in a
    // multi-select answer's joined row and an option's, may match one application twice.
    // (A distinct set, hashed, then counted: PostgreSQL sorts for a `count(distinct …)`, 7 ms more at 25 000 rows.)
    const where = sql.join(conditions, sql` and `);
    const { rows } = await (
      driver === undefined || choices.get(driver)!.length > 1
        ? sql<{
            status: string;
            count: number | string | bigint;
          }>`select status, count(*) as count from (select distinct counted.application_id, counted.status from application_answers as counted where ${where}) as once group by status`
        : sql<{
            status: string;
            count: number | string | bigint;
          }>`select counted.status as status, count(*) as count from application_answers as counted where ${where} group by counted.status`
    ).execute(this.reads);
    return rows;
  }
}
