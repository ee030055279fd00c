import type BetterSqlite3 from 'better-sqlite3';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type LogEvent,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import type pg from 'pg';
import { isStoreUnavailable } from './errors';
import { migrationProvider, migrationsPending } from './migrations';
import { createPostgresPool } from './postgres-pool';
import type { Database } from './schema';
import type { ExportLocation } from './inbox-rows';
import { openDurableDatabase, openReadOnlyDatabase } from './sqlite-file';

/** Where the store lives, read from `DATABASE_URL` by {@link parseDatabaseUrl}. */
export type DatabaseLocation = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

/**
 * Reads a `DATABASE_URL` (requirements §12): `postgres://…` or `postgresql://…` for PostgreSQL;
 * `sqlite:<file path>`, `sqlite://<file path>` or a plain file path for SQLite (`:memory:` for
 * a database that lives as long as the process).
 * @throws Error `DATABASE_URL: …` naming what was given, for an empty path or another scheme
 *   (`mysql://…` must not become a file called `mysql:`).
 */
export function parseDatabaseUrl(databaseUrl: string): DatabaseLocation {
  if (isPostgresUrl(databaseUrl)) return { dialect: 'postgres', url: databaseUrl };
  const expected = `DATABASE_URL: expected sqlite:<file path> or postgres://… (got ${JSON.stringify(databaseUrl)})`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(databaseUrl) && !/^sqlite:\/\//i.test(databaseUrl)) throw new Error(expected);
  const file = databaseUrl.replace(/^sqlite:(?:\/\/)?/i, '');
  if (!file) throw new Error(expected);
  return { dialect: 'sqlite', file };
}

/** True for a PostgreSQL `DATABASE_URL`. */
export function isPostgresUrl(databaseUrl: string): boolean {
  return /^postgres(?:ql)?:\/\//.test(databaseUrl);
}

/**
 * Kysely's `log` option calling `onQuery` with every statement run and its parameters (tests:
 * query plans); none without `onQuery`.
 */
export function queryLog(onQuery: ((sql: string, parameters: readonly unknown[]) => void) | undefined): { log?: (event: LogEvent) => void } {
  return onQuery ? { log: (event: LogEvent) => void (event.level === 'query' && onQuery(event.query.sql, event.query.parameters)) } : {};
}

/** How long a PostgreSQL query may go unanswered before it fails, in ms (a silent network). */
export const DEFAULT_QUERY_TIMEOUT_MS = 15_000;

/** An open database: Kysely over it, and the driver's own handle for what goes around Kysely. */
export type Connection =
  | { location: Extract<DatabaseLocation, { dialect: 'sqlite' }>; db: Kysely<Database>; sqlite: BetterSqlite3.Database; pool?: undefined }
  | { location: Extract<DatabaseLocation, { dialect: 'postgres' }>; db: Kysely<Database>; pool: pg.Pool; sqlite?: undefined };

/**
 * Opens the database at `location` and brings its schema up to date (migrations.ts).
 * SQLite: the file is created when missing (mode 0600, its directory 0700) and opened as every
 * store connection is (`openDurableDatabase`: WAL, `synchronous=FULL`). PostgreSQL: a pg pool
 * whose queries give up after `queryTimeoutMs`; migrations run on a pool of their own without
 * that timeout (an index on a large table takes what it takes).
 * @param options.queryTimeoutMs - PostgreSQL: see {@link DEFAULT_QUERY_TIMEOUT_MS}.
 * @param options.onQuery - called with every statement Kysely runs once migrated, with its parameters.
 * @throws Error `DATABASE_URL: …` when the SQLite file cannot be opened, the server cannot be
 *   reached or refuses the login, or a migration fails.
 */
export async function openConnection(
  location: DatabaseLocation,
  options: { queryTimeoutMs?: number; onQuery?: ((sql: string, parameters: readonly unknown[]) => void) | undefined } = {},
): Promise<Connection> {
  const { onQuery } = options;
  const queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  const log = queryLog(onQuery);
  let connection: Connection;
  if (location.dialect === 'postgres') {
    const pool = await createPostgresPool(location.url, { queryTimeoutMs });
    connection = { location, pool, db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...log }) };
  } else {
    const sqlite = openSqliteFile(location.file);
    connection = { location, sqlite, db: new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: preparedOnce(sqlite) }), ...log }) };
  }
  if (await migrationsPending(connection.db)) {
    const migrating =
      location.dialect === 'postgres' ? new Kysely<Database>({ dialect: new PostgresDialect({ pool: await createPostgresPool(location.url) }) }) : undefined;
    const { error } = await new Migrator({ db: migrating ?? connection.db, provider: migrationProvider }).migrateToLatest();
    await migrating?.destroy();
    if (error) {
      await connection.db.destroy();
      const reason = error instanceof Error ? error.message : String(error);
      // A server that cannot be reached, or refuses the login or the database name (SQLSTATE classes
      // 28 and 3D), is not a migration's fault: said so, the operator looks at the URL, not the schema.
      const code = String((error as { code?: unknown }).code ?? '');
      const cannotConnect = isStoreUnavailable(error) || /^(28|3D)/.test(code);
      throw new Error(`DATABASE_URL: ${cannotConnect ? 'cannot connect to the database' : 'migration failed'}: ${reason}`);
    }
  }
  return connection;
}

