import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { LabelledAnswer } from '../../shared/admin';
import type { WizardConfig } from '../../shared/config';
import { systemClock, type Clock } from '../clock';
import { answerColumns, labelledAnswers, readableAnswers, type AnswerColumn } from '../inbox/answers';
import type { EmailMaker, EmailOutcome, EmailReads, EmailRepository, EmailWork, MadeEmail } from '../store/emails';
import type { ApplicationForPayload } from '../store/outbox';
import type { HeldApplication } from '../store/schema';
import { mailboxKey } from '../../shared/rules';
import { withJitter } from '../webhooks/schedule';
import { WorkLoops } from '../work-loops';
import { applicantEmail, digestEmail, endpointDisabledEmail, guardianConsentEmail, notificationEmail, securityNoticeEmail, type EmailContent } from './content';
import { personOf } from '../../shared/person';
import { TEAM_EVENT_LABELS, type TeamEventKind } from '../../shared/team';
import { DIGEST_SCOPE, type UnsubscribeLinks } from './unsubscribe';
import {
  CONSENT_LINK_PLACEHOLDER,
  GUARDIAN_LINK_PLACEHOLDER,
  INVITATION_LINK_PLACEHOLDER,
  RESET_LINK_PLACEHOLDER,
  RESUME_LINK_PLACEHOLDER,
  resumeLinkUrl,
  type SignedLinks,
} from './signed-links';

/**
 * When a message the SMTP server did not take is tried again (docs/email.md, "Delivery"): after
 * 1 min, 5 min, 30 min, 2 h and 6 h, each stretched by up to a tenth (six attempts in about 9
 * hours); a refusal for good (a 5xx reply: no such mailbox, say) is not tried again.
 */
export const EMAIL_RETRY_WAITS_MS: readonly number[] = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000];

/** Messages a sender claims at once (each loop sends them one after the other, then records them together). */
const CLAIM_BATCH = 50;

/** The most confirmations one address is sent in 24 hours (docs/email.md, "To the creator"): 3. */
export const MAX_CONFIRMATIONS_PER_ADDRESS = 3;

/** What {@link MailSender} is made with. */
export interface MailSenderOptions {
  repository: EmailRepository;
  /** The SMTP transport (`SMTP_URL`), or undefined: every message is made and kept in the log, `logged`, not sent. */
  transport: Pick<Transporter, 'sendMail'> | undefined;
  /** The sender's address (`MAIL_FROM`). */
  from: string;
  /** The inbox's address, for links (`PUBLIC_URL`). */
  publicUrl: string;
  /** The configuration a page is served with, or undefined (a page this server does not serve). */
  pageConfig: (pageId: string) => WizardConfig | undefined;
  unsubscribe: UnsubscribeLinks;
  /** The links a minor's parent or guardian answers through, added to their message as it is sent (never kept). */
  guardianLinks?: SignedLinks | undefined;
  /** The links a creator withdraws a consent through, added to their confirmation as it is sent (never kept). */
  consentLinks?: SignedLinks | undefined;
  /** The links an invitee accepts through, and a member resets a password through, added as they are sent (never kept). */
  teamLinks?: { invitation: SignedLinks; passwordReset: SignedLinks } | undefined;
  /** The links an applicant continues on another device through (requirements §22), added as they are sent (never kept). */
  resumeLinks?: SignedLinks | undefined;
  log: FastifyBaseLogger;
  clock?: Clock;
  random?: () => number;
  /** How often the idle sender looks for messages due and digests to make, ms: 1 000. */
  pollMs?: number;
  /** Messages sent at once by this process: 2. */
  concurrency?: number;
  /** The hour (UTC, 0–23) the daily digest is made at: 8. */
  digestHour?: number;
}

