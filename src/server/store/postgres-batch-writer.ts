import type pg from 'pg';
import { indexedAnswers, readAnswerRows } from './answer-index';
import { SUBMITTED_EVENT } from './outbox';
import type { AnswerRow, ApplicationsTable, ChildRows, Database, SavedApplication } from './schema';
import { TallyChanges, answerTallyEntries, rowTallyEntries } from './tallies';

/** The `applications` columns in the order the batch statement sends them. */
const COLUMNS = [
  'id',
  'page_id',
  'idempotency_key',
  'email',
  'payload',
  'received_at',
  'user_agent',
  'status',
  'note',
  'first_name',
  'last_name',
  'country_code',
  'search_text',
  'platform_names',
  'phone_e164',
  'total_followers',
  'top_platform',
  'top_followers',
  'sort_name',
  'page_version',
  'consents',
] as const satisfies readonly (keyof ApplicationsTable)[];

/** The columns that are not text: each travels as a `bigint[]`. */
const BIGINT_COLUMNS: ReadonlySet<string> = new Set(['total_followers', 'top_followers', 'page_version'] satisfies (keyof ApplicationsTable)[]);

const HANDLE_COLUMNS = ['application_id', 'page_id', 'platform', 'handle'] as const satisfies readonly (keyof Database['application_handles'])[];
/** The answer rows' text columns; the follow-up sends `profile_id` and `tallied` (integers) after them. */
const ANSWER_COLUMNS = [
  'application_id',
  'page_id',
  'key',
  'value',
  'status',
  'country_code',
] as const satisfies readonly (keyof Database['application_answers'])[];
/** Per tally entry of an application (tallies.ts), with the application's id to join on. */
const TALLY_COLUMNS = ['application_id', 'page_id', 'status', 'kind', 'key', 'value'] as const;

/** `$first::text[], $first+1::text[], …` for `columns`, numbered from `first` (bigint columns as `bigint[]`). */
const arrays = (columns: readonly string[], first: number) =>
  columns.map((column, index) => `$${first + index}::${BIGINT_COLUMNS.has(column) ? 'bigint' : 'text'}[]`).join(', ');

/**
 * A whole group-commit batch in one statement: the applications, and the handles, row tallies,
 * answer-index queue entries and outbox events (`application.submitted`) of those stored now (a replayed Idempotency-Key stores nothing; the
 * answer rows follow, answer-index.ts). One statement is atomic on its own, so there is
 * no `begin`/`commit` to send: one round trip a batch instead of five. Each column travels as one
 * array (`unnest`), so the text is the same for every batch and is parsed and planned once per
 * connection (a named prepared statement), however many rows a batch holds.
 */
const BATCH = {
  name: 'submit-batch-7',
  text: `with inserted as (
    insert into applications (${COLUMNS.join(', ')})
    select * from unnest(${arrays(COLUMNS, 1)})
    on conflict (page_id, idempotency_key) do nothing
    returning id, page_id, received_at
  ), handles as (
    insert into application_handles (${HANDLE_COLUMNS.join(', ')})
    select h.application_id, h.page_id, h.platform, h.handle
    from unnest(${arrays(HANDLE_COLUMNS, COLUMNS.length + 1)})
      as h(${HANDLE_COLUMNS.join(', ')})
    join inserted on inserted.id = h.application_id
  ), queued as (
    insert into application_index_queue (application_id) select id from inserted
  ), events as (
    -- The outbox (outbox.ts): the event in the application's own statement, so one commits with the other.
    insert into outbox_events (event_id, type, occurred_at, page_id, application_id, data)
    select 'msg_' || replace(gen_random_uuid()::text, '-', ''), '${SUBMITTED_EVENT.type}', received_at, page_id, id, '${SUBMITTED_EVENT.data}' from inserted
  ), tallies as (
    insert into application_tallies (page_id, status, kind, key, value, n)
    select t.page_id, t.status, t.kind, t.key, t.value, count(*)
    from unnest(${arrays(TALLY_COLUMNS, COLUMNS.length + HANDLE_COLUMNS.length + 1)})
      as t(${TALLY_COLUMNS.join(', ')})
    join inserted on inserted.id = t.application_id
    group by t.page_id, t.status, t.kind, t.key, t.value
    -- The tallies' rows locked in their key's order, as every other writer takes them: two
    -- transactions never wait on each other in a cycle.
    order by t.page_id collate "C", t.status collate "C", t.kind collate "C", t.key collate "C", t.value collate "C"
    on conflict (kind, page_id, key, value, status) do update set n = application_tallies.n + excluded.n
  )
  select id from inserted`,
};

