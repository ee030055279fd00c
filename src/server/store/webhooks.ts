import { randomBytes, randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { sql, type Kysely, type Transaction } from 'kysely';
import type {
  CreateWebhook,
  DELIVERY_TYPES,
  DeliveryState,
  UpdateWebhook,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEventType,
  WebhookKind,
  WebhookPayload,
  WebhookState,
} from '../../shared/webhooks';
import { systemClock, type Clock } from '../clock';
import type { AttemptOutcome } from '../webhooks/schedule';
import { applicationsForPayload, newEventId, type ApplicationForPayload } from './outbox';
import { perStatement, unflushedTransaction } from './statements';
import type { DispatchedEvent, EmailRepository } from './emails';
import type { Database } from './schema';

/** How long a rotated secret still signs beside the new one: 24 hours (docs/integrations.md, "Signatures"). */
export const PREVIOUS_SECRET_MS = 24 * 60 * 60 * 1000;

/** The type of the delivery "Send a test event" makes: to its endpoint only, whatever events it wants. */
export const TEST_EVENT_TYPE = 'webhook.test' satisfies (typeof DELIVERY_TYPES)[number];

/** An endpoint with what sending needs (its secrets), never shown by the API. */
export interface EndpointRecord {
  id: string;
  url: string;
  kind: WebhookKind;
  events: WebhookEventType[];
  payload: WebhookPayload;
  state: WebhookState;
  /** The secrets to sign with: the current one, and each rotated out in the last 24 hours (each for 24 hours after its rotation). */
  secrets: string[];
}

/** A delivery being attempted: its event, as the outbox wrote it, and the attempts made before. */
export interface DeliveryWork {
  id: string;
  endpointId: string;
  eventId: string;
  type: WebhookEventType | typeof TEST_EVENT_TYPE;
  occurredAt: string;
  pageId: string | null;
  applicationId: string | null;
  data: Record<string, string | number | null>;
  attempts: number;
}

/** Endpoints a PostgreSQL claim tries, in the order of their first delivery due, before it gives up until the next poll: 8. */
const MAX_ENDPOINTS_TRIED = 8;

/** A new endpoint's signing secret: `whsec_` and 32 random bytes in base64 (the Standard Webhooks form). */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

type EndpointRow = Database['webhook_endpoints'];
type DeliveryRow = Database['webhook_deliveries'];

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    kind: row.kind as WebhookKind,
    events: JSON.parse(row.events) as WebhookEventType[],
    payload: row.payload as WebhookPayload,
    description: row.description,
    state: row.state as WebhookState,
    disabledReason: row.disabled_reason,
    createdAt: row.created_at,
    createdBy: row.created_by,
    updatedAt: row.updated_at,
  };
}

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    eventId: row.event_id,
    type: row.type as WebhookDelivery['type'],
    occurredAt: row.occurred_at,
    applicationId: row.application_id,
    pageId: row.page_id,
    state: row.state as DeliveryState,
    attempts: Number(row.attempts),
    lastStatus: row.last_status === null ? null : Number(row.last_status),
    lastError: row.last_error,
    latencyMs: row.last_latency_ms === null ? null : Number(row.last_latency_ms),
    nextAttemptAt: row.state === 'pending' ? new Date(Number(row.next_attempt_at)).toISOString() : null,
    deliveredAt: row.delivered_at,
    createdAt: row.created_at,
  };
}

function toWork(row: DeliveryRow): DeliveryWork {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    type: row.type as DeliveryWork['type'],
    occurredAt: row.occurred_at,
    pageId: row.page_id,
    applicationId: row.application_id,
    data: JSON.parse(row.data) as DeliveryWork['data'],
    attempts: Number(row.attempts),
  };
}

/** The columns an attempt's outcome sets on its delivery. */
function outcomeColumns(outcome: AttemptOutcome, attempts: number, now: number): Partial<DeliveryRow> {
  const common = { attempts, last_status: outcome.status, last_latency_ms: outcome.latencyMs };
  if (outcome.state === 'delivered') return { ...common, state: 'delivered', last_error: null, delivered_at: new Date(now).toISOString() };
  if (outcome.state === 'pending') return { ...common, state: 'pending', last_error: outcome.error, next_attempt_at: outcome.nextAttemptAt };
  return { ...common, state: 'failed', last_error: outcome.error };
}

