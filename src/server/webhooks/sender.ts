import type { FastifyBaseLogger } from 'fastify';
import { WorkLoops } from '../work-loops';
import { systemClock, type Clock } from '../clock';
import type { DeliveryWork, WebhookRepository } from '../store/webhooks';
import type { AddressPolicy } from './address-policy';
import { postJson, type Lookup } from './http';
import { deliveryMessage } from './messages';
import { attemptOutcome, type AttemptOutcome } from './schedule';

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

/** Events the dispatch takes a transaction. */
const DISPATCH_BATCH = 200;

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
  /** Attempts under way, by endpoint. */
  private readonly underWay = new Map<string, number>();

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
      Array.from({ length: this.options.concurrency ?? 8 }, (_, index) => ({
        job: () => this.options.repository.claimOne(this.busyEndpoints(), (work) => this.attempt(work)),
        timed: index === 0,
      })),
    );
  }

  /** Dispatches a batch of the outbox's events; wakes the senders (and `dispatched`'s listener) when it made deliveries. */
  private async dispatch(): Promise<boolean> {
    const dispatched = await this.options.repository.dispatch(DISPATCH_BATCH, this.options.alsoDispatch);
    if (dispatched > 0) {
      this.sending.poke();
      this.options.onDispatched?.();
    }
    return dispatched === DISPATCH_BATCH;
  }

  /** The endpoints with {@link MAX_PER_ENDPOINT} attempts under way: a slow or hanging one never holds every sender. */
  private busyEndpoints(): Set<string> {
    return new Set([...this.underWay].filter(([, count]) => count >= MAX_PER_ENDPOINT).map(([id]) => id));
  }

  /** Looks for events now rather than at the next poll (after a change this process committed). */
  poke(): void {
    this.dispatching.poke();
  }

  /** Stops taking deliveries and waits for the attempts under way (each at most its time limit). */
  async stop(): Promise<void> {
    await Promise.all([this.dispatching.stop(), this.sending.stop()]);
  }

  /** One attempt of `work`: its message, sent; what it came to. */
  private async attempt(work: DeliveryWork): Promise<AttemptOutcome> {
    this.underWay.set(work.endpointId, (this.underWay.get(work.endpointId) ?? 0) + 1);
    try {
      return await this.send(work);
    } finally {
      const left = (this.underWay.get(work.endpointId) ?? 1) - 1;
      if (left > 0) this.underWay.set(work.endpointId, left);
      else this.underWay.delete(work.endpointId);
      // A slot of its endpoint is free: a loop that found only its deliveries may take one now.
      this.sending.poke();
    }
  }

  private async send(work: DeliveryWork): Promise<AttemptOutcome> {
    // Read for each attempt: a rotated secret signs from the next attempt on.
    const endpoint = await this.options.repository.record(work.endpointId);
    if (!endpoint) return { state: 'failed', status: null, error: 'The endpoint was deleted.', latencyMs: 0 };
    const application =
      endpoint.payload === 'full' && work.applicationId && work.type !== 'application.erased'
        ? await this.options.repository.application(work.applicationId)
        : undefined;
    const message = deliveryMessage(work, endpoint, application, this.clock(), this.options.publicUrl);
    const result = await postJson(endpoint.url, message.body, message.headers, {
      policy: this.options.policy,
      lookup: this.options.lookup,
      timeoutMs: this.options.timeoutMs,
    });
    const outcome = attemptOutcome(work.attempts + 1, result, this.clock(), this.options.random);
    if (outcome.state === 'failed' && outcome.disable) this.options.log.warn({ endpoint: endpoint.id, reason: outcome.disable }, 'webhook endpoint disabled');
    return outcome;
  }
}