/**
 * Kysely's SQLite driver, its transactions begun `immediate`: each takes the database's write lock
 * as it begins, waiting for it as long as the busy timeout allows. A transaction begun deferred
 * that reads, then writes after the submit writer's connection committed, fails at once with
 * `SQLITE_BUSY_SNAPSHOT` (a 503), which no busy timeout waits out (an outside review of the inbox:
 * creating a tag or saving a view while applications were being submitted).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** Kysely's SQLite dialect with {@link ImmediateSqliteDriver}: the store's main connection. */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }
}

/**
 * What {@link preparedOnce} keeps: at most `statements` statements whose SQL texts add up to at
 * most `characters`, none longer than `longest`. A compiled statement takes about 30 bytes of
 * memory per character of its SQL (300 multi-row inserts of up to 300 rows, 1.5 million
 * characters: 44 MiB), so the texts' length bounds the memory (200 000 characters: about 6 MiB)
 * and a long statement (a multi-row insert, a long list of values) is compiled each time.
 */
export const PREPARED_STATEMENTS_KEPT = { statements: 500, characters: 200_000, longest: 4_000 } as const;

/**
 * `sqlite` as Kysely's SQLite dialect uses it, each statement's SQL compiled once: Kysely's driver
 * prepares every query it runs, and compiling a statement costs about as much as running a simple
 * one (the outbox's dispatch, the confirmation e-mail's reads, every inbox read). The statements
 * used last are kept by their SQL text within {@link PREPARED_STATEMENTS_KEPT}, the least recently
 * used dropped past it. A statement that is running (a streamed read not finished) is not handed
 * out again: that use gets one of its own. A schema change is no concern: SQLite compiles a kept
 * statement again when the schema it was compiled against changed.
 * @param kept - the bounds, {@link PREPARED_STATEMENTS_KEPT} unless told (tests).
 */
export function preparedOnce(
  sqlite: BetterSqlite3.Database,
  kept: { statements: number; characters: number; longest: number } = PREPARED_STATEMENTS_KEPT,
): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  let characters = 0;
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      const statement = statements.get(sql);
      if (statement?.busy) return sqlite.prepare(sql);
      if (statement) {
        // Used last: to the end of the map's order.
        statements.delete(sql);
        statements.set(sql, statement);
        return statement;
      }
      const compiled = sqlite.prepare(sql);
      if (sql.length > kept.longest) return compiled;
      statements.set(sql, compiled);
      characters += sql.length;
      for (const [oldest] of statements) {
        if (statements.size <= kept.statements && characters <= kept.characters) break;
        statements.delete(oldest);
        characters -= oldest.length;
      }
      return compiled;
    },
  };
}

/**
 * Opens (creating when missing) a SQLite file as the store's main connection.
 * @throws Error `DATABASE_URL: cannot open the SQLite file …`.
 */
function openSqliteFile(file: string): BetterSqlite3.Database {
  try {
    if (file !== ':memory:' && !existsSync(file)) {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      // A file the server creates holds applicants' data and its secret: readable by its owner only
      // (an empty file is an empty database; SQLite gives its -wal and -shm files the same mode).
      // An existing file keeps the mode its operator chose.
      closeSync(openSync(file, 'wx', 0o600));
    }
    return openDurableDatabase(file);
  } catch (error) {
    throw new Error(`DATABASE_URL: cannot open the SQLite file ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A connection that only reads (see {@link openReadOnlyConnection}). */
export type ReadOnlyConnection =
  | { db: Kysely<Database>; sqlite: BetterSqlite3.Database; pool?: undefined; close: () => Promise<void> }
  | { db: Kysely<Database>; pool: pg.Pool; sqlite?: undefined; close: () => Promise<void> };

/**
 * Opens a migrated database to read from another thread (the CSV export's;
 * docs/decisions/014): a SQLite file read-only, or a PostgreSQL pool of one connection. It never
 * migrates: the server did, before it served. PostgreSQL's query timeout is left to the caller's
 * reader (applied per page: pg's `query_timeout` kept every page's rows alive long enough to be
 * promoted, export-readers.ts).
 * @throws the driver's error when the file or the server cannot be opened.
 */
export async function openReadOnlyConnection(location: ExportLocation): Promise<ReadOnlyConnection> {
  if (location.dialect === 'sqlite') {
    const sqlite = openReadOnlyDatabase(location.file);
    return { sqlite, db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }), close: async () => void sqlite.close() };
  }
  const pool = await createPostgresPool(location.url, { max: 1 });
  return { pool, db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), close: () => pool.end() };
}
