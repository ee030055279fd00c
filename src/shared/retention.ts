import { z } from './zod';

/**
 * How long a page keeps its applications (docs/privacy.md, "Retention"; requirements §19): a
 * declined application a number of months after its decision, every other one a number of
 * months after it arrived; then the server erases it, as the inbox's erasure does. No
 * application is kept for ever (the 2025 COPPA amendments ask for a written retention policy
 * without indefinite retention; GDPR Article 5(1)(e), storage limitation).
 */

/** The most months a page may keep an application: 10 years. */
export const MAX_RETENTION_MONTHS = 120;

const months = z
  .number()
  .check(
    z.int('Enter a whole number of months'),
    z.minimum(1, 'Keep applications at least a month'),
    z.maximum(MAX_RETENTION_MONTHS, 'Keep applications at most 120 months (10 years)'),
  );

/** The defaults: a declined application 6 months after its decision, every other 24 months after it arrived. */
export const DEFAULT_RETENTION = { declinedMonths: 6, otherMonths: 24 } as const;

/** A page's `retention`: months, 1 to {@link MAX_RETENTION_MONTHS}; {@link DEFAULT_RETENTION} when absent. */
export const RetentionSchema = z._default(
  z.strictObject({ declinedMonths: z._default(months, DEFAULT_RETENTION.declinedMonths), otherMonths: z._default(months, DEFAULT_RETENTION.otherMonths) }),
  { ...DEFAULT_RETENTION },
);
export type Retention = z.output<typeof RetentionSchema>;

/**
 * `iso` plus `months` calendar months, in UTC; a day past the new month's end is its last day
 * (31 January plus one month is 28 or 29 February).
 */
export function addMonths(iso: string, months: number): string {
  const date = new Date(iso);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, last));
  return date.toISOString();
}

/**
 * When an application is erased under `retention` (ISO-8601 UTC): a declined one
 * `declinedMonths` after its decision (`decidedAt`; its arrival when unknown), any other
 * `otherMonths` after it arrived.
 */
export function erasureDue(application: { status: string; receivedAt: string; decidedAt?: string | undefined }, retention: Retention): string {
  return application.status === 'declined'
    ? addMonths(application.decidedAt ?? application.receivedAt, retention.declinedMonths)
    : addMonths(application.receivedAt, retention.otherMonths);
}
