import type { Submission } from '../engine/engine';
import { clearIdempotencyKey, getIdempotencyKey } from './idempotency';
import { submitApplication } from './submit';

/**
 * How the public page sends an application (`Submission`): the submit with its retries and its
 * Idempotency-Key. In the engine's chunk (`wizard-engine.ts`), not the first load: nothing is
 * sent before the engine has arrived.
 */
export const browserSubmission: Submission = {
  submit: submitApplication,
  idempotencyKeys: { get: getIdempotencyKey, clear: clearIdempotencyKey },
};
