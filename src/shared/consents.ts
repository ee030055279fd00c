import { z } from './zod';

/**
 * Consent records (requirements §21; docs/privacy.md, "Consents"): what proves, per application and
 * purpose, what the applicant was shown and said (GDPR Article 7(1)). Made by the server as the
 * application is stored, from the configuration it was checked against; a withdrawal appends one.
 * Read by the server (the detail, the export, the withdrawal page) and the inbox.
 */

/** The purpose of a parent's or guardian's consent record (requirements §20): no consent block's (the block's pattern has no `:`). */
export const GUARDIAN_CONSENT_PURPOSE = 'parent-or-guardian:application';

/** One consent record: the exact text shown (the label's HTML as served) and its SHA-256 (hex), the page version (null: the default page), the page's language, the privacy notice's version, the time, given or not. */
export const ConsentRecordSchema = z.object({
  purpose: z.string(),
  given: z.boolean(),
  text: z.string(),
  sha256: z.string(),
  pageVersion: z.nullable(z.number()),
  lang: z.string(),
  privacyVersion: z.nullable(z.string()),
  /** ISO-8601 UTC. */
  at: z.string(),
  /**
   * `application`: as the application was stored; `withdrawal`: withdrawn since (given is then
   * false); `guardian`: a minor's parent or guardian consented to the application on their page
   * (purpose {@link GUARDIAN_CONSENT_PURPOSE}; the text is what that page showed them).
   */
  source: z.enum(['application', 'withdrawal', 'guardian']),
});
export type ConsentRecord = z.output<typeof ConsentRecordSchema>;