/**
 * The first rows stored under the batch's keys that were not stored now: both columns of the
 * unique `(page_id, idempotency_key)` index (the key alone read the whole index).
 * A statement of its own, so it sees a row another process committed while the batch waited on it.
 */
const FIRST_ROWS = {
  name: 'submit-first-rows-1',
  text: `select id, received_at, page_id, idempotency_key, payload from applications
    where page_id = any($1::text[]) and idempotency_key = any($2::text[])`,
};

/**
 * A slot of a page with a cap (migration 013), taken in the application's transaction:
 * the page's row lock orders the submits of every process, and each re-reads `taken` after the
 * one before commits, so the cap holds exactly. A page whose cap was removed meanwhile takes one
 * too (`taken` is counted again when a cap is set).
 */
const TAKE_SLOT = {
  name: 'submit-take-slot-1',
  text: 'update pages set taken = taken + 1 where id = $1 and (max_applications is null or taken < max_applications) returning taken, max_applications',
};
/** Gives back a slot taken for a row the batch then did not store: its key was stored meanwhile (by another process, or an earlier row of the batch). */
const GIVE_BACK_SLOT = { name: 'submit-give-back-slot-1', text: 'update pages set taken = taken - 1 where id = $1' };

/** The key an idempotency key is unique within: its page (the unique index's two columns). */
export const idempotencyScope = (pageId: string, key: string) => `${pageId}\u0000${key}`;

/**
 * Writes the PostgreSQL submit path's batches (submits that stay fast at a million rows).
 * @param onQuery - called with each statement and its parameters before it runs (tests: query plans).
 */
