import type pg from 'pg';

/**
 * A pg pool for a PostgreSQL store: `max` connections (default 10), 5 s to connect,
 * `queryTimeoutMs` for a statement on the server (`statement_timeout`) and a second more for an
 * answer on the client (none when undefined), TCP keepalive; a connection that errors or
 * times out is dropped rather than crashing the process or holding later queries. The server's
 * store uses one of 10; an export's thread one of 1 (docs/decisions/014).
 * @param url - a `postgres://…` URL.
 */
export async function createPostgresPool(url: string, options: { queryTimeoutMs?: number | undefined; max?: number } = {}): Promise<pg.Pool> {
  // Loaded only for PostgreSQL: a SQLite server never pays for the driver.
  const { default: pg } = await import('pg');
  const { queryTimeoutMs } = options;
  // Several stateless server processes share one PostgreSQL (requirements §10).
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: 5000,
    // The server gives up on a statement after `queryTimeoutMs` (57014, answered 503) and frees its
    // backend; the client waits a second longer, for a server that went silent. With the client's
    // timeout alone, a statement it had given up on ran on for minutes (an attack on the inbox's
    // filters left ten backends busy after the process had exited).
    ...(queryTimeoutMs ? { statement_timeout: queryTimeoutMs, query_timeout: queryTimeoutMs + 1000 } : {}),
    // A peer that vanished without a word is found by TCP keepalive, not only by the next query.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    // Nor a client in use (PostgreSQL restarted under load killed the process): the
    // query in flight rejects with the error, and pg-pool drops the client when it comes back.
    client.on('error', () => undefined);
    // A query that timed out leaves its answer owed on the connection; the connection is ended so
    // that the pool drops it instead of handing out a client every later query would wait behind.
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const result = query(...args);
      if (result instanceof Promise) {
        result.catch((error: unknown) => {
          if (error instanceof Error && error.message === 'Query read timeout')
            (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
        });
      }
      return result;
    };
  });
  return pool;
}