/** What an attempt that threw came to: a 5xx reply is a refusal for good; anything else is tried again, up to the schedule's end. */
export function sendFailure(error: unknown, attempt: number, now: number, random: () => number = Math.random): EmailOutcome {
  const code = (error as { responseCode?: unknown }).responseCode;
  const message = error instanceof Error ? error.message : String(error);
  // A refused sign-in (535) is the operator's SMTP_URL, not the message: tried again on the schedule, until it is mended.
  if (typeof code === 'number' && code >= 500 && !isServerTrouble(error)) return { state: 'failed', error: `The SMTP server refused the message: ${message}` };
  if (attempt > EMAIL_RETRY_WAITS_MS.length) return { state: 'failed', error: `Every attempt failed; the last: ${message}` };
  return { state: 'pending', nextAttemptAt: Math.round(now + withJitter(EMAIL_RETRY_WAITS_MS[attempt - 1]!, random)), error: message };
}

/** Whether an SMTP error is the server's or its configuration's (sign-in refused, no connection), not the message's: nodemailer's `EAUTH`, `ECONNECTION`, `ETIMEDOUT`, `ESOCKET`, `EDNS`, `ETLS`. */
export function isServerTrouble(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && ['EAUTH', 'ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ETLS'].includes(code);
}

/** The consents of a stored payload, by purpose (requirements §21). */
function consentsOf(payload: unknown): Record<string, unknown> {
  const consents = (payload as { consents?: unknown } | null)?.consents;
  return typeof consents === 'object' && consents !== null ? (consents as Record<string, unknown>) : {};
}

/**
 * Makes and sends the e-mail the store plans (docs/email.md; docs/decisions/026): claims a message
 * due, makes it at its first attempt (from the application, page and member as they are then),
 * sends it through SMTP or, without `SMTP_URL`, keeps it in the log, and records the outcome.
 * Also plans the daily digests. Runs in every server process; a message is claimed by one at a time.
 */
export class MailSender {
  private readonly clock: Clock;
  private readonly loops: WorkLoops;
  private readonly columns = new WeakMap<WizardConfig, AnswerColumn[]>();
  /** The SMTP server could not be used at the last attempt (said once at warn). */
  private smtpFailing = false;
  /** When the digests were last planned (ms): once a minute is enough. */
  private digestsPlannedAt = 0;

  constructor(private readonly options: MailSenderOptions) {
    this.clock = options.clock ?? systemClock;
    this.loops = new WorkLoops('e-mail', options.log, options.pollMs ?? 1000);
  }

  /** Starts sending: what waited for another attempt goes at once (`SMTP_URL` may have been mended), then the loops. */
  async start(): Promise<void> {
    if (this.options.transport) await this.options.repository.retryWaiting();
    this.loops.start(Array.from({ length: this.options.concurrency ?? 2 }, (_, index) => ({ job: () => this.next(index === 0), timed: index === 0 })));
  }

  /** Looks for messages now (the dispatch planned some). */
  poke(): void {
    this.loops.poke();
  }

  /** Stops; resolves when the messages under way are recorded. */
  stop(): Promise<void> {
    return this.loops.stop();
  }

  private async next(plansDigests: boolean): Promise<boolean> {
    const { repository } = this.options;
    if (plansDigests && this.clock() - this.digestsPlannedAt >= 60_000) {
      this.digestsPlannedAt = this.clock();
      await repository.planDigests(this.options.digestHour ?? 8);
    }
    const claimed = await repository.claim(CLAIM_BATCH);
    if (claimed.length === 0) return false;
    // Those not made yet (a decision's, a digest, an endpoint's) are made together: a read per batch, not per message.
    const results = new Map<EmailWork, MadeEmail | string>(claimed.flatMap((work) => (work.made ? [[work, work.made] as const] : [])));
    const unmade = claimed.filter((work) => !work.made);
    let makeError: unknown;
    try {
      (await this.makeAll(repository.reads(), unmade)).forEach((result, index) => results.set(unmade[index]!, result));
    } catch (error) {
      // Making them failed (the store unreachable, mostly): tried again on the schedule, said at warn.
      this.options.log.warn({ err: error, emails: unmade.map((work) => work.id) }, 'e-mail could not be made; it is tried again');
      makeError = error;
    }
    // Sent together: the SMTP transport's pool (5 connections) queues what it cannot send at once.
    const attempts = await Promise.all(
      claimed.map(async (work) => {
        const result = results.get(work);
        const attempt = work.attempts + 1;
        if (result === undefined) return { work, made: undefined, outcome: sendFailure(makeError, attempt, this.clock(), this.options.random) };
        if (typeof result === 'string') return { work, made: undefined, outcome: { state: 'cancelled', error: result } satisfies EmailOutcome };
        return { work, made: result, outcome: await this.send(this.withLinks(work, result), attempt) };
      }),
    );
    // One transaction for the batch: a burst of messages costs a write per batch, not per message.
    await repository.record(attempts);
    return claimed.length === CLAIM_BATCH;
  }