export function postgresBatchWriter(pool: pg.Pool, onQuery?: (sql: string, parameters: readonly unknown[]) => void) {
  const query = async <R extends pg.QueryResultRow>(statement: { name: string; text: string }, values: unknown[]) => {
    onQuery?.(statement.text, values);
    // A client of its own, as Kysely takes them: the pool's time-out handling wraps its promise queries.
    const client = await pool.connect();
    try {
      return await client.query<R>({ ...statement, values });
    } finally {
      client.release();
    }
  };
  /**
   * Runs `work` in one transaction on a client of its own: committed when it resolves, rolled
   * back when it throws (and the error thrown again). `run` sends a named statement, reported to `onQuery`.
   */
  const inTransaction = async <T>(
    work: (
      run: <R extends pg.QueryResultRow>(statement: { name: string; text: string }, values: unknown[]) => Promise<pg.QueryResult<R>>,
      client: pg.PoolClient,
    ) => Promise<T>,
  ): Promise<T> => {
    const client = await pool.connect();
    try {
      const run = <R extends pg.QueryResultRow>(statement: { name: string; text: string }, values: unknown[]) => {
        onQuery?.(statement.text, values);
        return client.query<R>({ ...statement, values });
      };
      await client.query('begin');
      try {
        const result = await work(run, client);
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      }
    } finally {
      client.release();
    }
  };
  /** The batch statement's parameters for `rows`. */
  const batchValues = (rows: ApplicationsTable[], children: ChildRows[]) => {
    const handleRows = children.flatMap((child) => child.handles);
    const tallyRows = rows.flatMap((row) =>
      rowTallyEntries(row.platform_names).map((entry) => ({ application_id: row.id, page_id: row.page_id, status: row.status, ...entry })),
    );
    return [
      ...COLUMNS.map((column) => rows.map((row) => row[column])),
      ...HANDLE_COLUMNS.map((column) => handleRows.map((handle) => handle[column])),
      ...TALLY_COLUMNS.map((column) => tallyRows.map((tally) => tally[column])),
    ];
  };
  /**
   * The answer rows of the applications this process stored and has not indexed yet, by id (the
   * follow-up writes them as the submit made them; one another process queued is read from its payload).
   */
  const unindexed = new Map<string, AnswerRow[]>();
  /**
   * A batch with rows that need a slot of their page ({@link ChildRows.slot}): one transaction
   * takes the slots (in page order, as every process takes them), stores the rows that got one
   * and those that need none, and gives back the slots of rows not stored (a key stored meanwhile).
   * @returns the ids stored now, and per row needing one, its page's `taken` and cap (none: no slot left).
   */
  const writeWithSlots = (rows: ApplicationsTable[], children: ChildRows[]) =>
    inTransaction(async (run) => {
      const slots = new Map<number, { taken: number; max: number | null }>();
      const needing = rows
        .flatMap((row, index) => (children[index]!.slot ? [index] : []))
        .sort((a, b) => (rows[a]!.page_id < rows[b]!.page_id ? -1 : rows[a]!.page_id > rows[b]!.page_id ? 1 : a - b));
      for (const index of needing) {
        const { rows: taken } = await run<{ taken: number; max_applications: number | null }>(TAKE_SLOT, [rows[index]!.page_id]);
        if (taken[0]) slots.set(index, { taken: Number(taken[0].taken), max: taken[0].max_applications === null ? null : Number(taken[0].max_applications) });
      }
      const writing = rows.flatMap((row, index) => (!children[index]!.slot || slots.has(index) ? [index] : []));
      const inserted =
        writing.length === 0
          ? []
          : (
              await run<{ id: string }>(
                BATCH,
                batchValues(
                  writing.map((i) => rows[i]!),
                  writing.map((i) => children[i]!),
                ),
              )
            ).rows;
      const stored = new Set(inserted.map((row) => row.id));
      for (const [index] of [...slots].filter(([index]) => !stored.has(rows[index]!.id))) {
        await run(GIVE_BACK_SLOT, [rows[index]!.page_id]);
        slots.delete(index);
      }
      return { stored, slots };
    });
  /** Stores a batch atomically (see `write` below). */
  const write = async (rows: ApplicationsTable[], children: ChildRows[]): Promise<SavedApplication[]> => {
    let stored: Set<string>;
    let slots: Map<number, { taken: number; max: number | null }> | undefined;
    // A page without a cap: the one statement, no transaction, nothing read or written more.
    if (!children.some((child) => child.slot)) stored = new Set((await query<{ id: string }>(BATCH, batchValues(rows, children))).rows.map((row) => row.id));
    else ({ stored, slots } = await writeWithSlots(rows, children));
    const replays = rows.filter((row) => !stored.has(row.id) && row.idempotency_key !== null);
    const first = new Map<string, { id: string; received_at: string; payload: string }>();
    if (replays.length > 0) {
      const found = await query<{ id: string; received_at: string; page_id: string; idempotency_key: string; payload: string }>(FIRST_ROWS, [
        [...new Set(replays.map((row) => row.page_id))],
        [...new Set(replays.map((row) => row.idempotency_key))],
      ]);
      for (const row of found.rows) first.set(idempotencyScope(row.page_id, row.idempotency_key), row);
    }
    return rows.map((row, index): SavedApplication => {
      if (stored.has(row.id)) {
        const slot = slots?.get(index);
        return { id: row.id, receivedAt: row.received_at, created: true, ...(slot ? { taken: slot } : {}) };
      }
      const original = row.idempotency_key === null ? undefined : first.get(idempotencyScope(row.page_id, row.idempotency_key));
      // A replay answers as the first time did, full page or not (decision 021, the fifth outside attack, F4).
      if (original) {
        return {
          id: original.id,
          receivedAt: original.received_at,
          created: false,
          ...(original.payload === row.payload ? {} : { conflict: true as const }),
        };
      }
      if (children[index]!.slot && !slots?.has(index)) return { id: '', receivedAt: '', created: false, full: true };
      // Not stored and no key: cannot happen (only the key's unique index can refuse a row quietly).
      throw new Error('PostgreSQL stored neither the application nor a row under its Idempotency-Key');
    });
  };
  return {
    /**
     * Stores a batch atomically. Rows needing a slot of their page that got none are not stored.
     * @returns per row: its own id when stored now; else the first row stored under its key, with
     *   `conflict` when that row's body differs; else (no slot left, no such key) `full`.
     * @throws the pg error when PostgreSQL refuses the batch (nothing of it is stored) or cannot be reached.
     */
    async write(rows: ApplicationsTable[], children: ChildRows[]): Promise<SavedApplication[]> {
      const saved = await write(rows, children);
      saved.forEach((result, index) => {
        if (result.created) unindexed.set(result.id, children[index]!.answers);
      });
      return saved;
    },
    /**
     * The answer index's follow-up (answer-index.ts): takes up to `limit` queued applications no
     * other process is indexing (`for update skip locked`: each is indexed by one process), locks
     * their rows (a decision on one waits, and one decided meanwhile is read with its new status),
     * writes their answer rows (each counted per value or not, as their page's `tallied_questions`
     * say: tallies.ts) and answer tallies, and removes them from the queue, in one
     * transaction that does not wait for its WAL flush (derived rows; a crash loses them with their
     * queue removal, and the next run writes them again).
     * @returns how many queued applications it took; when it took this process's own, how many of
     *   those it dealt with (taken, or found taken by another process or erased).
     * @throws the pg error (the transaction rolls back; they stay queued).
     */
    async index(limit: number): Promise<number> {
      // This process's own first, by key (a queue's head read through its dead index entries took
      // 0.4 s a run on a database copied with a million of them); else the queue's head: what a
      // process that ended left.
      const own = [...unindexed.keys()].slice(0, limit);
      const ids = await inTransaction(async (run, client) => {
        await client.query('set local synchronous_commit = off');
        const { rows: taken } =
          own.length > 0 ? await run<{ application_id: string }>(TAKE_OWN, [own]) : await run<{ application_id: string }>(TAKE_QUEUED, [limit]);
        const ids = taken.map((row) => row.application_id);
        if (ids.length === 0) return ids;
        const { rows: stored } = await run<{
          id: string;
          page_id: string;
          status: string;
          platform_names: string;
          country_code: string;
          payload: string | null;
        }>(LOCK_QUEUED, [ids, ids.filter((id) => !unindexed.has(id))]);
        // The questions their pages offer as choices now (migration 016): only their answers are counted per value.
        const { rows: questions } = await run<{ page_id: string; key: string }>(TALLIED_QUESTIONS, [[...new Set(stored.map((row) => row.page_id))]]);
        const talliedOf = new Map<string, Set<string>>();
        for (const question of questions) talliedOf.set(question.page_id, (talliedOf.get(question.page_id) ?? new Set()).add(question.key));
        const answers: (AnswerRow & { status: string; country_code: string; tallied: number; profile: string | null })[] = [];
        const tallies = new TallyChanges();
        for (const row of stored) {
          const rows = indexedAnswers(
            unindexed.get(row.id) ?? readAnswerRows(row.id, row.page_id, row.payload ?? undefined),
            talliedOf.get(row.page_id),
            row.platform_names,
          );
          for (const answer of rows) answers.push({ ...answer, status: row.status, country_code: row.country_code });
          tallies.add(row.page_id, row.status, answerTallyEntries(rows), 1);
        }
        const changes = tallies.rows();
        const profileIds = await numberedProfiles(
          run,
          answers.flatMap((answer) => (answer.profile === null ? [] : [answer.profile])),
        );
        await run(INDEX_ROWS, [
          ...ANSWER_COLUMNS.map((column) => answers.map((answer) => answer[column])),
          answers.map((answer) => (answer.profile === null ? null : profileIds.get(answer.profile)!)),
          answers.map((answer) => answer.tallied),
          ...(['page_id', 'status', 'kind', 'key', 'value'] as const).map((column) => changes.map((change) => change[column])),
          changes.map((change) => String(change.n)),
        ]);
        return ids;
      });
      // Those of its own not taken are another process's to index now (its sweep), or erased.
      for (const id of [...own, ...ids]) unindexed.delete(id);
      // Its own are counted as dealt with, taken here or not: a slice of them that another process
      // had taken is no sign that none is left (the run's caller runs again while runs come back
      // full), as SQLite's writer counts them.
      return own.length > 0 ? own.length : ids.length;
    },
  };
}

