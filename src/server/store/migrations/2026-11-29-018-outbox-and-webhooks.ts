import { sql, PostgresAdapter, type Kysely, type Migration } from 'kysely';

/**
 * Migration `2026-11-29-018-outbox-and-webhooks`: what happens is told to the brand's other tools
 * (docs/decisions/025, docs/integrations.md).
 * - `outbox_events`: one row per event (`application.submitted`, `application.status_changed`,
 *   `application.erased`, `page.published`, `page.closed`), written in the transaction of the
 *   change it reports; `data` holds ids and statuses only, never what an applicant wrote. The
 *   dispatcher turns each into a delivery per endpoint that wants it and removes it, in one
 *   transaction. `event_id` (`msg_…`) is the `webhook-id` every delivery of it carries.
 * - `webhook_endpoints`: the team's receivers: URL, kind (`standard`, `slack`), events wanted,
 *   payload (`full`, `thin`), the signing secret (`whsec_…`) and, for 24 hours after a rotation, the
 *   previous one; `state` `active`, `paused` or `disabled` (with why).
 * - `webhook_deliveries`: one event to one endpoint: its state (`pending`, `delivered`, `failed`,
 *   `cancelled`), attempts, the next attempt's time (ms since the epoch), the last answer's status,
 *   error and latency. Unique by `(endpoint_id, event_id)`, so a dispatch run twice makes one.
 * Frozen: it imports nothing but Kysely, so it runs tomorrow as it ran when it shipped.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const big = postgres ? 'bigint' : 'integer';
    await sql
      .raw(
        `create table outbox_events (
          event_id text primary key,
          type text not null,
          occurred_at text not null,
          page_id text,
          application_id text,
          data text not null
        )${postgres ? '' : ' without rowid'}`,
      )
      .execute(db);
    await sql
      .raw(
        `create table webhook_endpoints (
          id text primary key,
          url text not null,
          kind text not null,
          events text not null,
          payload text not null,
          description text not null,
          secret text not null,
          previous_secret text,
          previous_secret_until ${big},
          state text not null,
          disabled_reason text,
          created_at text not null,
          created_by text not null,
          updated_at text not null
        )`,
      )
      .execute(db);
    await sql
      .raw(
        `create table webhook_deliveries (
          id text primary key,
          endpoint_id text not null,
          event_id text not null,
          type text not null,
          occurred_at text not null,
          page_id text,
          application_id text,
          data text not null,
          state text not null,
          attempts integer not null,
          next_attempt_at ${big} not null,
          last_status integer,
          last_error text,
          last_latency_ms integer,
          delivered_at text,
          created_at text not null
        )`,
      )
      .execute(db);
    await sql`create unique index webhook_deliveries_event on webhook_deliveries (endpoint_id, event_id)`.execute(db);
    await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'pending'`.execute(db);
    await sql`create index webhook_deliveries_log on webhook_deliveries (endpoint_id, created_at)`.execute(db);
    await sql`create index webhook_deliveries_application on webhook_deliveries (application_id)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['webhook_deliveries', 'webhook_endpoints', 'outbox_events']) await sql.raw(`drop table ${table}`).execute(db);
  },
};
