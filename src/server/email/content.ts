import type { LabelledAnswer } from '../../shared/admin';
import type { WizardConfig } from '../../shared/config';
import { formatMessage, type MessageKey } from '../../shared/messages';
import { withoutBidiControls } from '../../shared/rules';
import { applicantEmailTexts, defaultEmailTexts, fillPlaceholders, type ApplicantEmail } from '../../shared/emails';

/**
 * What a message says (docs/email.md), kept in the e-mail log as it was made: its language,
 * subject (also its heading), paragraphs, a titled list (the confirmation's answers) and footer
 * lines; made into HTML (templates.tsx, React Email) when it is sent or shown, and into plain text
 * here. Keeping the description rather than the HTML keeps a message's row small, and a message
 * never sent (no `SMTP_URL`) costs no rendering. Each kind's description is made here too, without
 * React, so a message can be made where it is planned (the dispatch's transaction).
 */

/** A run of text: words, or a link. */
export type Run = string | { text: string; href: string };

/** A message's description. */
export interface EmailContent {
  lang: string;
  subject: string;
  paragraphs: Run[][];
  /** A titled list of label and value (the confirmation's answers). */
  list?: { heading: string; items: { label: string; value: string }[] };
  footer: Run[][];
}

/** Runs as plain text: a link as its words and its address in angle brackets. */
function runsText(runs: readonly Run[]): string {
  return runs.map((run) => (typeof run === 'string' ? run : `${run.text} <${run.href}>`)).join('');
}

/** The plain text of a message: paragraphs between blank lines, the list as `label: value`, the footer after `--`. */
export function contentText(content: EmailContent): string {
  const blocks = [content.subject, ...content.paragraphs.map(runsText)];
  if (content.list && content.list.items.length > 0)
    blocks.push([content.list.heading, ...content.list.items.map((item) => `${item.label}: ${item.value}`)].join('\n'));
  blocks.push('--', ...content.footer.map(runsText));
  return `${blocks.join('\n\n')}\n`;
}

/** `text` as paragraphs: split at blank lines. */
function paragraphs(body: string): Run[][] {
  return body
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => [paragraph]);
}

/** What an applicant's message is made from. */
export interface ApplicantEmailInput {
  kind: ApplicantEmail;
  config: Pick<WizardConfig, 'title' | 'lang' | 'emails' | 'privacyUrl' | 'footerLinks'>;
  person: { firstName: string; lastName: string; email: string };
  /** The answers, labelled (the confirmation lists them). */
  answers: readonly LabelledAnswer[];
  /** Absolute URLs need no base; a path is made absolute against it (`PUBLIC_URL`). */
  publicUrl: string;
  /** The confirmation of an application that gave a consent: the link to withdraw it (the placeholder of signed-links.ts in what the log keeps). */
  withdrawUrl?: string | undefined;
}

/** The page's privacy notice: `privacyUrl`, else a footer link that names privacy; absolute. */
export function privacyLink(config: ApplicantEmailInput['config'], publicUrl: string): string | undefined {
  const url = config.privacyUrl ?? config.footerLinks.find((link) => /privacy|confidentialit|datenschutz|privacidad/i.test(`${link.text} ${link.url}`))?.url;
  return url === undefined ? undefined : new URL(url, publicUrl).toString();
}

/**
 * An applicant's message (the confirmation, or a decision's): the page's texts (or its language's
 * defaults) with the placeholders filled, the answers (the confirmation), the privacy link, in the
 * page's language.
 */
export function applicantEmail(input: ApplicantEmailInput): EmailContent {
  const { config, person, kind } = input;
  // What applicants and editors typed is set inside the page's sentences: no direction control of it turns the rest around.
  const values = {
    firstName: withoutBidiControls(person.firstName),
    lastName: withoutBidiControls(person.lastName),
    email: person.email,
    campaign: withoutBidiControls(config.title),
  };
  const texts = applicantEmailTexts(config.emails, config.lang, kind);
  const frame = defaultEmailTexts(config.lang).frame;
  const privacy = privacyLink(config, input.publicUrl);
  return {
    lang: config.lang,
    subject: fillPlaceholders(texts.subject, values),
    paragraphs: paragraphs(fillPlaceholders(texts.body, values)),
    list:
      kind === 'confirmation'
        ? { heading: frame.answers, items: input.answers.map((answer) => ({ label: answer.label, value: answer.text ?? answer.value })) }
        : undefined,
    footer: [
      [fillPlaceholders(frame.why, values)],
      ...(privacy ? [[{ text: frame.privacy, href: privacy }]] : []),
      ...(input.withdrawUrl ? [[{ text: frame.withdraw, href: input.withdrawUrl }]] : []),
    ],
  };
}

