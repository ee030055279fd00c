import type { Submission } from '../engine/engine';
import { prepareProof, proofFor } from './bot-check';
import { clearIdempotencyKey, getIdempotencyKey } from './idempotency';
import { isOwnUrl, submitApplication, type SubmitResult } from './submit';

/** Whether a failed send's only trouble was the bot check (400 at `Altcha`: a challenge expired or refused). */
const refusedProof = (result: SubmitResult) => !result.ok && result.status === 400 && result.errors?.every((error) => error.path === 'Altcha') === true;

/**
 * How the public page sends an application (`Submission`): the submit with its retries, its
 * Idempotency-Key and, to this server, its proof of work (docs/decisions/032: solved while the
 * applicant typed; asked for again once when the server refused it). In the engine's chunk
 * (`wizard-engine.ts`), not the first load: nothing is sent before the engine has arrived.
 */
export const browserSubmission: Submission = {
  submit: async (url, payload, pageId, policy) => {
    const key = getIdempotencyKey(pageId);
    // Another site (an allowed `requestUrl`) asks for no challenge of this server's. An empty header:
    // no challenge could be had (the server says why, and a server without the check ignores it).
    const send = async (again: boolean) =>
      submitApplication(url, payload, key, policy, isOwnUrl(url) ? { Altcha: (await proofFor(key, pageId, again)) ?? '' } : {});
    let result = await send(false);
    if (refusedProof(result)) result = await send(true);
    // The check's words are for a client's developer: the applicant is told the send failed.
    return refusedProof(result) ? { ok: false, status: 400 } : result;
  },
  prepare: (pageId) => prepareProof(getIdempotencyKey(pageId), pageId),
  idempotencyKeys: { get: getIdempotencyKey, clear: clearIdempotencyKey },
  resumeLater: () => import('../engine/resume-later').then((chunk) => chunk.ResumeLater),
};
