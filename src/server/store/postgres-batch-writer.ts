import type pg from 'pg';
import type { ApplicationsTable, ChildRows, Database, SavedApplication } from './schema';
import { tallyEntries } from './tallies';

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
] as const satisfies readonly (keyof ApplicationsTable)[];

/** The columns that are not text: each travels as a `bigint[]`. */
const BIGINT_COLUMNS: ReadonlySet<string> = new Set(['total_followers', 'top_followers', 'page_version'] satisfies (keyof ApplicationsTable)[]);

const HANDLE_COLUMNS = ['application_id', 'page_id', 'platform', 'handle'] as const satisfies readonly (keyof Database['application_handles'])[];
const ANSWER_COLUMNS = ['application_id', 'page_id', 'key', 'value'] as const satisfies readonly (keyof Database['application_answers'])[];
/** Per tally entry of an application (tallies.ts), with the application's id to join on. */
const TALLY_COLUMNS = ['application_id', 'page_id', 'status', 'kind', 'key', 'value'] as const;

/** `$first::text[], $first+1::text[], …` for `columns`, numbered from `first` (bigint columns as `bigint[]`). */
const arrays = (columns: readonly string[], first: number) =>
  columns.map((column, index) => `$${first + index}::${BIGINT_COLUMNS.has(column) ? 'bigint' : 'text'}[]`).join(', ');

/**
 * A whole group-commit batch in one statement: the applications, and the handles and answers of
 * those stored now (a replayed Idempotency-Key stores nothing). One statement is atomic on its own, so there is
 * no `begin`/`commit` to send: one round trip a batch instead of five. Each column travels as one
 * array (`unnest`), so the text is the same for every batch and is parsed and planned once per
 * connection (a named prepared statement), however many rows a batch holds.
 */
const BATCH = {
  name: 'submit-batch-4',
  text: `with inserted as (
    insert into applications (${COLUMNS.join(', ')})
    select * from unnest(${arrays(COLUMNS, 1)})
    on conflict (page_id, idempotency_key) do nothing
    returning id
  ), handles as (
    insert into application_handles (${HANDLE_COLUMNS.join(', ')})
    select h.application_id, h.page_id, h.platform, h.handle
    from unnest(${arrays(HANDLE_COLUMNS, COLUMNS.length + 1)})
      as h(${HANDLE_COLUMNS.join(', ')})
    join inserted on inserted.id = h.application_id
  ), answers as (
    insert into application_answers (${ANSWER_COLUMNS.join(', ')})
    select a.application_id, a.page_id, a.key, a.value
    from unnest(${arrays(ANSWER_COLUMNS, COLUMNS.length + HANDLE_COLUMNS.length + 1)})
      as a(${ANSWER_COLUMNS.join(', ')})
    join inserted on inserted.id = a.application_id
  ), tallies as (
    insert into application_tallies (page_id, status, kind, key, value, n)
    select t.page_id, t.status, t.kind, t.key, t.value, count(*)
    from unnest(${arrays(TALLY_COLUMNS, COLUMNS.length + HANDLE_COLUMNS.length + ANSWER_COLUMNS.length + 1)})
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
 * unique `(page_id, idempotency_key)` index (issue 12: the key alone read the whole index).
 * A statement of its own, so it sees a row another process committed while the batch waited on it.
 */
const FIRST_ROWS = {
  name: 'submit-first-rows-1',
  text: `select id, received_at, page_id, idempotency_key, payload from applications
    where page_id = any($1::text[]) and idempotency_key = any($2::text[])`,
};

/** The key an idempotency key is unique within: its page (the unique index's two columns). */
export const idempotencyScope = (pageId: string, key: string) => `${pageId}\u0000${key}`;

/**
 * Writes the PostgreSQL submit path's batches (issue 12: submits that stay fast at a million rows).
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
   * Stores a batch atomically.
   * @returns per row: its own id when stored now; else the first row stored under its key, with
   *   `conflict` when that row's body differs.
   * @throws the pg error when PostgreSQL refuses the batch (nothing of it is stored) or cannot be reached.
   */
  return async function write(rows: ApplicationsTable[], children: ChildRows[]): Promise<SavedApplication[]> {
    const handleRows = children.flatMap((child) => child.handles);
    const answerRows = children.flatMap((child) => child.answers);
    const tallyRows = rows.flatMap((row, index) =>
      tallyEntries(row.platform_names, children[index]!.answers).map((entry) => ({ application_id: row.id, page_id: row.page_id, status: row.status, ...entry })),
    );
    const inserted = await query<{ id: string }>(BATCH, [
      ...COLUMNS.map((column) => rows.map((row) => row[column])),
      ...HANDLE_COLUMNS.map((column) => handleRows.map((handle) => handle[column])),
      ...ANSWER_COLUMNS.map((column) => answerRows.map((answer) => answer[column])),
      ...TALLY_COLUMNS.map((column) => tallyRows.map((tally) => tally[column])),
    ]);
    const stored = new Set(inserted.rows.map((row) => row.id));
    const replays = rows.filter((row) => !stored.has(row.id));
    const first = new Map<string, { id: string; received_at: string; payload: string }>();
    if (replays.length > 0) {
      const found = await query<{ id: string; received_at: string; page_id: string; idempotency_key: string; payload: string }>(FIRST_ROWS, [
        [...new Set(replays.map((row) => row.page_id))],
        [...new Set(replays.map((row) => row.idempotency_key))],
      ]);
      for (const row of found.rows) first.set(idempotencyScope(row.page_id, row.idempotency_key), row);
    }
    return rows.map((row): SavedApplication => {
      if (stored.has(row.id)) return { id: row.id, receivedAt: row.received_at, created: true };
      // Not stored and no key: cannot happen (only the key's unique index can refuse a row quietly).
      const original = row.idempotency_key === null ? undefined : first.get(idempotencyScope(row.page_id, row.idempotency_key));
      if (!original) throw new Error('PostgreSQL stored neither the application nor a row under its Idempotency-Key');
      return {
        id: original.id,
        receivedAt: original.received_at,
        created: false,
        ...(original.payload === row.payload ? {} : { conflict: true as const }),
      };
    });
  };
}
