import { isPlainLongText, isPlainText } from './rules';
import { urlOrPathProblem } from './urls';
import { z } from './zod';

/**
 * E-mail (docs/email.md; docs/decisions/026): the texts a page configures for the messages sent
 * to its applicants, the team's notification settings, and what the inbox API answers about the
 * e-mail log. Read by the page's schema, the server's renderer and routes, and the inbox.
 */

/** The messages a page sends its applicants: the confirmation of a stored application, and one per decision. */
export const APPLICANT_EMAILS = ['confirmation', 'accepted', 'declined'] as const;
export type ApplicantEmail = (typeof APPLICANT_EMAILS)[number];

/**
 * Every kind of message: the applicant's, the team's (`notification` per application, the daily
 * `digest`), `endpoint_disabled` to editors, `guardian_consent` to a minor's parent or guardian
 * (requirements §20), the team's `invitation`, `password_reset` and `security_notice` (a
 * member's password or second factor changed: docs/inbox.md, "The team"), and `resume_link`, an
 * applicant's link to continue on another device (requirements §22).
 */
export const EMAIL_KINDS = [
  ...APPLICANT_EMAILS,
  'notification',
  'digest',
  'endpoint_disabled',
  'guardian_consent',
  'invitation',
  'password_reset',
  'security_notice',
  'resume_link',
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/**
 * The messages about team members' accounts (who is invited; whose password was reset; whose
 * sign-in changed): the e-mail log lists them to owners and to the member each went to only, as
 * the team's audit log is the owners' (docs/email.md, "The e-mail log").
 */
export const ACCOUNT_EMAILS = ['invitation', 'password_reset', 'security_notice'] as const satisfies readonly EmailKind[];

/**
 * A message's state: `pending` (an attempt to come, or the decision's undo window still open),
 * `sent` (the SMTP server took it), `logged` (no `SMTP_URL`: kept in the log, not sent), `failed`
 * (refused for good, or every attempt failed), `cancelled` (the decision undone within its window,
 * the application erased, or no one to send it to).
 */
export const EMAIL_STATES = ['pending', 'sent', 'logged', 'failed', 'cancelled'] as const;
export type EmailState = (typeof EMAIL_STATES)[number];

/** How a team member hears of a page's new applications: one e-mail each, one a day, or none. */
export const NOTIFICATION_MODES = ['immediate', 'digest', 'off'] as const;
export type NotificationMode = (typeof NOTIFICATION_MODES)[number];

/** What a member who has said nothing gets: the daily digest (a busy campaign never floods anyone's mailbox; decision 026). */
export const DEFAULT_NOTIFICATION_MODE: NotificationMode = 'digest';

/** How long a decision's e-mail waits, in ms, so that undoing the decision cancels it: 5 minutes. */
export const DECISION_EMAIL_DELAY_MS = 5 * 60 * 1000;

/** The longest subject a page may set, in characters. */
export const MAX_EMAIL_SUBJECT_LENGTH = 200;
/** The longest body a page may set, in characters. */
export const MAX_EMAIL_BODY_LENGTH = 5000;

/**
 * The placeholders a subject or body may use, each replaced by the applicant's value when the
 * message is made: `{firstName}`, `{lastName}`, `{email}` (the address they gave) and `{campaign}`
 * (the page's title).
 */
export const EMAIL_PLACEHOLDERS = ['firstName', 'lastName', 'email', 'campaign'] as const;
export type EmailPlaceholder = (typeof EMAIL_PLACEHOLDERS)[number];

/** The placeholders of `text` that are not {@link EMAIL_PLACEHOLDERS}, as written (`{name}`). */
export function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(/\{([^{}]*)\}/g)].filter(([, name]) => !(EMAIL_PLACEHOLDERS as readonly string[]).includes(name!)).map(([whole]) => whole);
}

/** `text` with each placeholder replaced by its value (a placeholder without one stays as written). */
export function fillPlaceholders(text: string, values: Partial<Record<EmailPlaceholder, string>>): string {
  return text.replace(/\{([A-Za-z]+)\}/g, (whole, name: string) => values[name as EmailPlaceholder] ?? whole);
}