/** A team message's footer: why it was sent, and how to stop it. */
function teamFooter(why: string, unsubscribeUrl: string | undefined, settingsUrl: string): Run[][] {
  return [
    [why],
    unsubscribeUrl
      ? [{ text: 'Unsubscribe', href: unsubscribeUrl }, ' or ', { text: 'change your notification settings', href: settingsUrl }, '.']
      : [{ text: 'Change your notification settings', href: settingsUrl }, '.'],
  ];
}

/** A team member's notification of one new application: who applied to which page, and the link to it. */
export function notificationEmail(input: {
  campaign: string;
  name: string;
  applicationUrl: string;
  unsubscribeUrl: string;
  settingsUrl: string;
}): EmailContent {
  const campaign = withoutBidiControls(input.campaign);
  const name = withoutBidiControls(input.name);
  return {
    lang: 'en',
    subject: `New application to ${campaign}: ${name}`,
    paragraphs: [[`${name} applied to ${campaign}.`], [{ text: 'Open the application in the inbox', href: input.applicationUrl }]],
    footer: teamFooter(`You receive this because you asked to hear of each application to ${campaign}.`, input.unsubscribeUrl, input.settingsUrl),
  };
}

/** A team member's daily digest: the new applications of each page on the digest, counted, with a link to each page's list. */
export function digestEmail(input: {
  pages: readonly { title: string; count: number; url: string }[];
  unsubscribeUrl: string;
  settingsUrl: string;
}): EmailContent {
  const total = input.pages.reduce((sum, page) => sum + page.count, 0);
  return {
    lang: 'en',
    subject: `${total} new application${total === 1 ? '' : 's'} in the last 24 hours`,
    paragraphs: input.pages.map((page) => [{ text: withoutBidiControls(page.title), href: page.url }, `: ${page.count} new`]),
    footer: teamFooter('You receive this daily digest for the pages you follow.', input.unsubscribeUrl, input.settingsUrl),
  };
}

/** An editor's message that a webhook endpoint was disabled, and why. */
export function endpointDisabledEmail(input: { url: string; reason: string; integrationsUrl: string }): EmailContent {
  return {
    lang: 'en',
    subject: 'A webhook endpoint was disabled',
    paragraphs: [
      [`The endpoint ${input.url} receives no more events: ${input.reason}`],
      [
        'Its deliveries wait. Once the receiver works again, ',
        { text: 'turn the endpoint on in Integrations', href: input.integrationsUrl },
        ' and replay what failed.',
      ],
    ],
    footer: [['You receive this because you are an editor of the inbox.']],
  };
}

/** What a page's one-link message is made from: its configuration, the day its link stops working, the link, the server's address. */
interface PageLinkEmailInput {
  config: Pick<WizardConfig, 'title' | 'lang' | 'messages' | 'privacyUrl' | 'footerLinks' | 'emails'>;
  expiresAt: string;
  link: string;
  publicUrl: string;
}

/**
 * A message of a page to someone outside the team with one link that stops working on a day (a
 * guardian's request, an applicant's link to finish elsewhere), in the page's language: its subject,
 * body and button from the page's `messages`, filled with `{campaign}`, `{date}` (the day `expiresAt`
 * falls on, in the page's language) and `values`; the link as the button; the privacy notice's link
 * in the footer.
 */
