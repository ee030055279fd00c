import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { escapeHtml } from '../../../shared/html';
import {
  ACCOUNT_EMAILS,
  APPLICANT_EMAILS,
  EMAIL_KINDS,
  EMAIL_STATES,
  EmailLogEntrySchema,
  EmailMessageSchema,
  EmailPreviewRequestSchema,
  EmailPreviewSchema,
  NotificationSettingBodySchema,
  NotificationSettingSchema,
  type EmailLogEntry,
} from '../../../shared/emails';
import { z } from '../../../shared/zod';
import { sendProblem } from '../../problem';
import { IdParams } from './params';
import { applicantEmail } from '../../email/content';
import { answerColumns } from '../../inbox/answers';
import { parseWizardConfig } from '../../../shared/config';
import type { LabelledAnswer } from '../../../shared/admin';

/** The messages a page of the log holds. */
const EMAILS_PER_PAGE = 50;

const LogQuery = z.object({
  /** The `createdAt` and id of the last message of the page before, as `{createdAt}|{id}`. */
  before: z.optional(z.string().check(z.regex(/^[^|]+\|[^|]+$/, 'expected "{createdAt}|{id}" of the last message shown'))),
  /** Only messages of this kind. */
  kind: z.optional(z.enum(EMAIL_KINDS)),
  /** Only messages in this state. */
  state: z.optional(z.enum(EMAIL_STATES)),
});

/** The sample applicant of the builder's preview. */
const SAMPLE: { person: { firstName: string; lastName: string; email: string }; answers: LabelledAnswer[] } = {
  person: { firstName: 'Alex', lastName: 'Example', email: 'alex@example.com' },
  answers: [
    { key: 'platforms.instagram.handle', label: 'Instagram handle', value: 'alex.makes' },
    { key: 'platforms.instagram.followers', label: 'Instagram followers', value: '12400' },
  ],
};

/** An example answer to the question at `key` (a stored answer's path) in the builder's preview. */
function exampleAnswer(key: string, names: readonly string[]): string {
  const last = key.slice(key.lastIndexOf('.') + 1);
  const person: Record<string, string> = { firstName: SAMPLE.person.firstName, lastName: SAMPLE.person.lastName, emailAddress: SAMPLE.person.email };
  if (person[last]) return person[last];
  if (last === 'handle') return 'alex.makes';
  if (last === 'followers') return '12400';
  return names[0] ?? 'Their answer';
}

/** The preview's answers: the draft's own questions, when it reads as a page, each with an example answer (a choice's first name); else {@link SAMPLE}'s. */
function previewAnswers(draft: unknown): LabelledAnswer[] {
  const { config } = parseWizardConfig(draft);
  if (!config) return SAMPLE.answers;
  return answerColumns(config).map((column) => ({
    key: column.key,
    label: column.label,
    value: exampleAnswer(column.key, Object.values(column.choices?.names ?? {})),
  }));
}

/**
 * Answers `html`, a message, for the inbox's frame: its own policy (no script, no request but
 * images, framed by the inbox only), whatever the message holds.
 */
function framed(reply: FastifyReply, html: string) {
  return reply
    .headers({
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; frame-ancestors 'self'; sandbox",
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    })
    .type('text/html; charset=utf-8')
    .send(html);
}

/**
 * Whether member `userId` may read what a message says: an applicant's message, every member (they
 * read the application); a team message, its recipient only (it carries their own unsubscription
 * link, and a link to turn their settings off is theirs).
 */
function readable(message: { userId: string | null }, userId: string): boolean {
  return message.userId === null || message.userId === userId;
}

/** Whether `reader` sees a message in the log at all: a message about an account ({@link ACCOUNT_EMAILS}) only when an owner or its recipient. */
function listable(message: { entry: EmailLogEntry; userId: string | null }, reader: { id: string; role: string }): boolean {
  return reader.role === 'owner' || !(ACCOUNT_EMAILS as readonly string[]).includes(message.entry.kind) || message.userId === reader.id;
}

/** Every page the team may hear of: the configured ones and the stored ones, with their titles. */
export async function knownPages(app: Parameters<FastifyPluginAsyncZod>[0]): Promise<{ pageId: string; title: string }[]> {
  const pages = new Map<string, string>();
  for (const [id, config] of app.filePages.all) pages.set(id, config.title);
  for (const record of await app.store.pages.list()) {
    const served = app.pageRegistry.get(record.id)?.config.title;
    let title = served;
    if (title === undefined) {
      try {
        title = String((JSON.parse(record.draft) as { title?: unknown }).title ?? record.id);
      } catch {
        title = record.id;
      }
    }
    pages.set(record.id, title);
  }
  return [...pages].map(([pageId, title]) => ({ pageId, title }));
}

/**
 * E-mail in the inbox API (docs/email.md, "API"): the e-mail log and one message's content (every
 * signed-in user), each member's own notification settings per page, and the builder's preview
 * of an applicant's message (editors).
 */