const placeholdersKnown = (text: string) => unknownPlaceholders(text).length === 0;
const placeholderMessage = `use only the placeholders ${EMAIL_PLACEHOLDERS.map((name) => `{${name}}`).join(', ')}`;

/** One message a page sends: whether, and its subject and body (plain text, paragraphs between blank lines); absent texts are the defaults of the page's language. */
function applicantEmailSchema(enabled: boolean) {
  return z._default(
    z.strictObject({
      enabled: z._default(z.boolean(), enabled),
      subject: z.optional(
        z
          .string()
          .check(
            z.maxLength(MAX_EMAIL_SUBJECT_LENGTH),
            z.refine(isPlainText, 'expected one line of plain text'),
            z.refine(placeholdersKnown, placeholderMessage),
          ),
      ),
      body: z.optional(
        z.string().check(z.maxLength(MAX_EMAIL_BODY_LENGTH), z.refine(isPlainLongText, 'expected plain text'), z.refine(placeholdersKnown, placeholderMessage)),
      ),
    }),
    { enabled },
  );
}

/**
 * A page's `emails`: the confirmation (on unless turned off) and the decision messages (off unless
 * turned on). The texts are written in the page's language (`lang`).
 */
export const PageEmailsSchema = z._default(
  z.strictObject({
    confirmation: applicantEmailSchema(true),
    accepted: applicantEmailSchema(false),
    declined: applicantEmailSchema(false),
  }),
  { confirmation: { enabled: true }, accepted: { enabled: false }, declined: { enabled: false } },
);
export type PageEmails = z.output<typeof PageEmailsSchema>;

/** A message's texts. */
export interface EmailTexts {
  subject: string;
  body: string;
}

/** The words every message around the page's texts uses, in one language. */
export interface EmailFrame {
  /** Heading of the confirmation's answers. */
  answers: string;
  /** The privacy notice's link text. */
  privacy: string;
  /** The confirmation's link to withdraw a consent given (requirements §21). */
  withdraw: string;
  /** Why the applicant receives it. */
  why: string;
}

/** The default texts, by the language's primary subtag; a page in another language uses English unless it writes its own. */
export const DEFAULT_EMAIL_TEXTS: Record<'en' | 'fr', Record<ApplicantEmail, EmailTexts> & { frame: EmailFrame }> = {
  en: {
    confirmation: {
      subject: 'We received your application to {campaign}',
      body: 'Hi {firstName},\n\nThank you for applying to {campaign}. Our team reviews every application and will write to you at {email} once it has decided.\n\nThis is what you sent us.',
    },
    accepted: {
      subject: 'Welcome to {campaign}',
      body: 'Hi {firstName},\n\nGood news: your application to {campaign} was accepted. We will be in touch shortly with the next steps.',
    },
    declined: {
      subject: 'Your application to {campaign}',
      body: 'Hi {firstName},\n\nThank you for your interest in {campaign}. We have decided not to go ahead with your application this time.',
    },
    frame: {
      answers: 'Your answers',
      privacy: 'How we use your data',
      withdraw: 'Withdraw a consent you gave',
      why: 'You receive this e-mail because you applied to {campaign}.',
    },
  },
  fr: {
    confirmation: {
      subject: 'Nous avons bien reçu votre candidature à {campaign}',
      body: "Bonjour {firstName},\n\nMerci d'avoir postulé à {campaign}. Notre équipe étudie chaque candidature et vous écrira à {email} dès qu'elle aura décidé.\n\nVoici ce que vous nous avez envoyé.",
    },
    accepted: {
      subject: 'Bienvenue dans {campaign}',
      body: 'Bonjour {firstName},\n\nBonne nouvelle : votre candidature à {campaign} a été retenue. Nous vous contacterons très vite pour la suite.',
    },
    declined: {
      subject: 'Votre candidature à {campaign}',
      body: "Bonjour {firstName},\n\nMerci de l'intérêt que vous portez à {campaign}. Nous ne donnerons pas suite à votre candidature cette fois-ci.",
    },
    frame: {
      answers: 'Vos réponses',
      privacy: 'Comment nous utilisons vos données',
      withdraw: 'Retirer un consentement donné',
      why: 'Vous recevez cet e-mail car vous avez postulé à {campaign}.',
    },
  },
};

