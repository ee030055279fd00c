import type { FastifyBaseLogger } from 'fastify';
import { WorkLoops } from '../work-loops';
import { systemClock, type Clock } from '../clock';
import type { DeliveryWork, EndpointRecord, WebhookRepository } from '../store/webhooks';
import type { ApplicationForPayload } from '../store/outbox';
import type { AddressPolicy } from './address-policy';
import { postJson, type Lookup } from './http';
import { deliveryMessage } from './messages';
import { RETRY_WAITS_MS, attemptOutcome, type AttemptOutcome } from './schedule';

/** What {@link WebhookSender} is made with. */
export interface WebhookSenderOptions {
  repository: WebhookRepository;
  /** Where a delivery may connect (`WEBHOOK_ALLOW_NETWORKS`). */
  policy: AddressPolicy;
  /** The inbox's address, for the links of Slack messages (`PUBLIC_URL`). */
  publicUrl: string;
  log: FastifyBaseLogger;
  clock?: Clock;
  /** A number in [0, 1) for the retries' jitter. */
  random?: () => number;
  /** Deliveries sent at once by this process: 8. */
  concurrency?: number;
  /** How often the idle dispatch and one idle sender look for events and deliveries due (another process's, a retry's time come): 200 ms. */
  pollMs?: number;
  /** The DNS lookup (tests: a name that resolves to a loopback address). */
  lookup?: Lookup;
  /** One attempt's time limit, ms (15 s). */
  timeoutMs?: number;
  /** What else the outbox's events make in the dispatch's transaction (the e-mail they call for). */
  alsoDispatch?: Parameters<WebhookRepository['dispatch']>[1];
  /** Told after a dispatch took events (the e-mail sender looks for what it made). */
  onDispatched?: () => void;
}

/** How long an endpoint read for an attempt is used for the next ones, in ms: 1 s. */
export const ENDPOINT_READ_MS = 1000;

/** Deliveries of one endpoint a sender claims at once (the first sent alone, the rest together; recorded together). */
const SEND_BATCH = 20;

/** The shortest time between two dispatches, in ms, unless the first took a full batch: 50. */
const DISPATCH_INTERVAL_MS = 50;

/** Events the dispatch takes a transaction. */
const DISPATCH_BATCH = 200;

/** Deliveries sent at once by a process, unless told otherwise: 8. */
const DEFAULT_CONCURRENCY = 8;

/** Attempts under way to one endpoint at a time, per process: 2 (a hanging endpoint holds at most two senders for its 15 s). */
export const MAX_PER_ENDPOINT = 2;

/**
 * Delivers the outbox's events (docs/decisions/025): one loop dispatches them into deliveries,
 * `concurrency` others send each delivery due to its endpoint, at most {@link MAX_PER_ENDPOINT} to
 * one endpoint at a time, and record what each attempt came to (schedule.ts). Runs in every server process; on PostgreSQL the processes share the work
 * (each event dispatched, each attempt made, by one of them). Nothing it fails at stops it: an
 * error is logged and the next poll tries again.
 */
export class WebhookSender {
  private readonly clock: Clock;
  /** The dispatch's loop: polls the outbox. */
  private readonly dispatching: WorkLoops;
  /** The senders: one polls for deliveries due, the others wait to be woken. */
  private readonly sending: WorkLoops;
  /** The endpoints read lately ({@link WebhookSender.endpoint}). */
  private readonly endpoints = new Map<string, { at: number; record: EndpointRecord | undefined }>();
  /** When each endpoint last answered again after failing (ms). */
  private readonly recoveredAt = new Map<string, number>();
  /** When the last dispatch started (`performance.now()`), and whether it took a full batch. */
  private lastDispatch = -Infinity;
  private fullBatch = false;
  /** Attempts under way, by endpoint. */
  private readonly underWay = new Map<string, number>();
  /** Endpoints an attempt of this process failed at since one last succeeded: their next success brings their retries forward. */
  private readonly failing = new Set<string>();

  constructor(private readonly options: WebhookSenderOptions) {
    this.clock = options.clock ?? systemClock;
    const pollMs = options.pollMs ?? 200;
    this.dispatching = new WorkLoops('webhook dispatch', options.log, pollMs);
    this.sending = new WorkLoops('webhook delivery', options.log, pollMs);
  }

  /** Starts sending: one loop dispatches, `concurrency` send (one of them polling). */
  start(): void {
    this.dispatching.start([{ job: () => this.dispatch(), timed: true }]);
    this.sending.start(
      Array.from({ length: this.options.concurrency ?? DEFAULT_CONCURRENCY }, (_, index) => ({
        job: async () => (await this.options.repository.claimBatch(this.busyEndpoints(), SEND_BATCH, (works) => this.attempt(works))) > 0,
        timed: index === 0,
      })),
    );
  }

  /** Dispatches a batch of the outbox's events; wakes the senders (and `dispatched`'s listener) when it made deliveries. */
  private async dispatch(): Promise<boolean> {
    // At most one dispatch each DISPATCH_INTERVAL_MS (unless the last took a full batch): under a
    // burst of submissions, each poking it, the events wait a few ms to go in one transaction
    // rather than one each (a transaction is a disk flush the submissions share).
    const wait = this.lastDispatch + DISPATCH_INTERVAL_MS - performance.now();
    if (wait > 0 && !this.fullBatch) await new Promise((resolve) => setTimeout(resolve, wait));
    this.lastDispatch = performance.now();
    const dispatched = await this.options.repository.dispatch(DISPATCH_BATCH, this.options.alsoDispatch);
    this.fullBatch = dispatched === DISPATCH_BATCH;
    if (dispatched > 0) {
      this.sending.poke();
      this.options.onDispatched?.();
    }
    return dispatched === DISPATCH_BATCH;
  }