  private async send(made: MadeEmail, attempt: number): Promise<EmailOutcome> {
    const { transport } = this.options;
    if (!transport) return { state: 'logged' };
    try {
      // Made into HTML and text only to be sent: a message kept in the log is shown from its description.
      const { renderEmail } = await import('./templates');
      const { subject, html, text } = renderEmail(made.content);
      await transport.sendMail({ from: this.options.from, to: made.to, subject, html, text, headers: made.headers });
      this.smtpFailing = false;
      return { state: 'sent' };
    } catch (error) {
      // The operator's to mend (a wrong password, the server down): said at warn, once until a message goes.
      if (isServerTrouble(error) && !this.smtpFailing)
        this.options.log.warn({ err: error }, 'the SMTP server cannot be used (SMTP_URL); e-mail waits and is tried again');
      this.smtpFailing ||= isServerTrouble(error);
      return sendFailure(error, attempt, this.clock(), this.options.random);
    }
  }

  /**
   * The message as it is sent: a guardian's carries their own link where the kept one says
   * {@link GUARDIAN_LINK_PLACEHOLDER}, a confirmation the creator's link to withdraw a consent where
   * it says {@link CONSENT_LINK_PLACEHOLDER}, an invitation and a password reset their link where
   * they say {@link INVITATION_LINK_PLACEHOLDER} and {@link RESET_LINK_PLACEHOLDER}, an applicant's
   * link to continue on another device where it says {@link RESUME_LINK_PLACEHOLDER} (links never
   * stored, so no one reading the log can act for them).
   */
  private withLinks(work: EmailWork, made: MadeEmail): MadeEmail {
    const { guardianLinks, consentLinks, teamLinks, resumeLinks, publicUrl } = this.options;
    const id = work.applicationId;
    const linkId = typeof work.data.linkId === 'string' ? work.data.linkId : undefined;
    const hrefs: Record<string, () => string | undefined> = {
      [GUARDIAN_LINK_PLACEHOLDER]: () => (work.kind === 'guardian_consent' && id !== null ? guardianLinks?.url(id) : undefined),
      [CONSENT_LINK_PLACEHOLDER]: () => (work.kind === 'confirmation' && id !== null ? consentLinks?.url(id) : undefined),
      [INVITATION_LINK_PLACEHOLDER]: () => (work.kind === 'invitation' && linkId ? teamLinks?.invitation.url(linkId) : undefined),
      [RESET_LINK_PLACEHOLDER]: () => (work.kind === 'password_reset' && linkId ? teamLinks?.passwordReset.url(linkId) : undefined),
      [RESUME_LINK_PLACEHOLDER]: () =>
        work.kind === 'resume_link' && linkId && work.pageId !== null && resumeLinks ? resumeLinkUrl(resumeLinks, publicUrl, linkId, work.pageId) : undefined,
    };
    const runs = (lines: EmailContent['paragraphs']) =>
      lines.map((line) =>
        line.map((run) => {
          const link = typeof run === 'string' ? undefined : hrefs[run.href]?.();
          return link && typeof run !== 'string' ? { ...run, href: link } : run;
        }),
      );
    return { ...made, content: { ...made.content, paragraphs: runs(made.content.paragraphs), footer: runs(made.content.footer) } };
  }

