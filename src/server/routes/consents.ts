import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WizardConfig } from '../../shared/config';
import { CONSENT_PURPOSE_PATTERN } from '../../shared/blocks/consent';
import { escapeHtml } from '../../shared/html';
import { DEFAULT_MESSAGES, formatMessage } from '../../shared/messages';
import { withoutBidiControls } from '../../shared/rules';
import { z } from '../../shared/zod';
import { labelText } from '../inbox/answers';
import { LINK_PAGE_ROUTE, TokenParams, type LinkPageOptions, paragraph, readLinkPageForms, sendLinkPage } from './link-pages';

/**
 * Where a creator withdraws a consent (requirements §21; docs/privacy.md, "Consents"), through the
 * link of their confirmation e-mail (`/consents/{id}.{mac}`: email/signed-links.ts), without an
 * account: `GET` lists the consents the application gave, each with a Withdraw button (one press,
 * as ticking the box was), and those withdrawn with the day; `POST` with `purpose` withdraws one
 * (recorded, audited, told to webhooks as `consent.withdrawn`) and shows the list again. In the
 * page's language. A changed link, or an erased application: 404.
 */
export const consentRoutes: FastifyPluginAsyncZod<LinkPageOptions> = async (app, options) => {
  readLinkPageForms(app);

  /** The list page of application `id` (its consents, from its records), or the 404 page. */
  const show = async (reply: FastifyReply, token: string, id: string | undefined) => {
    const application = id === undefined ? undefined : await app.store.applications.getApplication(id);
    const config: WizardConfig | undefined = application ? app.pageConfig(application.pageId) : undefined;
    const messages = config?.messages ?? DEFAULT_MESSAGES;
    const lang = config?.lang ?? 'en';
    if (!application || id === undefined) return sendLinkPage(reply, 404, options, config, messages.consentLinkGone, '');
    const records = await app.store.consents.records(id);
    const campaign = withoutBidiControls(config?.title ?? application.pageId);
    const date = (iso: string) => new Intl.DateTimeFormat([lang, 'en'], { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));
    const given = records.filter((record) => record.source === 'application' && record.given);
    const items = given.map((record) => {
      const withdrawn = records.find((later) => later.source === 'withdrawal' && later.purpose === record.purpose);
      const text = escapeHtml(labelText(record.text) || record.purpose);
      const action = withdrawn
        ? paragraph(formatMessage(messages.consentWithdrawnOn, { date: date(withdrawn.at) }))
        : `<form method="post" action="/consents/${escapeHtml(encodeURIComponent(token))}"><input type="hidden" name="purpose" value="${escapeHtml(record.purpose)}"><button type="submit" class="button button-secondary" aria-label="${escapeHtml(`${messages.consentWithdraw}: ${labelText(record.text) || record.purpose}`)}">${escapeHtml(messages.consentWithdraw)}</button></form>`;
      return `<li><p>${text}</p>${action}</li>`;
    });
    const body = [
      given.length > 0 ? paragraph(messages.consentPageIntro) : paragraph(messages.consentNone),
      items.length > 0 ? `<ul>${items.join('')}</ul>` : '',
    ].join('');
    return sendLinkPage(reply, 200, options, config, formatMessage(messages.consentPageTitle, { campaign }), body);
  };

  app.get('/consents/:token', { schema: { params: TokenParams, hide: true }, ...LINK_PAGE_ROUTE }, async (request, reply) =>
    show(reply, request.params.token, app.consentLinks.verify(request.params.token)),
  );

  app.post(
    '/consents/:token',
    {
      schema: { params: TokenParams, body: z.object({ purpose: z.string().check(z.regex(CONSENT_PURPOSE_PATTERN)) }), hide: true },
      ...LINK_PAGE_ROUTE,
    },
    async (request, reply) => {
      const id = app.consentLinks.verify(request.params.token);
      if (id === undefined) return show(reply, request.params.token, undefined);
      const outcome = await app.store.consents.withdraw(id, request.body.purpose);
      // Its `consent.withdrawn` event is in the outbox: the webhook sender looks now.
      if (outcome === 'withdrawn') app.webhookSender?.poke();
      return show(reply, request.params.token, outcome === 'gone' ? undefined : id);
    },
  );
};