/** The default texts for a page in `lang` (a BCP 47 tag). */
export function defaultEmailTexts(lang: string): (typeof DEFAULT_EMAIL_TEXTS)['en'] {
  return lang.toLowerCase().split('-')[0] === 'fr' ? DEFAULT_EMAIL_TEXTS.fr : DEFAULT_EMAIL_TEXTS.en;
}

/** The texts of one of a page's messages: its own, or its language's defaults. */
export function applicantEmailTexts(emails: PageEmails, lang: string, kind: ApplicantEmail): EmailTexts {
  const defaults = defaultEmailTexts(lang)[kind];
  return { subject: emails[kind].subject ?? defaults.subject, body: emails[kind].body ?? defaults.body };
}

/** A message of the e-mail log as `GET /api/admin/emails` lists it. */
export const EmailLogEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(EMAIL_KINDS),
  state: z.enum(EMAIL_STATES),
  /** The recipient's address; '' before the message is made (a decision's, in its undo window) or after an erasure. */
  to: z.string(),
  subject: z.string(),
  pageId: z.nullable(z.string()),
  applicationId: z.nullable(z.string()),
  attempts: z.number(),
  lastError: z.nullable(z.string()),
  /** ISO-8601: when the next attempt is due (a pending message), else null. */
  nextAttemptAt: z.nullable(z.string()),
  createdAt: z.string(),
  sentAt: z.nullable(z.string()),
});
export type EmailLogEntry = z.infer<typeof EmailLogEntrySchema>;

/** One message with its content, as `GET /api/admin/emails/{id}` answers it: the HTML and the plain text ('' before it is made, or after an erasure). */
export const EmailMessageSchema = z.object({ ...EmailLogEntrySchema.shape, html: z.string(), text: z.string() });
export type EmailMessage = z.infer<typeof EmailMessageSchema>;

/** A team member's setting for one page, as `GET /api/admin/notifications` lists them. */
export const NotificationSettingSchema = z.object({ pageId: z.string(), title: z.string(), mode: z.enum(NOTIFICATION_MODES) });
export type NotificationSetting = z.infer<typeof NotificationSettingSchema>;

/** The body of `PUT /api/admin/notifications/{pageId}`. */
export const NotificationSettingBodySchema = z.strictObject({ mode: z.enum(NOTIFICATION_MODES) });

/**
 * The body of `POST /api/admin/email-preview`: which applicant message, and the page's draft as far
 * as the message reads it (its title, language, e-mail texts, privacy link and footer links).
 */
/** A URL the preview links: as a page's privacy and footer links must be (urlOrPathProblem: an http(s) URL or a path on this site). */
const previewUrl = z.string().check(
  z.maxLength(2000),
  z.refine((value) => urlOrPathProblem(value) === undefined, 'expected an http(s) URL or a path starting with /'),
);

export const EmailPreviewRequestSchema = z.strictObject({
  kind: z.enum(APPLICANT_EMAILS),
  title: z.string().check(z.maxLength(300)),
  lang: z.string().check(z.regex(/^[a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{2,8})*$/, 'expected a BCP 47 language tag')),
  emails: PageEmailsSchema,
  privacyUrl: z.optional(previewUrl),
  footerLinks: z._default(z.array(z.object({ text: z.string().check(z.maxLength(300)), url: previewUrl })).check(z.maxLength(20)), []),
});

/** A rendered message, as the builder's preview shows it. */
export const EmailPreviewSchema = z.object({ subject: z.string(), html: z.string(), text: z.string() });
export type EmailPreview = z.infer<typeof EmailPreviewSchema>;
