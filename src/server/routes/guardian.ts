import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WizardConfig } from '../../shared/config';
import { escapeHtml } from '../../shared/html';
import { DEFAULT_MESSAGES, formatMessage, type Messages } from '../../shared/messages';
import { withoutBidiControls } from '../../shared/rules';
import { z } from '../../shared/zod';
import { guardianConsentRecord } from '../consents';
import { privacyLink } from '../email/content';
import { personOf } from '../../shared/person';
import { answerColumns, labelledAnswers, readableAnswers } from '../inbox/answers';
import type { HeldApplication } from '../store/schema';
import { LINK_PAGE_ROUTE, TokenParams, type LinkPageOptions, paragraph, readLinkPageForms, sendLinkPage } from './link-pages';

/** The values the guardian's messages fill in: the applicant's name, the campaign, the months applications are kept. */
function messageValues(config: WizardConfig, held: HeldApplication) {
  return { name: applicantName(held.payload), campaign: withoutBidiControls(config.title), months: config.retention.otherMonths };
}

/** The applicant's name as they typed it, without direction controls. */
function applicantName(payload: unknown): string {
  const { firstName, lastName } = personOf(payload);
  return withoutBidiControls(`${firstName} ${lastName}`.trim());
}

/**
 * A minor's parent or guardian answers here (requirements §20; docs/privacy.md, "A minor's parent
 * or guardian"), through the link of their e-mail (`/guardian/{id}.{mac}`: email/signed-links.ts):
 * `GET` shows what the minor sent and what the brand will do with it, in the page's language, with
 * two buttons (a link scanner that opens the link answers nothing); `POST` with `decision=consent`
 * releases the application to the inbox, with the consent in its history; `decision=refuse`
 * erases it. A link answered, expired or erased says so (410); one changed or made up, 404. The
 * pages are never cached and send no referrer (the link is the guardian's key).
 */
export const guardianRoutes: FastifyPluginAsyncZod<LinkPageOptions> = async (app, options) => {
  readLinkPageForms(app);

  /** The page's configuration the held application answered, or undefined when this server no longer serves it. */
  const configOf = (held: HeldApplication | undefined): WizardConfig | undefined => (held ? app.pageConfig(held.pageId) : undefined);
  /** What a link answered, expired, erased or made up says. */
  const gone = (reply: FastifyReply, status: 404 | 410, config: WizardConfig | undefined) => {
    const messages: Messages = config?.messages ?? DEFAULT_MESSAGES;
    return sendLinkPage(reply, status, options, config, messages.guardianLinkGone, '');
  };
  /**
   * What the brand will do with the application, as the page shows it above the buttons (HTML):
   * the page's words, its privacy notice's link, and the consent button's label — what the
   * guardian's consent record keeps, with its SHA-256.
   */
  const statement = (config: WizardConfig, held: HeldApplication) => {
    const values = messageValues(config, held);
    const privacy = privacyLink(config, app.publicUrl);
    return [
      paragraph(formatMessage(config.messages.guardianPageUse, values)),
      privacy ? `<p><a href="${escapeHtml(privacy)}" rel="noreferrer">${escapeHtml(privacy)}</a></p>` : '',
    ].join('');
  };

  /** The held application of a link, when the link is right and it still waits. */
  const heldOf = async (token: string): Promise<{ held?: HeldApplication; status?: 404 | 410 }> => {
    const id = app.guardianLinks.verify(token);
    if (id === undefined) return { status: 404 };
    const held = await app.store.guardians.get(id);
    if (!held || held.expiresAt <= new Date(app.clock()).toISOString()) return { status: 410 };
    return { held };
  };

  app.get('/guardian/:token', { schema: { params: TokenParams, hide: true }, ...LINK_PAGE_ROUTE }, async (request, reply) => {
    const { held, status } = await heldOf(request.params.token);
    const config = configOf(held);
    if (!held || !config) return gone(reply, status ?? 410, config);
    const { messages } = config;
    const values = messageValues(config, held);
    const answers = readableAnswers(labelledAnswers(answerColumns(config), held.payload), config.lang)
      .filter((answer) => !answer.key.startsWith('guardian.'))
      .map((answer) => `<dt>${escapeHtml(answer.label)}</dt><dd>${escapeHtml(answer.text ?? answer.value)}</dd>`)
      .join('');
    const action = `/guardian/${encodeURIComponent(request.params.token)}`;
    return sendLinkPage(
      reply,
      200,
      options,
      config,
      formatMessage(messages.guardianPageTitle, values),
      [
        paragraph(formatMessage(messages.guardianPageIntro, values)),
        `<dl>${answers}</dl>`,
        statement(config, held),
        `<form method="post" action="${escapeHtml(action)}">`,
        `<button type="submit" class="button button-primary" name="decision" value="consent">${escapeHtml(messages.guardianConsent)}</button> `,
        `<button type="submit" class="button button-secondary" name="decision" value="refuse">${escapeHtml(messages.guardianRefuse)}</button>`,
        '</form>',
      ].join(''),
    );
  });

  app.post(
    '/guardian/:token',
    { schema: { params: TokenParams, body: z.object({ decision: z.enum(['consent', 'refuse']) }), hide: true }, ...LINK_PAGE_ROUTE },
    async (request, reply) => {
      const { held, status } = await heldOf(request.params.token);
      const config = configOf(held);
      if (!held || !config) return gone(reply, status ?? 410, config);
      const { messages } = config;
      const values = { campaign: withoutBidiControls(config.title) };
      if (request.body.decision === 'refuse') {
        // A consent given at the same moment and already storing it wins: the link is answered.
        if (!(await app.store.guardians.erase(held.id))) return gone(reply, 410, config);
        return sendLinkPage(reply, 200, options, config, messages.guardianRefused, '');
      }
      // A page with a cap: the application takes one of its slots now, or the page is full (closed).
      const served = app.pageRegistry.get(held.pageId);
      const shown = `${statement(config, held)}${paragraph(messages.guardianConsent)}`;
      const record = guardianConsentRecord(config, held.pageVersion ?? undefined, shown, new Date(app.clock()).toISOString());
      const outcome = await app.store.guardians.release(held.id, served !== undefined && served.maxApplications !== null, record);
      if (outcome === 'gone') return gone(reply, 410, config);
      if (outcome === 'full') {
        if (served) app.pageRegistry.full(served.id);
        return sendLinkPage(reply, 200, options, config, messages.closed, '');
      }
      // Its `application.submitted` event and confirmation are in the outbox now: the senders look.
      app.webhookSender?.poke();
      return sendLinkPage(reply, 200, options, config, formatMessage(messages.guardianConsented, values), '');
    },
  );
};