/**
 * The team's webhook endpoints, their deliveries and the outbox's dispatch (migration 018;
 * docs/decisions/025). Deliveries are claimed for an attempt so that each attempt happens in one
 * process only: on PostgreSQL the delivery's row is locked (`for update skip locked`) in a
 * transaction held while it is sent, so another process skips it and a process that dies
 * releases it at once; SQLite's one process keeps the deliveries it is sending in memory.
 */
export class WebhookRepository {
  /** SQLite: the deliveries this process is sending, not to be taken again meanwhile. */
  private readonly sending = new Set<string>();
  /** Outcomes waiting to be written, and the round writing them ({@link WebhookRepository.recordLater}). */
  private outcomes: { row: DeliveryRow; outcome: AttemptOutcome; resolve: () => void; reject: (error: unknown) => void }[] = [];
  /** Endpoints whose retries are to be brought forward after the outcomes written before ({@link WebhookRepository.bringForward}). */
  private forwards: { endpointId: string; resolve: (count: number) => void; reject: (error: unknown) => void }[] = [];
  private recording: Promise<void> | undefined;

  /**
   * @param claims - PostgreSQL: a database on a pool of its own for the claims' transactions
   *   (each held while its delivery is sent, up to 15 s), so they never take the submits'
   *   connections; undefined on SQLite.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock = systemClock,
    private readonly claims?: Kysely<Database>,
    /** The e-mail log: an endpoint disabled is e-mailed to the editors in the same transaction. */
    private readonly emails?: EmailRepository,
  ) {}

  private now() {
    return new Date(this.clock()).toISOString();
  }

  /**
   * Adds an endpoint, `active`, with a new signing secret.
   * @returns the endpoint and its secret (shown once).
   */
  async create(input: CreateWebhook, actor: string): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const at = this.now();
    const row: EndpointRow = {
      id: randomUUID(),
      url: input.url,
      kind: input.kind ?? 'standard',
      events: JSON.stringify(input.events),
      payload: input.payload ?? 'full',
      description: input.description ?? '',
      secret: newSecret(),
      previous_secret: null,
      previous_secret_until: null,
      previous_secrets: '[]',
      state: 'active',
      disabled_reason: null,
      created_at: at,
      created_by: actor,
      updated_at: at,
    };
    await this.db.insertInto('webhook_endpoints').values(row).execute();
    return { endpoint: toEndpoint(row), secret: row.secret };
  }

  /** Every endpoint, oldest first. */
  async list(): Promise<WebhookEndpoint[]> {
    const rows = await this.db.selectFrom('webhook_endpoints').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(toEndpoint);
  }

  /** One endpoint as the API shows it, or undefined. */
  async get(id: string): Promise<WebhookEndpoint | undefined> {
    const row = await this.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toEndpoint(row);
  }

  /** An endpoint with its secrets, as it is now: what the sender needs for one attempt. */
  async record(id: string): Promise<EndpointRecord | undefined> {
    const row = await this.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const previous = this.stillSigning(row).map((entry) => entry.secret);
    const { kind, payload, state, events } = toEndpoint(row);
    return { id: row.id, url: row.url, kind, events, payload, state, secrets: [row.secret, ...previous] };
  }

  /**
   * Changes an endpoint: what `patch` names. Made `active` again, a disabled endpoint forgets why.
   * @returns the endpoint, or undefined when there is none.
   */
  async update(id: string, patch: UpdateWebhook): Promise<WebhookEndpoint | undefined> {
    const set: Partial<EndpointRow> = { updated_at: this.now() };
    if (patch.url !== undefined) set.url = patch.url;
    if (patch.events !== undefined) set.events = JSON.stringify(patch.events);
    if (patch.payload !== undefined) set.payload = patch.payload;
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.state !== undefined) Object.assign(set, { state: patch.state, disabled_reason: null });
    const result = await this.db.updateTable('webhook_endpoints').set(set).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) === 0 ? undefined : this.get(id);
  }

  /** Removes an endpoint and its delivery log; false when there is none. */
  async remove(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
      await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
      return Number(result.numDeletedRows) > 0;
    });
  }

  /**
   * Gives an endpoint a new signing secret; the one before still signs beside it for
   * {@link PREVIOUS_SECRET_MS} (every delivery then carries both signatures).
   * @returns the new secret (shown once), or undefined when there is no such endpoint.
   */
  async rotateSecret(id: string): Promise<string | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      const secret = newSecret();
      // Every secret rotated out in the last 24 hours keeps signing until its own end: a second
      // rotation does not cut off a receiver still on the first secret.
      const previous = [...this.stillSigning(row), { secret: row.secret, until: this.clock() + PREVIOUS_SECRET_MS }];
      await trx
        .updateTable('webhook_endpoints')
        .set({ secret, previous_secrets: JSON.stringify(previous), previous_secret: null, previous_secret_until: null, updated_at: this.now() })
        .where('id', '=', id)
        .execute();
      return secret;
    });
  }

  /** The secrets rotated out of `row` that still sign now (each for {@link PREVIOUS_SECRET_MS} after its rotation), oldest first. */
  private stillSigning(row: EndpointRow): { secret: string; until: number }[] {
    const legacy =
      row.previous_secret !== null && row.previous_secret_until !== null ? [{ secret: row.previous_secret, until: Number(row.previous_secret_until) }] : [];
    const listed = JSON.parse(row.previous_secrets) as { secret: string; until: number }[];
    return [...legacy, ...listed].filter((entry) => entry.until > this.clock());
  }

  /**
   * An endpoint's delivery log, newest first.
   * @param before - the `createdAt` and id of the last delivery of the page before (the next page starts after it).
   * @returns the deliveries, or undefined when there is no such endpoint.
   */
  async deliveries(endpointId: string, limit: number, before?: { createdAt: string; id: string }): Promise<WebhookDelivery[] | undefined> {
    if (!(await this.get(endpointId))) return undefined;
    let query = this.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId);
    if (before)
      query = query.where((eb) =>
        eb.or([eb('created_at', '<', before.createdAt), eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)])]),
      );
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map(toDelivery);
  }

  /**
   * Sends a delivery again (a replay): `pending` now, whatever its state, its attempts counted from
   * its last. A cancelled one, or an application's event whose application was erased since, is
   * not replayed.
   * @returns the delivery; `missing` when the endpoint has no such delivery; `cancelled`.
   */
  async retry(endpointId: string, deliveryId: string): Promise<WebhookDelivery | 'missing' | 'cancelled'> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', deliveryId)
      .where('endpoint_id', '=', endpointId)
      .executeTakeFirst();
    if (!row) return 'missing';
    if (row.state === 'cancelled') return 'cancelled';
    // An event of an application erased since is not told again (only its erasure is).
    if (row.application_id !== null && row.type !== 'application.erased') {
      const exists = await this.db.selectFrom('applications').select('id').where('id', '=', row.application_id).executeTakeFirst();
      if (!exists) return 'cancelled';
    }
    await this.db
      .updateTable('webhook_deliveries')
      .set({ state: 'pending', attempts: 0, next_attempt_at: this.clock() })
      .where('id', '=', deliveryId)
      .execute();
    return toDelivery({ ...row, state: 'pending', attempts: 0, next_attempt_at: this.clock() });
  }

  /** A test event (`webhook.test`) to one endpoint, sent at once. @returns its delivery, or undefined when there is no such endpoint. */
  async test(endpointId: string): Promise<WebhookDelivery | undefined> {
    if (!(await this.get(endpointId))) return undefined;
    const at = this.now();
    const row: DeliveryRow = {
      id: uuidv7(),
      endpoint_id: endpointId,
      event_id: newEventId(),
      type: TEST_EVENT_TYPE,
      occurred_at: at,
      page_id: null,
      application_id: null,
      data: '{}',
      state: 'pending',
      attempts: 0,
      next_attempt_at: this.clock(),
      last_status: null,
      last_error: null,
      last_latency_ms: null,
      delivered_at: null,
      created_at: at,
    };
    await this.db.insertInto('webhook_deliveries').values(row).execute();
    return toDelivery(row);
  }

  /**
   * The dispatch: takes up to `limit` events of the outbox and, in one transaction, makes a
   * delivery of each to every endpoint that wants its type (a paused or disabled one's waits until
   * it is active again), and removes the events. On PostgreSQL the events
   * taken are locked (`skip locked`), so processes dispatching at once take different ones.
   * @param also - what else the events make in the same transaction (the e-mail they call for).
   * @returns how many events it took (fewer than `limit`: the outbox is empty now).
   */
  async dispatch(limit: number, also?: (trx: Transaction<Database>, events: readonly DispatchedEvent[]) => Promise<unknown>): Promise<number> {
    // Idle, one statement: a transaction only when there is something to take.
    if (!(await this.db.selectFrom('outbox_events').select('event_id').limit(1).executeTakeFirst())) return 0;
    // Its commit does not wait for the disk: lost with the power, its events are dispatched again
    // (the same ids; a delivery is unique by endpoint and event), and a flush of any later commit writes it.
    return unflushedTransaction(this.db, this.claims !== undefined, async (trx) => {
      let query = trx.selectFrom('outbox_events').selectAll().limit(limit);
      if (this.claims) query = query.forUpdate().skipLocked();
      const events = await query.execute();
      if (events.length === 0) return 0;
      // Every endpoint, paused and disabled ones too: their deliveries wait, and go once it is active again.
      const endpoints = (await trx.selectFrom('webhook_endpoints').select(['id', 'events']).execute()).map((row) => ({
        id: row.id,
        events: new Set(JSON.parse(row.events) as string[]),
      }));
      const at = this.now();
      const now = this.clock();
      const rows: DeliveryRow[] = events.flatMap((event) =>
        endpoints
          .filter((endpoint) => endpoint.events.has(event.type))
          .map((endpoint) => ({
            // Time-ordered, so the log's order (created_at, id) is the order they were made in.
            id: uuidv7(),
            endpoint_id: endpoint.id,
            event_id: event.event_id,
            type: event.type,
            occurred_at: event.occurred_at,
            page_id: event.page_id,
            application_id: event.application_id,
            data: event.data,
            state: 'pending',
            attempts: 0,
            next_attempt_at: now,
            last_status: null,
            last_error: null,
            last_latency_ms: null,
            delivered_at: null,
            created_at: at,
          })),
      );
      for (let index = 0; index < rows.length; index += 500) {
        await trx
          .insertInto('webhook_deliveries')
          .values(rows.slice(index, index + 500))
          .onConflict((conflict) => conflict.columns(['endpoint_id', 'event_id']).doNothing())
          .execute();
      }
      await also?.(trx, events);
      const ids = events.map((event) => event.event_id);
      for (let index = 0; index < ids.length; index += 500)
        await trx
          .deleteFrom('outbox_events')
          .where('event_id', 'in', ids.slice(index, index + 500))
          .execute();
      return events.length;
    });
  }

  /**
   * Claims deliveries due now (their endpoint active, not one of `busy`) for this process: up to
   * `limit` of one endpoint's, the endpoint of the delivery due first; runs `attempt` on them and
   * records what each attempted one came to. `attempt` may stop early (a failure: the endpoint
   * is down or slow) and answer fewer outcomes than deliveries: the rest are left as they were,
   * untouched. On PostgreSQL a claim is a transaction-scoped advisory lock on each delivery's id,
   * taken (one statement for the batch) on a connection of the claims' pool and held while
   * `attempt` runs and its outcomes are written: another process skips them, a process that dies
   * releases them with its connection, and no row is locked meanwhile (an erasure or a decision
   * never waits on an attempt). An outcome is written only while the delivery is still pending: an
   * erasure that cancelled it during the attempt keeps it cancelled.
   * @param busy - endpoints this process has enough attempts under way to (a slow one never takes every sender).
   * @param attempt - sends the deliveries, in order; resolves with the outcome of each it attempted.
   * @returns how many it claimed (0: none was due).
   */
  async claimBatch(busy: ReadonlySet<string>, limit: number, attempt: (works: DeliveryWork[]) => Promise<AttemptOutcome[]>): Promise<number> {
    const candidates = (db: Kysely<Database> | Transaction<Database>, excluded: readonly string[], skipped: ReadonlySet<string> = busy) =>
      db
        .selectFrom('webhook_deliveries')
        .selectAll('webhook_deliveries')
        .where('webhook_deliveries.state', '=', 'pending')
        .where('webhook_deliveries.next_attempt_at', '<=', this.clock())
        .where('webhook_deliveries.endpoint_id', 'in', (eb) => eb.selectFrom('webhook_endpoints').select('id').where('state', '=', 'active'))
        .where('webhook_deliveries.endpoint_id', 'not in', ['', ...skipped])
        .where('webhook_deliveries.id', 'not in', ['', ...excluded])
        .orderBy('webhook_deliveries.next_attempt_at')
        .limit(excluded.length + 4 * limit);
    /** The first endpoint's deliveries among `rows`, up to `limit`. */
    const ofFirstEndpoint = (rows: DeliveryRow[]) => rows.filter((row) => row.endpoint_id === rows[0]!.endpoint_id).slice(0, limit);
    const run = async (rows: DeliveryRow[]) => {
      const outcomes = await attempt(rows.map(toWork));
      await Promise.all(outcomes.map((outcome, index) => this.recordLater(rows[index]!, outcome)));
    };
    if (this.claims) {
      // Idle, one statement: the claim's transaction only when something is due.
      if ((await candidates(this.claims, []).limit(1).execute()).length === 0) return 0;
      return this.claims.transaction().execute(async (trx) => {
        // The first endpoint whose deliveries due are not all claimed already (by another process,
        // or by this one's batch under way to a slow endpoint): the next one is tried, so no
        // endpoint waits behind another's backlog.
        const skipped = new Set(busy);
        let locked: { id: string }[] = [];
        for (let tried = 0; tried < MAX_ENDPOINTS_TRIED && locked.length === 0; tried++) {
          const rows = await candidates(trx, [], skipped).execute();
          if (rows.length === 0) return 0;
          const wanted = ofFirstEndpoint(rows).map((row) => row.id);
          // One statement takes every lock it can: deliveries claimed elsewhere are skipped.
          ({ rows: locked } = await sql<{
            id: string;
          }>`select id from unnest(${wanted}::text[]) as id where pg_try_advisory_xact_lock(hashtextextended(id, 0))`.execute(trx));
          skipped.add(rows[0]!.endpoint_id);
        }
        if (locked.length === 0) return 0;
        // Read again under the claim: another process may have sent some since the list was read.
        const current = await trx
          .selectFrom('webhook_deliveries')
          .selectAll()
          .where(
            'id',
            'in',
            locked.map((row) => row.id),
          )
          .where('state', '=', 'pending')
          .where('next_attempt_at', '<=', this.clock())
          .orderBy('next_attempt_at')
          .execute();
        if (current.length === 0) return 0;
        await run(current);
        return current.length;
      });
    }
    // SQLite: read, then claimed in memory before anything else runs (no await in between); other
    // attempts of this process may have claimed some since the query.
    const rows = (await candidates(this.db, [...this.sending]).execute()).filter((row) => !this.sending.has(row.id) && !busy.has(row.endpoint_id));
    if (rows.length === 0) return 0;
    const batch = ofFirstEndpoint(rows);
    for (const row of batch) this.sending.add(row.id);
    try {
      await run(batch);
    } finally {
      for (const row of batch) this.sending.delete(row.id);
    }
    return batch.length;
  }

  /** Every delivery of the events about the applications of `ids`, oldest first, with the origin of the endpoint it went to (a URL may be a credential). */
  async deliveriesOfApplications(ids: readonly string[]): Promise<(WebhookDelivery & { endpoint: string })[]> {
    const rows: (DeliveryRow & { url: string | null })[] = [];
    for (const slice of perStatement(ids))
      rows.push(
        ...(await this.db
          .selectFrom('webhook_deliveries')
          .leftJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
          .selectAll('webhook_deliveries')
          .select('webhook_endpoints.url')
          .where('webhook_deliveries.application_id', 'in', slice)
          .execute()),
      );
    return rows
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
      .map(({ url, ...row }) => ({ ...toDelivery(row), endpoint: url === null ? '(deleted)' : new URL(url).origin }));
  }

  /** The applications full payloads show, by id (an erased one is absent). */
  applications(ids: readonly string[]): Promise<Map<string, ApplicationForPayload>> {
    return applicationsForPayload(this.db, ids);
  }

  /**
   * Records an attempt's outcome, committed together with the other outcomes recorded meanwhile
   * (a group commit: one transaction, one disk flush, for as many attempts as ended while the one
   * before was written); resolves once it is committed, so a PostgreSQL claim is held until then.
   * @throws the store's error (every outcome of that transaction gets it).
   */
  private recordLater(row: DeliveryRow, outcome: AttemptOutcome): Promise<void> {
    return new Promise((resolve, reject) => {
      this.outcomes.push({ row, outcome, resolve, reject });
      if (!this.recording) this.recording = this.writeOutcomes();
    });
  }

  /**
   * Brings an endpoint's waiting retries forward to now: it answered again after failing, so what
   * failed while it was down goes at once rather than at each one's next attempt (up to 10 hours
   * away). Written by the outcomes' writer after every outcome recorded before it, so that an
   * attempt failed while the endpoint was down and recorded meanwhile is brought forward too.
   * @returns how many it brought forward.
   */
  bringForward(endpointId: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.forwards.push({ endpointId, resolve, reject });
      if (!this.recording) this.recording = this.writeOutcomes();
    });
  }

  /** Writes the outcomes waiting, in one transaction each round, until none waits. */
  private async writeOutcomes(): Promise<void> {
    // Outcomes ending in this turn of the event loop join the first round.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.outcomes.length > 0 || this.forwards.length > 0) {
      const round = this.outcomes.splice(0);
      const forwards = this.forwards.splice(0);
      try {
        const brought = await this.db.transaction().execute(async (trx) => {
          // PostgreSQL: the common outcomes in one statement (a round trip per outcome was the
          // sender's largest cost at 200 deliveries a second); SQLite's statements cost no round trip.
          const bulk = this.claims ? round.filter(({ outcome }) => !(outcome.state === 'failed' && outcome.disable)) : [];
          if (bulk.length > 0) await this.recordOutcomes(trx, bulk);
          for (const { row, outcome } of round) if (!bulk.some((entry) => entry.row === row)) await this.recordOutcome(trx, row, outcome);
          const now = this.clock();
          const counts: number[] = [];
          for (const { endpointId } of forwards) {
            const result = await trx
              .updateTable('webhook_deliveries')
              .set({ next_attempt_at: now })
              .where('endpoint_id', '=', endpointId)
              .where('state', '=', 'pending')
              .where('next_attempt_at', '>', now)
              .executeTakeFirst();
            counts.push(Number(result.numUpdatedRows));
          }
          return counts;
        });
        for (const entry of round) entry.resolve();
        forwards.forEach((entry, index) => entry.resolve(brought[index]!));
      } catch (error) {
        for (const entry of [...round, ...forwards]) entry.reject(error);
      }
    }
    this.recording = undefined;
  }

  /** PostgreSQL: {@link WebhookRepository.recordOutcome} of many outcomes (none disabling its endpoint) in one `update … from (values …)`. */
  private async recordOutcomes(trx: Transaction<Database>, entries: readonly { row: DeliveryRow; outcome: AttemptOutcome }[]) {
    const now = this.clock();
    const values = entries.map(({ row, outcome }) => {
      const columns = outcomeColumns(outcome, Number(row.attempts) + 1, now);
      return sql`(${row.id}::text, ${columns.state}::text, ${columns.attempts}::integer, ${columns.last_status ?? null}::integer, ${columns.last_latency_ms ?? null}::integer, ${columns.last_error ?? null}::text, ${columns.next_attempt_at ?? null}::bigint, ${columns.delivered_at ?? null}::text)`;
    });
    await sql`update webhook_deliveries as d set
        state = v.state, attempts = v.attempts, last_status = v.last_status, last_latency_ms = v.last_latency_ms, last_error = v.last_error,
        next_attempt_at = coalesce(v.next_attempt_at, d.next_attempt_at), delivered_at = coalesce(v.delivered_at, d.delivered_at)
      from (values ${sql.join(values)}) as v (id, state, attempts, last_status, last_latency_ms, last_error, next_attempt_at, delivered_at)
      where d.id = v.id and (d.state = 'pending' or (v.state = 'delivered' and d.state = 'cancelled'))`.execute(trx);
  }

  private async recordOutcome(trx: Transaction<Database>, row: DeliveryRow, outcome: AttemptOutcome) {
    const now = this.clock();
    const recorded = await trx
      .updateTable('webhook_deliveries')
      .set(outcomeColumns(outcome, Number(row.attempts) + 1, now))
      .where('id', '=', row.id)
      // Cancelled meanwhile (its application erased during the attempt): it stays cancelled, and is
      // never tried again, unless this attempt delivered it (the log then says what happened).
      .where('state', 'in', outcome.state === 'delivered' ? ['pending', 'cancelled'] : ['pending'])
      .executeTakeFirst();
    if (Number(recorded.numUpdatedRows) === 0) return;
    if (outcome.state === 'failed' && outcome.disable) {
      await trx
        .updateTable('webhook_endpoints')
        .set({ state: 'disabled', disabled_reason: outcome.disable, updated_at: new Date(now).toISOString() })
        .where('id', '=', row.endpoint_id)
        .execute();
      const endpoint = await trx.selectFrom('webhook_endpoints').select(['id', 'url']).where('id', '=', row.endpoint_id).executeTakeFirst();
      if (endpoint) await this.emails?.endpointDisabled(trx, endpoint, outcome.disable);
    }
  }
}
