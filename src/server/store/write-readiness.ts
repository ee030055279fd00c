import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock';
import { isStoreUnavailable } from './errors';
import type { BatchWrite, IndexWrite } from './group-commit';
import type { Database } from './schema';

/**
 * Bytes of random filler in the probe row, written as hex (180 KiB of text): the probe then
 * writes about as many pages as one submission, 46 against 35 to 45 (SQLite, measured in WAL
 * frames: an application's row, handles, answers, index, search and tally entries). A smaller
 * probe passed in the room a full disk still leaves in SQLite's `-wal` after a batch failed
 * there (an 8 KiB one, 3 pages, did: readiness said ready again while every submission was
 * refused), so readiness would say yes to a store that refuses applications.
 */
export const PROBE_FILLER_BYTES = 90 * 1024;

/** What {@link WriteReadiness.canTakeApplications} answers. */
export type WriteCheck = { ready: true } | { ready: false; failure: unknown };

/**
 * Whether the store can take applications, for readiness (`GET /readyz`; docs/decisions/008, "A
 * full disk, as the operator lives it"). A query (`select 1`) never writes, so it answers while a
 * full disk refuses every submission; this follows the writes instead:
 *
 * - every batch of applications the group commit writes reports here ({@link WriteReadiness.observe}): one that
 *   commits clears the failure, one the store refuses for itself ({@link isStoreUnavailable}:
 *   SQLite full, I/O error, read-only, busy; PostgreSQL disk full, down, read-only) is the
 *   failure; one refused for a row's own fault says nothing of the store;
 * - while the last of those failed, {@link WriteReadiness.canTakeApplications} writes one probe row
 *   (`store_probe`, {@link PROBE_FILLER_BYTES} of filler) to learn whether the store takes writes
 *   again, so readiness recovers when space comes back even though a balancer sends no
 *   submissions to a server that is not ready. Callers meanwhile share the probe in flight.
 *
 * A healthy store is never written to by readiness: a probe runs only after a failure, and ends
 * with the first write that commits.
 */
export class WriteReadiness {
  /** The store's error of the last write of applications, while no write has committed since. */
  private failure: { error: unknown } | undefined;
  /** Counts outcomes, so a probe's answer never overrides a batch's that came after it began. */
  private outcomes = 0;
  private probing: Promise<WriteCheck> | undefined;

  /**
   * @param db - the store's database, where the probe row is written.
   * @param clock - the time now in ms: the probe row's `written_at`.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /**
   * The answer index's follow-up (answer-index.ts), watched for the store's refusals only: one it
   * refuses is the failure (the group commit then refuses the batches behind it at once, without
   * writing them), one that commits says nothing of whether applications fit.
   */
  observeFailures(index: IndexWrite): IndexWrite {
    return async (limit) => {
      try {
        return await index(limit);
      } catch (error) {
        if (isStoreUnavailable(error)) this.record({ error });
        throw error;
      }
    };
  }

  /** `write`, reporting each batch's outcome here (the store's one hook on the submit path). */
  observe(write: BatchWrite): BatchWrite {
    return async (rows, children) => {
      try {
        const saved = await write(rows, children);
        this.record(undefined);
        return saved;
      } catch (error) {
        if (isStoreUnavailable(error)) this.record({ error });
        throw error;
      }
    };
  }

  /**
   * Whether the store takes applications now: yes when the last write of applications committed
   * (or none was tried yet); after one the store refused, yes only once a probe row commits.
   * @returns `{ ready: false, failure }` while the probe fails too, with the store's last error
   *   (for the log; never for a client).
   */
  async canTakeApplications(): Promise<WriteCheck> {
    if (this.failure === undefined) return { ready: true };
    this.probing ??= this.probe().finally(() => (this.probing = undefined));
    return this.probing;
  }

  private record(failure: { error: unknown } | undefined) {
    this.outcomes++;
    this.failure = failure;
  }

  /** Writes the probe row; records its outcome unless a batch's came meanwhile. */
  private async probe(): Promise<WriteCheck> {
    const before = this.outcomes;
    const row = { id: 1, written_at: new Date(this.clock()).toISOString(), filler: randomBytes(PROBE_FILLER_BYTES).toString('hex') };
    try {
      await this.db
        .insertInto('store_probe')
        .values(row)
        .onConflict((conflict) => conflict.column('id').doUpdateSet({ written_at: row.written_at, filler: row.filler }))
        .execute();
      if (this.outcomes === before) this.record(undefined);
    } catch (error) {
      if (this.outcomes === before) this.record({ error });
    }
    return this.failure === undefined ? { ready: true } : { ready: false, failure: this.failure.error };
  }
}