/** The answer index's queue (answer-index.ts): up to `$1` applications no other process is indexing, taken out of it. */
const TAKE_QUEUED = {
  name: 'index-take-queued-1',
  text: `delete from application_index_queue where application_id in (
    select application_id from application_index_queue order by application_id limit $1 for update skip locked
  ) returning application_id`,
};

/** The answer index's queue: this process's own applications (`$1`) no other process is indexing, taken out of it. */
const TAKE_OWN = {
  name: 'index-take-own-1',
  text: `delete from application_index_queue where application_id in (
    select application_id from application_index_queue where application_id = any($1::text[]) for update skip locked
  ) returning application_id`,
};

/**
 * The queued applications still stored, locked in id order (as a decision's update locks them), with
 * their status now, and their payload only where this process does not hold their answers (`$2`).
 */
const LOCK_QUEUED = {
  name: 'index-lock-queued-3',
  text: `select id, page_id, status, platform_names, country_code, case when id = any($2::text[]) then payload end as payload
    from applications where id = any($1::text[]) order by id for update`,
};

/** The questions pages `$1` offer as choices (migration 016, tallies.ts). */
const TALLIED_QUESTIONS = {
  name: 'index-tallied-questions-1',
  text: 'select page_id, key from tallied_questions where page_id = any($1::text[])',
};