  /**
   * The endpoints a sender may not take deliveries of now: those with {@link MAX_PER_ENDPOINT}
   * attempts under way (a slow or hanging one never holds every sender), and every endpoint whose
   * last attempt failed once half the senders are on such endpoints (several hanging receivers,
   * each with a backlog due at once, never hold every sender either: the other endpoints keep the rest).
   */
  private busyEndpoints(): Set<string> {
    const busy = new Set([...this.underWay].filter(([, count]) => count >= MAX_PER_ENDPOINT).map(([id]) => id));
    let onFailing = 0;
    for (const [id, count] of this.underWay) if (this.failing.has(id)) onFailing += count;
    if (onFailing >= Math.max(1, Math.floor((this.options.concurrency ?? DEFAULT_CONCURRENCY) / 2))) for (const id of this.failing) busy.add(id);
    return busy;
  }

  /** Looks for events now rather than at the next poll (after a change this process committed). */
  poke(): void {
    this.dispatching.poke();
  }

  /** Stops taking deliveries and waits for the attempts under way (each at most its time limit). */
  async stop(): Promise<void> {
    await Promise.all([this.dispatching.stop(), this.sending.stop()]);
  }

  /**
   * An endpoint as it is now, read at most once a second ({@link ENDPOINT_READ_MS}), so a busy
   * endpoint costs no read per delivery: a change made through this process is used from the next
   * attempt on ({@link WebhookSender.forget}), one made through another from a second later.
   */
  private async endpoint(id: string): Promise<EndpointRecord | undefined> {
    const kept = this.endpoints.get(id);
    if (kept && this.clock() - kept.at < ENDPOINT_READ_MS && kept.at <= this.clock()) return kept.record;
    const record = await this.options.repository.record(id);
    this.endpoints.set(id, { at: this.clock(), record });
    return record;
  }

  /** Reads endpoint `id` again at its next attempt (it was changed through this process). */
  forget(id: string): void {
    this.endpoints.delete(id);
  }

  /**
   * Attempts `works` (one endpoint's deliveries): the first alone, and the rest together once it
   * was delivered. A first that fails (the endpoint down or slow) leaves the rest for later rather
   * than each waiting its time limit; an endpoint that answers takes the batch at once, not one
   * round trip after another.
   * @returns the outcome of each delivery attempted, in order.
   */
  private async attempt(works: DeliveryWork[]): Promise<AttemptOutcome[]> {
    const endpointId = works[0]!.endpointId;
    const started = this.clock();
    this.underWay.set(endpointId, (this.underWay.get(endpointId) ?? 0) + 1);
    try {
      const endpoint = await this.endpoint(endpointId);
      if (!endpoint) return works.map(() => ({ state: 'failed', status: null, error: 'The endpoint was deleted.', latencyMs: 0 }));
      const applications =
        endpoint.payload === 'full'
          ? await this.options.repository.applications(
              works.flatMap((work) => (work.applicationId && work.type !== 'application.erased' ? [work.applicationId] : [])),
            )
          : new Map<string, ApplicationForPayload>();
      const one = (work: DeliveryWork) => this.send(work, endpoint, work.applicationId ? applications.get(work.applicationId) : undefined);
      const first = await one(works[0]!);
      const outcomes = first.state !== 'delivered' ? [first] : [first, ...(await Promise.all(works.slice(1).map(one)))];
      // An attempt sent while the endpoint was down and failed after it came back (its answer was
      // on its way): tried again after the schedule's first wait, not its own (up to 10 hours),
      // as the retries brought forward are.
      const recovered = this.recoveredAt.get(endpointId);
      if (recovered === undefined || recovered < started) return outcomes;
      return outcomes.map((outcome) =>
        outcome.state === 'pending' ? { ...outcome, nextAttemptAt: Math.min(outcome.nextAttemptAt, this.clock() + RETRY_WAITS_MS[0]!) } : outcome,
      );
    } finally {
      const left = (this.underWay.get(endpointId) ?? 1) - 1;
      if (left > 0) this.underWay.set(endpointId, left);
      else this.underWay.delete(endpointId);
      // A slot of its endpoint is free: a loop that found only its deliveries may take one now.
      this.sending.poke();
    }
  }

  private async send(work: DeliveryWork, endpoint: EndpointRecord, application: ApplicationForPayload | undefined): Promise<AttemptOutcome> {
    const message = deliveryMessage(work, endpoint, application, this.clock(), this.options.publicUrl);
    const result = await postJson(endpoint.url, message.body, message.headers, {
      policy: this.options.policy,
      lookup: this.options.lookup,
      timeoutMs: this.options.timeoutMs,
    });
    const outcome = attemptOutcome(work.attempts + 1, result, this.clock(), this.options.random);
    if (outcome.state === 'delivered' && this.failing.delete(endpoint.id)) {
      // It is back: what waits for it goes now (docs/integrations.md, "Delivery").
      this.recoveredAt.set(endpoint.id, this.clock());
      if ((await this.options.repository.bringForward(endpoint.id)) > 0) this.sending.poke();
    } else if (outcome.state !== 'delivered') this.failing.add(endpoint.id);
    if (outcome.state === 'failed' && outcome.disable) this.options.log.warn({ endpoint: endpoint.id, reason: outcome.disable }, 'webhook endpoint disabled');
    return outcome;
  }
}
