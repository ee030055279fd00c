/**
 * Resume on another device (docs/requirements.md §22; docs/decisions/034): at the applicant's
 * request, their draft is kept on the server, encrypted, and a link to it is e-mailed; the link
 * opens the page with every answer on any device for 7 days, then the draft is erased. Read by the
 * wizard (the hash it looks for), the server (how long it keeps one; what it takes) and the docs.
 */

import type { AgeScreenAnswers } from './build-payload';
import type { WizardConfig } from './config';

/** How long a draft kept for another device, and its link, last: 7 days, in ms. */
export const RESUME_DRAFT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * What the link's fragment starts with: `/?page={id}#resume={token}`. The token travels in the
 * fragment, which a browser never sends: no server log, proxy or referrer sees it.
 */
export const RESUME_HASH = '#resume=';

/** The largest draft kept, in bytes of JSON: the submit's own body limit is larger than any page's answers. */
export const MAX_RESUME_DRAFT_BYTES = 64 * 1024;

/** The most links one mailbox is sent in 24 hours: 3 (as confirmations to one address). */
export const MAX_RESUME_LINKS_PER_MAILBOX = 3;

/** Whether a page offers the link (requirements §22): it keeps drafts (`drafts` not `off`) and does not turn the offer off (`resumeLink`). */
export const offersResumeLink = (config: Pick<WizardConfig, 'resumeLink' | 'drafts'>): boolean => config.resumeLink && config.drafts !== 'off';

/** What the wizard sends to keep its draft (`POST /api/drafts/{pageId}`) and reads back (`GET /api/drafts/{token}`, with the page's id). */
export interface ResumeDraft {
  /** The step to return to (0-based). */
  step: number;
  /** The form's values, as the wizard keeps them. */
  values: Record<string, unknown>;
  /** The age screen's answers, when the page has one and they took (kept as sent, as a draft in the browser is). */
  screen?: AgeScreenAnswers | undefined;
}
