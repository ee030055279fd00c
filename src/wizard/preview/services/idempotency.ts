/**
 * The preview's `Idempotency-Key` (docs/decisions/021 "Preview"): the preview sends no
 * application, so it keeps no key, in storage or anywhere. Replaces `services/idempotency.ts` in
 * the preview build.
 */

/** A fixed key: nothing is sent under it. */
export function getIdempotencyKey(_pageId: string): string {
  return 'preview';
}

/** Nothing to forget. */
export function clearIdempotencyKey(_pageId: string): void {}
