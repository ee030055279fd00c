import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import type { Database } from './schema';

/** The PostgreSQL channel a page change is announced on; the payload is the page's id. */
export const PAGES_CHANNEL = 'pages_changed';

/** What a listener is told: a page changed, or notifications may have been missed (after a reconnection). */
export interface PageChangeHandlers {
  /** Page `id` changed in another process (or this one): read it again. */
  changed(id: string): void;
  /** The connection was lost and is back: anything may have changed meanwhile, read every page again. */
  missed(): void;
  /** The listening connection failed (logged; it reconnects by itself). */
  error?(error: unknown): void;
}

/** Waits before the listener connects again, in ms: doubled after each failure, from the first to the last. */
export const RECONNECT_BACKOFF_MS = { first: 100, max: 5000 } as const;

/**
 * Page changes between server processes on one PostgreSQL database (docs/decisions/021:
 * a page published through one process is served by every other within a second), with
 * PostgreSQL's own `LISTEN`/`NOTIFY` rather than a polling loop: {@link PageChanges.notify}
 * announces a committed change on {@link PAGES_CHANNEL}; {@link PageChanges.listen} keeps one
 * dedicated connection listening. SQLite has none: one process serves a SQLite file.
 */
export class PageChanges {
  /**
   * @param url - the store's `postgres://…` URL: the listener's connection is opened on it.
   * @param db - the store's Kysely (its pool) for `NOTIFY`.
   */
  constructor(
    private readonly url: string,
    private readonly db: Kysely<Database>,
  ) {}

  /**
   * Announces that page `id` changed: `select pg_notify('pages_changed', id)`, on a connection of
   * the store's pool outside any transaction, so call it after the change committed (PostgreSQL
   * delivers a notification at its transaction's commit; here the statement is its own).
   * @throws the store's error when the database cannot be reached (the change itself is stored).
   */
  async notify(id: string): Promise<void> {
    await sql`select pg_notify(${PAGES_CHANNEL}, ${id})`.execute(this.db);
  }

  /**
   * Listens on {@link PAGES_CHANNEL} on a `pg` client of its own (a pooled connection would be
   * handed to other queries and lose the `LISTEN`), until the listener is closed. When the
   * connection drops (PostgreSQL restarted, a network failure found by TCP keepalive) it connects
   * again after {@link RECONNECT_BACKOFF_MS} (doubling), and then calls `missed`: notifications
   * sent meanwhile were lost.
   * @returns the listener, once its first `LISTEN` is in place or its first attempt failed (it
   *   then goes on trying).
   */
  async listen(handlers: PageChangeHandlers): Promise<PageChangeListener> {
    const listener = new PageChangeListener(this.url, handlers);
    await listener.started;
    return listener;
  }
}

/** One listening connection and its reconnections ({@link PageChanges.listen}). */
export class PageChangeListener {
  /** Settles once the first attempt to listen is over (listening or not). */
  readonly started: Promise<void>;
  private client: pg.Client | undefined;
  private closed = false;
  private wake: (() => void) | undefined;
  private readonly running: Promise<void>;

  constructor(
    private readonly url: string,
    private readonly handlers: PageChangeHandlers,
  ) {
    let started!: () => void;
    this.started = new Promise((resolve) => (started = resolve));
    this.running = this.run(started);
  }

  /** True while the connection is listening. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  private async run(started: () => void) {
    // Loaded only for PostgreSQL, as the store's pool is.
    const { default: pg } = await import('pg');
    let backoff: number = RECONNECT_BACKOFF_MS.first;
    // Any attempt but the very first may have missed notifications (the first is made before the
    // registry's first load).
    let attempts = 0;
    while (!this.closed) {
      const first = attempts++ === 0;
      const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5000, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
      // Either ends this connection's turn: the loop then connects again.
      const lost = new Promise<void>((resolve) => {
        client.on('error', (error) => {
          this.handlers.error?.(error);
          resolve();
        });
        client.on('end', () => resolve());
      });
      try {
        await client.connect();
        client.on('notification', (message) => {
          if (message.channel === PAGES_CHANNEL && message.payload) this.handlers.changed(message.payload);
        });
        await client.query(`listen ${PAGES_CHANNEL}`);
      } catch (error) {
        this.handlers.error?.(error);
        await client.end().catch(() => undefined);
        started();
        await this.pause(backoff);
        backoff = Math.min(backoff * 2, RECONNECT_BACKOFF_MS.max);
        continue;
      }
      if (this.closed) {
        await client.end().catch(() => undefined);
        break;
      }
      this.client = client;
      backoff = RECONNECT_BACKOFF_MS.first;
      if (!first) this.handlers.missed();
      started();
      await lost;
      this.client = undefined;
      await client.end().catch(() => undefined);
      if (!this.closed) await this.pause(backoff);
    }
    started();
  }

  /** Waits `ms`, or less when the listener is closed meanwhile. */
  private pause(ms: number) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Stops listening and ends the connection (the server's shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    this.wake?.();
    await this.client?.end().catch(() => undefined);
    await this.running;
  }
}