  private answerColumnsOf(config: WizardConfig): AnswerColumn[] {
    let columns = this.columns.get(config);
    if (!columns) this.columns.set(config, (columns = answerColumns(config)));
    return columns;
  }

  /** The answers as the confirmation lists them: labelled, as a person reads them in the page's language ({@link readableAnswers}). */
  private answersOf(config: WizardConfig, payload: unknown): LabelledAnswer[] {
    return readableAnswers(labelledAnswers(this.answerColumnsOf(config), payload), config.lang);
  }

  private url(path: string): string {
    return new URL(path, this.options.publicUrl).toString();
  }

  /** How this sender makes messages where they are planned (the dispatch's transaction): {@link EmailRepository.plan}'s maker. */
  maker(): EmailMaker {
    return { sends: this.options.transport !== undefined, make: (reads, works) => this.makeAll(reads, works) };
  }

  /**
   * Makes `works`' messages (from the application, page and member as they are now), or says why
   * each has none to send; what they need is read at once for them all. One address gets at most
   * {@link MAX_CONFIRMATIONS_PER_ADDRESS} confirmations in 24 hours, those of `works` counted too.
   * @throws the store's error (none of them is made).
   */
  private async makeAll(reads: EmailReads, works: readonly EmailWork[]): Promise<(MadeEmail | string)[]> {
    if (works.length === 0) return [];
    const unique = (values: (string | null)[]) => [...new Set(values.filter((value): value is string => value !== null))];
    const members = await reads.userEmails(unique(works.map((work) => work.userId)));
    const applications = await reads.applications(
      unique(
        works.map((work) => (work.kind === 'digest' || work.kind === 'endpoint_disabled' || work.kind === 'guardian_consent' ? null : work.applicationId)),
      ),
    );
    const guardianWorks = works.filter((work) => work.kind === 'guardian_consent');
    const held = guardianWorks.length > 0 ? await reads.heldApplications(unique(guardianWorks.map((work) => work.applicationId))) : new Map();
    const mailboxes = unique(
      works
        .map((work) => (work.kind === 'confirmation' && work.applicationId !== null ? (applications.get(work.applicationId) ?? null) : null))
        .map((application) => (application ? mailboxKey(personOf(application.application).email) : null)),
    );
    const since = new Date(this.clock() - 24 * 60 * 60 * 1000).toISOString();
    const confirmations = mailboxes.length > 0 ? await reads.confirmationCounts(mailboxes, since) : new Map<string, number>();
    return works.map((work) =>
      work.kind === 'guardian_consent'
        ? this.guardianMessage(work.applicationId === null ? undefined : held.get(work.applicationId))
        : this.make(work, members, work.applicationId === null ? undefined : applications.get(work.applicationId), confirmations),
    );
  }

  /** The message asking a minor's parent or guardian for consent, or why there is none (answered or erased meanwhile). */
  private guardianMessage(held: HeldApplication | undefined): MadeEmail | string {
    if (!held) return 'The request was answered or erased before its e-mail was sent.';
    const config = this.options.pageConfig(held.pageId);
    if (!config) return 'The page is no longer served.';
    const person = personOf(held.payload);
    const content = guardianConsentEmail({
      config,
      applicantName: `${person.firstName} ${person.lastName}`.trim(),
      expiresAt: held.expiresAt,
      link: GUARDIAN_LINK_PLACEHOLDER,
      publicUrl: this.options.publicUrl,
    });
    return { to: held.guardianEmail, content, headers: {} };
  }

