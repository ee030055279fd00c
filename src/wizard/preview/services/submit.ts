/**
 * The preview's submit (docs/decisions/021 "Preview"; `previewServices`): no request. The wizard
 * goes on as after a stored application (the thank-you step) and the builder is told
 * (`wizard-preview:submitted`).
 */
import type { ApplicationPayload } from '../../../shared/payload';
import type { RetryPolicy, SubmitResult } from '../../services/submit';
import { postToBuilder } from '../channel';

/**
 * Sends nothing and succeeds, as the real submit does for a page without a request URL (requirements §7),
 * after telling the builder.
 * @returns `{ ok: true }`.
 */
export function previewSubmit(_url: string, _payload: ApplicationPayload, _pageId: string, _policy?: RetryPolicy): Promise<SubmitResult> {
  postToBuilder({ type: 'wizard-preview:submitted' });
  return Promise.resolve({ ok: true });
}
