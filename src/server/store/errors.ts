/**
 * Errors that mean the store cannot be reached or cannot take writes right now — as opposed to a
 * fault of the request or a bug. The routes answer them with 503 and `Retry-After` (requirements §13),
 * and the server recovers by itself when the store is back.
 */

/** Node's socket errors and PostgreSQL SQLSTATEs of a server that is down, restarting or full. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections,
  // insufficient_resources, disk_full, out_of_memory, read_only_sql_transaction (a standby),
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '53000',
  '53100',
  '53200',
  '25006',
  // query_canceled: a statement ran past the store's statement_timeout (postgres-pool.ts).
  '57014',
]);

/** SQLite result codes (better-sqlite3's `code`, extended codes included) of a file that cannot be written now. */
const SQLITE_UNAVAILABLE = /^SQLITE_(?:BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|PROTOCOL)/;

/**
 * node-postgres raises these without a code when the connection goes away, never comes, or goes
 * silent (`query_timeout`); Kysely raises the last once the store has closed (a request still in
 * flight as the server shuts down: 503, another process or the restarted one takes the retry).
 */
const CONNECTION_LOST_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused|Query read timeout|driver has already been destroyed/i;

/**
 * True when `error` says the store is unreachable or refusing writes (socket errors, PostgreSQL
 * SQLSTATE class 08 and the codes above, SQLite busy/IO/full), looking through `cause` and an
 * `AggregateError`'s errors.
 */
export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08') || SQLITE_UNAVAILABLE.test(code))) return true;
  if (typeof message === 'string' && CONNECTION_LOST_MESSAGE.test(message)) return true;
  if (Array.isArray(errors) && errors.some((inner) => isStoreUnavailable(inner, depth + 1))) return true;
  return isStoreUnavailable(cause, depth + 1);
}

/**
 * True when PostgreSQL refused a value of the request (SQLSTATE class 22, data exception: an
 * invalid byte sequence, a string too long, a malformed number) — the request's fault, not the
 * store's. Submissions never get here (their schema refuses such values first).
 */
export function isStoreDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

/**
 * True when a statement ran past the store's time limit and was stopped (PostgreSQL's
 * `statement_timeout`, SQLSTATE 57014; a SQLite reader thread stopped for its time,
 * sqlite-reader.ts): the store is there, the request asked too much of it. One kind of
 * {@link isStoreUnavailable}, answered with its own words.
 */
export function isStatementTimeout(error: unknown): boolean {
  const { code, statementTimeout } = (error ?? {}) as { code?: unknown; statementTimeout?: unknown };
  return code === '57014' || statementTimeout === true;
}