  /**
   * Makes one message, or says why there is none to send.
   * @param confirmations - confirmations to each mailbox (`mailboxKey`) in the last 24 hours; counted up as this makes one.
   */
  private make(
    work: EmailWork,
    members: ReadonlyMap<string, string>,
    application: ApplicationForPayload | undefined,
    confirmations: Map<string, number>,
  ): MadeEmail | string {
    const { pageConfig } = this.options;
    const member = work.userId === null ? undefined : members.get(work.userId);
    if (work.userId !== null && member === undefined) return 'The team member was removed.';
    if (work.kind === 'digest') {
      const { pages } = work.data as { pages: { pageId: string; count: number }[] };
      const content = digestEmail({
        pages: pages.map(({ pageId, count }) => ({
          title: pageConfig(pageId)?.title ?? pageId,
          count,
          url: this.url(`/admin/?pageId=${encodeURIComponent(pageId)}`),
        })),
        unsubscribeUrl: this.options.unsubscribe.url(work.userId!, DIGEST_SCOPE),
        settingsUrl: this.url('/admin/notifications'),
      });
      return { to: member!, content, headers: this.unsubscribeHeaders(work.userId!, DIGEST_SCOPE) };
    }
    if (work.kind === 'endpoint_disabled') {
      const { url, reason } = work.data as { url: string; reason: string };
      // Its origin only: an endpoint's URL may itself be a credential (a Slack incoming webhook's), and a mailbox is no place for one.
      return {
        to: member!,
        content: endpointDisabledEmail({ url: `${new URL(url).origin}/…`, reason, integrationsUrl: this.url('/admin/integrations') }),
        headers: {},
      };
    }
    if (work.kind === 'security_notice') {
      const { kind, detail, at, address } = work.data as { kind: TeamEventKind; detail: string | null; at: string; address: string };
      return {
        to: member!,
        content: securityNoticeEmail({ event: TEAM_EVENT_LABELS[kind] ?? kind, detail, at, address, signInUrl: this.url('/admin/') }),
        headers: {},
      };
    }
    if (!application) return 'The application was erased.';
    const config = pageConfig(application.pageId);
    if (!config) return 'The page is no longer served.';
    const person = personOf(application.application);
    if (work.kind === 'notification') {
      const content = notificationEmail({
        campaign: config.title,
        name: `${person.firstName} ${person.lastName}`.trim(),
        applicationUrl: this.url(`/admin/applications/${encodeURIComponent(application.id)}`),
        unsubscribeUrl: this.options.unsubscribe.url(work.userId!, application.pageId),
        settingsUrl: this.url('/admin/notifications'),
      });
      return { to: member!, content, headers: this.unsubscribeHeaders(work.userId!, application.pageId) };
    }
    if ((work.kind === 'accepted' || work.kind === 'declined') && application.status !== work.kind)
      return 'The decision was undone before its e-mail was sent.';
    if (work.kind !== 'confirmation' && work.kind !== 'accepted' && work.kind !== 'declined') return `Unknown kind ${String(work.kind)}.`;
    // Anyone may type anyone's address: one address gets a few confirmations a day, not one per application sent.
    if (work.kind === 'confirmation') {
      // Counted per mailbox: `ada+1@…`, `ADA@…` and `ada@…` reach one (mailboxKey).
      const mailbox = mailboxKey(person.email);
      const sent = confirmations.get(mailbox) ?? 0;
      if (sent >= MAX_CONFIRMATIONS_PER_ADDRESS) return `This address was sent ${MAX_CONFIRMATIONS_PER_ADDRESS} confirmations in the last 24 hours.`;
      confirmations.set(mailbox, sent + 1);
    }
    const answers = work.kind === 'confirmation' ? this.answersOf(config, application.application) : [];
    // A consent given can be withdrawn as easily: the confirmation carries the link (requirements §21).
    const gave = work.kind === 'confirmation' && Object.values(consentsOf(application.application)).includes(true);
    const withdrawUrl = gave ? CONSENT_LINK_PLACEHOLDER : undefined;
    return {
      to: person.email,
      content: applicantEmail({ kind: work.kind, config, person, answers, publicUrl: this.options.publicUrl, withdrawUrl }),
      headers: {},
    };
  }

  /** A team message's one-click unsubscription (RFC 2369 `List-Unsubscribe`, RFC 8058 `List-Unsubscribe-Post`). */
  private unsubscribeHeaders(userId: string, scope: string): Record<string, string> {
    return { 'List-Unsubscribe': `<${this.options.unsubscribe.url(userId, scope)}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
  }
}
