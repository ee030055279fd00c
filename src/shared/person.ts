import { AuditEntrySchema } from './admin';
import { isEmail } from './rules';
import { z } from './zod';
import { ConsentRecordSchema } from './consents';

/**
 * A data-subject request (docs/privacy.md; GDPR Articles 15 and 17): everything the product holds
 * about one person, found by the e-mail address they applied with, on every page, exported as one
 * JSON document or erased.
 */

/** The personal info of a stored payload: first and last name and e-mail address, '' where absent (the e-mails', the guardian's page's, the webhooks' Slack messages'). */
export function personOf(payload: unknown): { firstName: string; lastName: string; email: string } {
  const info = ((payload as { personalInfo?: Record<string, unknown> } | null)?.personalInfo ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return { firstName: text(info.firstName), lastName: text(info.lastName), email: text(info.emailAddress) };
}

/** The address a request names: an e-mail address (any case; the applications keep it in lower case). */
export const PersonEmailSchema = z.string().check(
  z.trim(),
  z.refine((value) => isEmail(value), 'Enter the e-mail address the person applied with'),
);

/** `GET /api/admin/people/export?email=…` */
export const PersonQuerySchema = z.strictObject({ email: PersonEmailSchema });
/** `POST /api/admin/people/erase` */
export const PersonEraseBodySchema = z.strictObject({ email: PersonEmailSchema });

/** One application of the person, with everything kept about it. */
export const PersonApplicationSchema = z.object({
  id: z.string(),
  pageId: z.string(),
  /** The stored page's version it answered (absent for the default page). */
  pageVersion: z.optional(z.number()),
  receivedAt: z.string(),
  status: z.string(),
  /** Each answer with the question it answered, as the inbox shows them. */
  answers: z.array(z.object({ question: z.string(), answer: z.string() })),
  /** The application as it was stored. */
  submitted: z.unknown(),
  /** The team's notes about it. */
  notes: z.array(z.object({ author: z.string(), createdAt: z.string(), updatedAt: z.string(), text: z.string() })),
  /** The team's tags on it. */
  tags: z.array(z.string()),
  /** Its consent records: given or not as it was stored, and each withdrawal (requirements §21). */
  consents: z.array(ConsentRecordSchema),
  /** Its history: decisions and other changes, who made them and when. */
  history: z.array(AuditEntrySchema),
  /** The e-mails made about it: to the person (a confirmation, a decision) and to the team. */
  emails: z.array(
    z.object({
      kind: z.string(),
      state: z.string(),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      createdAt: z.string(),
      sentAt: z.nullable(z.string()),
    }),
  ),
  /** The events about it told to the brand's other tools: which, where (an origin) and how it went. */
  webhookDeliveries: z.array(
    z.object({ type: z.string(), endpoint: z.string(), state: z.string(), attempts: z.number(), occurredAt: z.string(), deliveredAt: z.nullable(z.string()) }),
  ),
});

/** What `export-person` and `GET /api/admin/people/export` answer. */
export const PersonExportSchema = z.object({
  about: z.object({ email: z.string(), exportedAt: z.string(), format: z.literal('person-export/1') }),
  applications: z.array(PersonApplicationSchema),
  /**
   * Minors' applications held for a parent's or guardian's answer (requirements §20) that the
   * address gave (`as: 'applicant'`) or names as the guardian (`as: 'guardian'`): unseen by the
   * team, erased after `expiresAt` without an answer.
   */
  awaitingGuardian: z.array(
    z.object({
      id: z.string(),
      pageId: z.string(),
      as: z.enum(['applicant', 'guardian']),
      receivedAt: z.string(),
      expiresAt: z.string(),
      submitted: z.unknown(),
    }),
  ),
  /**
   * Minors' applications the address consented to as their parent or guardian (requirements §20):
   * what is kept about them there — their name and address as the minor gave them, and the record
   * of their consent (what their page showed them, its SHA-256, when).
   */
  consentedAsGuardian: z.array(
    z.object({
      id: z.string(),
      pageId: z.string(),
      receivedAt: z.string(),
      guardian: z.object({ name: z.string(), emailAddress: z.string() }),
      consent: z.nullable(ConsentRecordSchema),
    }),
  ),
  /**
   * Drafts kept for another device whose link went to the address (requirements §22): which page,
   * when, and when they are erased. Their answers are sealed under the server's secret and read
   * only through the link the person was sent; they are what the person typed, not yet sent.
   */
  resumeDrafts: z.array(z.object({ id: z.string(), pageId: z.string(), createdAt: z.string(), expiresAt: z.string() })),
});
export type PersonExport = z.output<typeof PersonExportSchema>;

/** What erasing a person's data says, in the inbox and on the command line: how many applications of the address went. */
export function personErasedSentence(email: string, erased: number): string {
  return erased === 0
    ? `No application was given as ${email}: nothing to erase.`
    : `Erased ${erased} application${erased === 1 ? '' : 's'} of ${email}, with their answers, notes, tags, e-mails and webhook deliveries.`;
}