/**
 * The numbers of answer profiles `profiles` (answer-index.ts; migration 029), one per answer row
 * naming it: each added to `answer_profiles` when it is not there yet, its count of naming rows
 * raised (an erasure lowers it and deletes the profile at zero).
 * @returns each profile's number.
 * @throws the pg error; an Error when a profile has none after all (never: the transaction rolls back, they stay queued).
 */
async function numberedProfiles(
  run: <R extends pg.QueryResultRow>(statement: { name: string; text: string }, values: unknown[]) => Promise<pg.QueryResult<R>>,
  profiles: readonly string[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (profiles.length === 0) return ids;
  for (const row of (await run<{ id: number; profile: string }>(NAME_PROFILES, [profiles])).rows) ids.set(row.profile, row.id);
  const missing = profiles.filter((profile) => !ids.has(profile));
  if (missing.length > 0) throw new Error(`answer profiles without a number: ${missing.length}`);
  return ids;
}

/**
 * Answer profiles `$1`, one per answer row naming it: each kept once, its count of naming rows
 * raised, in code-point order (every writer locks them so, before any tally; a profile an erasure
 * is deleting meanwhile is waited for, then added again): the number of each.
 */
const NAME_PROFILES = {
  name: 'index-name-profiles-1',
  text: `insert into answer_profiles (profile, n) select p, count(*) from unnest($1::text[]) as p group by p order by p collate "C"
    on conflict (profile) do update set n = answer_profiles.n + excluded.n returning id, profile`,
};

/**
 * The answer rows of the applications indexed (on a row not counted per value, migration 029:
 * `folded`, lower-cased as `ilike` folds it, and its application's country), and their answer
 * tallies (in the tallies' key order, as every writer locks them).
 */
const INDEX_ROWS = {
  name: 'index-rows-3',
  text: `with answers as (
    insert into application_answers (application_id, page_id, key, value, status, country_code, profile_id, tallied, folded)
    select a.application_id, a.page_id, a.key, a.value, a.status, case when a.tallied = 0 then a.country_code end, a.profile_id, a.tallied,
      case when a.tallied = 0 then lower(a.value) end
    from unnest(${arrays(ANSWER_COLUMNS, 1)}, $${ANSWER_COLUMNS.length + 1}::integer[], $${ANSWER_COLUMNS.length + 2}::integer[])
      as a(${ANSWER_COLUMNS.join(', ')}, profile_id, tallied)
  )
  insert into application_tallies (page_id, status, kind, key, value, n)
  select t.page_id, t.status, t.kind, t.key, t.value, t.n
  from unnest(${arrays(['page_id', 'status', 'kind', 'key', 'value'], ANSWER_COLUMNS.length + 3)}, $${ANSWER_COLUMNS.length + 8}::bigint[])
    as t(page_id, status, kind, key, value, n)
  order by t.page_id collate "C", t.status collate "C", t.kind collate "C", t.key collate "C", t.value collate "C"
  on conflict (kind, page_id, key, value, status) do update set n = application_tallies.n + excluded.n`,
};