function pageLinkEmail(
  input: PageLinkEmailInput,
  texts: { subject: MessageKey; body: MessageKey; button: MessageKey },
  values: Record<string, string> = {},
): EmailContent {
  const { config } = input;
  const { messages } = config;
  const filled = {
    ...values,
    campaign: withoutBidiControls(config.title),
    date: new Intl.DateTimeFormat([config.lang, 'en'], { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(input.expiresAt)),
  };
  const privacy = privacyLink(config, input.publicUrl);
  return {
    lang: config.lang,
    subject: formatMessage(messages[texts.subject], filled),
    paragraphs: [...paragraphs(formatMessage(messages[texts.body], filled)), [{ text: messages[texts.button], href: input.link }]],
    footer: privacy ? [[{ text: defaultEmailTexts(config.lang).frame.privacy, href: privacy }]] : [],
  };
}

/**
 * The message asking a minor's parent or guardian for consent (requirements §20), in the page's
 * language (its `messages`): who would like to apply to what, that no one at the brand reads it
 * without consent, the link to read and answer (`link`: the placeholder of guardian-links.ts in what
 * the log keeps) and the day it expires, in the page's language.
 */
export function guardianConsentEmail(input: PageLinkEmailInput & { applicantName: string }): EmailContent {
  return pageLinkEmail(
    input,
    { subject: 'guardianEmailSubject', body: 'guardianEmailBody', button: 'guardianEmailButton' },
    { name: withoutBidiControls(input.applicantName) },
  );
}

/**
 * An applicant's link to continue their application on another device (requirements §22), in the
 * page's language (its `messages`): what it opens, until when (the day, in the page's language)
 * and that a message not asked for can be ignored; the link (`link`: signed-links.ts's
 * `RESUME_LINK_PLACEHOLDER` in what the log keeps).
 */
export function resumeLinkEmail(input: PageLinkEmailInput): EmailContent {
  return pageLinkEmail(input, { subject: 'resumeEmailSubject', body: 'resumeEmailBody', button: 'resumeEmailButton' });
}

/** The date and time `iso` in words, in UTC (a team message: English). */
const utcTime = (iso: string) => `${new Intl.DateTimeFormat('en', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso))} UTC`;

/**
 * The invitation to join the team (docs/inbox.md, "The team"): who invited whom, with what role,
 * the link to choose a password (`link`: signed-links.ts's `INVITATION_LINK_PLACEHOLDER` in what the log keeps)
 * and when it expires.
 */
export function invitationEmail(input: { invitedBy: string; role: string; roleDescription: string; expiresAt: string; link: string }): EmailContent {
  return {
    lang: 'en',
    subject: 'You are invited to the applications inbox',
    paragraphs: [
      [`${input.invitedBy} invited you to the brand's applications inbox as ${input.role} (${input.roleDescription.toLowerCase()}).`],
      [{ text: 'Choose your password and sign in', href: input.link }],
      [`The link works once, until ${utcTime(input.expiresAt)}. If you did not expect this invitation, ignore this message.`],
    ],
    footer: [['You receive this because a member of the team invited this address.']],
  };
}

/** A password reset's message: the link to choose a new password (`link`: `RESET_LINK_PLACEHOLDER` in the log) and when it expires. */
export function passwordResetEmail(input: { expiresAt: string; link: string }): EmailContent {
  return {
    lang: 'en',
    subject: 'Reset your password for the applications inbox',
    paragraphs: [
      ['Someone asked to reset the password of your account in the applications inbox.'],
      [{ text: 'Choose a new password', href: input.link }],
      [
        `The link works once, until ${utcTime(input.expiresAt)}; using it signs you out everywhere. If you did not ask for it, ignore this message: your password stays as it is.`,
      ],
    ],
    footer: [['You receive this because a password reset was asked for this address.']],
  };
}

/**
 * A member's security notice (docs/inbox.md, "The team"): what changed in how they sign in, when
 * and from where (a client's address, or `command line`), and what to do if it was not them —
 * reset the password (`signInUrl`: the inbox's sign-in, "Forgot your password?") and tell an owner.
 * @param event - the change in words ({@link TEAM_EVENT_LABELS}), `detail` beside it (a passkey's name).
 */
export function securityNoticeEmail(input: { event: string; detail?: string | null; at: string; address: string; signInUrl: string }): EmailContent {
  return {
    lang: 'en',
    subject: `Your applications inbox account: ${input.event.toLowerCase()}`,
    paragraphs: [
      ['The way you sign in to the applications inbox changed.'],
      [`What: ${input.event}${input.detail ? ` (${withoutBidiControls(input.detail)})` : ''}`],
      [`When: ${utcTime(input.at)}`],
      [`From: ${input.address}`],
      [
        'If this was you, there is nothing to do. If it was not, ',
        { text: 'reset your password', href: input.signInUrl },
        ' ("Forgot your password?") and tell an owner of your team, who can end your sessions.',
      ],
    ],
    footer: [['You receive this because the sign-in of your account in the inbox changed.']],
  };
}