export const emailRoutes: FastifyPluginAsyncZod = async (app) => {
  const emails = app.store.emails;
  /**
   * The ids of `entries`' messages to a minor's guardian whose application is still held: the team
   * sees neither who they went to nor what they say until consent (requirements §20).
   */
  const heldOf = async (entries: readonly EmailLogEntry[]): Promise<Set<string>> => {
    const asked = entries.filter((entry) => entry.kind === 'guardian_consent' && entry.applicationId !== null);
    if (asked.length === 0) return new Set();
    const held = await app.store.guardians.ofIds(asked.map((entry) => entry.applicationId!));
    return new Set(asked.filter((entry) => held.has(entry.applicationId!)).map((entry) => entry.id));
  };
  const hidden = (entry: EmailLogEntry): EmailLogEntry => ({ ...entry, to: '', subject: '' });

  app.get(
    '/emails',
    { schema: { querystring: LogQuery, response: { 200: z.object({ items: z.array(EmailLogEntrySchema), next: z.nullable(z.string()) }) } } },
    async (request) => {
      const [createdAt, id] = request.query.before?.split('|') ?? [];
      const { kind, state } = request.query;
      const user = request.adminUser!;
      const readerId = user.role === 'owner' ? undefined : user.id;
      const items = await emails.list(EMAILS_PER_PAGE, createdAt && id ? { createdAt, id } : undefined, { kind, state, readerId });
      const held = await heldOf(items);
      const last = items.at(-1);
      return {
        items: items.map((item) => (held.has(item.id) ? hidden(item) : item)),
        next: items.length === EMAILS_PER_PAGE && last ? `${last.createdAt}|${last.id}` : null,
      };
    },
  );

  app.get('/emails/:id', { schema: { params: IdParams, response: { 200: EmailMessageSchema } } }, async (request, reply) => {
    const message = await emails.get(request.params.id);
    if (!message || !listable(message, request.adminUser!)) return sendProblem(reply, 404, 'There is no such message.');
    if ((await heldOf([message.entry])).size > 0) return { ...hidden(message.entry), html: '', text: '' };
    if (!message.content || !readable(message, request.adminUser!.id)) return { ...message.entry, html: '', text: '' };
    const { renderEmail } = await import('../../email/templates');
    const { html, text } = renderEmail(message.content);
    return { ...message.entry, html, text };
  });

  // A message's HTML as its recipient's mail client shows it, for the inbox's frame: its own policy
  // (no script, no request but images, framed by the inbox only), whatever the message holds.
  app.get('/emails/:id/html', { schema: { params: IdParams, hide: true }, helmet: false }, async (request, reply) => {
    const message = await emails.get(request.params.id);
    if (!message || !listable(message, request.adminUser!)) return sendProblem(reply, 404, 'There is no such message.');
    const { renderEmail } = await import('../../email/templates');
    return framed(
      reply,
      (message.content && readable(message, request.adminUser!.id) && (await heldOf([message.entry])).size === 0 && renderEmail(message.content).html) ||
        '<!doctype html><html lang="en"><title>No content</title><p>This message has no content: it is not made yet, or its application was erased.</p></html>',
    );
  });

  app.get('/notifications', { schema: { response: { 200: z.array(NotificationSettingSchema) } } }, async (request) => {
    const pages = await knownPages(app);
    const modes = await emails.settings(
      request.adminUser!.id,
      pages.map((page) => page.pageId),
    );
    return pages.map((page) => ({ ...page, mode: modes.get(page.pageId)! }));
  });

  app.put(
    '/notifications/:id',
    {
      schema: { params: IdParams, body: NotificationSettingBodySchema, response: { 200: NotificationSettingSchema } },
      config: { invalid: 'The setting is not valid.' },
    },
    async (request, reply) => {
      const page = (await knownPages(app)).find((known) => known.pageId === request.params.id);
      if (!page) return sendProblem(reply, 404, `There is no page "${request.params.id}".`);
      await emails.setSetting(request.adminUser!.id, [page.pageId], request.body.mode);
      return { ...page, mode: request.body.mode };
    },
  );

  // The builder's preview of a page's message, from its saved draft (the frame is loaded again after
  // each save), framed like a message of the log.
  app.get(
    '/pages/:id/email-preview/:kind',
    { schema: { params: z.object({ id: IdParams.shape.id, kind: z.enum(APPLICANT_EMAILS) }), hide: true }, helmet: false },
    async (request, reply) => {
      const { id, kind } = request.params;
      const stored = app.pages.has(id) ? undefined : await app.store.pages.get(id);
      let draft: unknown = app.pages.get(id);
      if (stored) {
        try {
          draft = JSON.parse(stored.draft) as unknown;
        } catch {
          draft = undefined;
        }
      }
      if (draft === undefined && !stored) return sendProblem(reply, 404, `There is no page "${id}".`);
      const fields = typeof draft === 'object' && draft !== null ? (draft as Record<string, unknown>) : {};
      const parsed = EmailPreviewRequestSchema.safeParse({
        kind,
        title: fields.title,
        lang: fields.lang,
        emails: fields.emails,
        privacyUrl: fields.privacyUrl,
        footerLinks: fields.footerLinks,
      });
      const { renderEmail } = await import('../../email/templates');
      const html = parsed.success
        ? renderEmail(applicantEmail({ kind, config: { ...parsed.data }, person: SAMPLE.person, answers: previewAnswers(draft), publicUrl: app.publicUrl }))
            .html
        : `<!doctype html><html lang="en"><title>No preview</title><p>The draft's ${escapeHtml(parsed.error.issues.map((issue) => issue.path.join('.')).join(', '))} must be mended before its e-mail can be shown.</p></html>`;
      return framed(reply, html);
    },
  );

  app.post(
    '/email-preview',
    {
      schema: { body: EmailPreviewRequestSchema, response: { 200: EmailPreviewSchema } },
      config: { invalid: 'The preview cannot be made.' },
      preValidation: app.requireEditor,
    },
    async (request) => {
      const { kind, ...config } = request.body;
      const { renderEmail } = await import('../../email/templates');
      return renderEmail(applicantEmail({ kind, config, ...SAMPLE, publicUrl: app.publicUrl }));
    },
  );
};
