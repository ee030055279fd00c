import type { FastifyError, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WizardConfig } from '../../../shared/config';
import { publishCheck } from '../../../shared/page-checks';
import {
  CreatePageSchema,
  DraftSavedSchema,
  MAX_DRAFT_BYTES,
  MAX_PAGE_QUESTIONS,
  CLOSES_BEFORE_OPENING,
  PageDetailSchema,
  PageParams,
  PageSummarySchema,
  PageVersionParams,
  PublishPageSchema,
  RepublishPageSchema,
  PublishedSchema,
  SaveDraftSchema,
  UpdatePageSchema,
  type PageDetail,
  type PageSummary,
} from '../../../shared/pages';
import { z } from '../../../shared/zod';
import { answerColumns, filterQuestions } from '../../inbox/answers';
import type { PageVersionLabels, VersionRange } from '../../inbox/page-versions';
import { problemDetails, problemResponses, sendProblem } from '../../problem';
import { RetentionSchema } from '../../../shared/retention';
import { pageRetention } from '../../retention';
import { requestHost } from '../page';
import type { PageRecord, StaleRevision } from '../../store/pages';

/** The most applications a publication counts as erased by a shorter retention before it says "more than". */
const ERASES_COUNTED = 1000;

/** Room in a request body for what wraps the draft (`{"config":…,"revision":…}`). */
const BODY_OVERHEAD_BYTES = 1024;

/** The title of a draft as typed: its `title` when it is text, else the page's id. */
const titleOf = (draft: unknown, id: string) => {
  const title = (draft as { title?: unknown } | null)?.title;
  return typeof title === 'string' && title !== '' ? title : id;
};

/** The 413 of a draft over {@link MAX_DRAFT_BYTES} of JSON (UTF-8), whether its request's body was read or not. */
const draftTooLarge = (reply: FastifyReply) =>
  sendProblem(reply, 413, `The draft is larger than ${MAX_DRAFT_BYTES / 1024} KiB.`, {
    errors: [{ path: 'config', message: `At most ${MAX_DRAFT_BYTES / 1024} KiB of JSON` }],
  });

/** The 409 of a write made from a revision that is not the current one: who changed the draft since, and when. */
function sendStale(reply: FastifyReply, { stale }: StaleRevision) {
  return reply
    .code(409)
    .type('application/problem+json')
    .send({
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      detail: `${stale.updatedBy} changed this page at ${stale.updatedAt}: reload it before saving again.`,
      errors: [{ path: 'revision', message: `The current revision is ${stale.revision}` }],
      revision: stale.revision,
      updatedBy: stale.updatedBy,
      updatedAt: stale.updatedAt,
    });
}

/**
 * Campaign pages (the contract in docs/decisions/021), inside the authenticated inbox
 * API: viewers read (`GET /pages`, `GET /pages/{id}`, `GET /pages/{id}/versions/{n}`); editors
 * change (403 for viewers: `requireEditor`), each change with the anti-forgery header (the
 * session plugin): `POST /pages`, `PUT /pages/{id}/draft`, `POST /pages/{id}/publish`,
 * `POST /pages/{id}/versions/{n}/publish`, `PATCH /pages/{id}`. Every refusal is problem+json
 * with field paths. A change of what is served (publish, rollback, `PATCH`) reloads the page in
 * this process's registry, which the page and submit routes read, and, on PostgreSQL, tells the
 * other processes after it committed (`registry.changed`: `pg_notify`). A draft changes nothing
 * served and tells no one.
 */
export const pageAdminRoutes: FastifyPluginAsyncZod<{ labels: PageVersionLabels }> = async (app, options) => {
  /**
   * How many of page `id`'s applications `retention` (a configuration's, as stored: a draft's or
   * a version's) would put past their time now while the version it serves keeps them (at most
   * {@link ERASES_COUNTED}); 0 when it keeps them as long or longer, or cannot be read (the
   * publication's own check says why).
   */
  const erasedByPublishing = async (id: string, retention: unknown): Promise<number> => {
    const next = RetentionSchema.safeParse(retention);
    if (!next.success) return 0;
    const now = await pageRetention(app.pageConfig, app.store.pages, id);
    if (next.data.declinedMonths >= now.declinedMonths && next.data.otherMonths >= now.otherMonths) return 0;
    const expired = new Set(await app.store.applications.expired(id, next.data, app.clock(), ERASES_COUNTED));
    for (const kept of await app.store.applications.expired(id, now, app.clock(), ERASES_COUNTED)) expired.delete(kept);
    return expired.size;
  };

  /** The `retention` of a configuration stored as JSON text, or undefined. */
  const retentionIn = (text: string | undefined): unknown => {
    try {
      return text === undefined ? undefined : (JSON.parse(text) as { retention?: unknown } | null)?.retention;
    } catch {
      return undefined;
    }
  };

  /** 409: publishing shortens the page's retention and would erase `erases` applications within the hour (docs/privacy.md). */
  const refuseErasing = (reply: FastifyReply, erases: number) =>
    reply
      .code(409)
      .type('application/problem+json')
      .send({
        ...problemDetails(
          409,
          `Publishing shortens how long the page keeps applications: ${erases === ERASES_COUNTED ? `more than ${ERASES_COUNTED - 1}` : erases} of them would be erased within the hour. Publish again to confirm.`,
        ),
        errors: [{ path: 'retention', message: 'Shorter than the published version’s' }],
        erases,
      });

  const [defaultPage] = [...app.pages.values()] as [WizardConfig];
  const registry = app.pageRegistry;
  // A default page, this server's or another's on the database (docs/decisions/034): read from its file.
  const isDefault = (id: string) => app.filePages.all.has(id);

  // The default page's filter questions, worked out on first use (labels go through html-to-text).
  let defaultQuestions: PageSummary['questions'] | undefined;
  /**
   * A stored page's filter questions: every version's (a question only earlier versions
   * ask is offered too, marked with the last version that asks it), from the labels' cache of
   * parsed versions; none before its first version.
   * @param ranges - each page's last and served version (`PageVersionLabels.versionRange`).
   */
  const questionsOf = async (id: string, ranges: Map<string, VersionRange>) => {
    const range = ranges.get(id);
    return range === undefined ? [] : ((await options.labels.page(id, range))?.questions ?? []);
  };

  const summary = (page: PageRecord, applications: number, questions: PageSummary['questions']): PageSummary => ({
    pageId: page.id,
    questions,
    id: page.id,
    title: titleOf(JSON.parse(page.draft), page.id),
    status: page.status,
    publishedVersion: page.publishedVersion,
    revision: page.revision,
    hosts: page.hosts,
    opensAt: page.opensAt,
    closesAt: page.closesAt,
    maxApplications: page.maxApplications,
    applications,
  });
  const detail = async (page: PageRecord): Promise<PageDetail> => {
    const [counts, versions, ranges] = await Promise.all([
      app.store.pages.applicationCounts(),
      app.store.pages.versions(page.id),
      options.labels.versionRange(page.id),
    ]);
    return {
      ...summary(page, counts.get(page.id) ?? 0, await questionsOf(page.id, ranges)),
      draft: JSON.parse(page.draft) as unknown,
      updatedBy: page.updatedBy,
      updatedAt: page.updatedAt,
      versions,
    };
  };
  const readOnlyDefault = (reply: FastifyReply) => sendProblem(reply, 409, 'The default page is read from its file and cannot be changed here.');

  app.get('/pages', { schema: { response: { 200: z.array(PageSummarySchema) } } }, async () => {
    const [pages, counts, ranges] = await Promise.all([app.store.pages.list(), app.store.pages.applicationCounts(), options.labels.versionRange()]);
    const first: PageSummary = {
      pageId: defaultPage.pageId,
      questions: (defaultQuestions ??= filterQuestions(defaultPage)),
      id: defaultPage.pageId,
      title: defaultPage.title,
      status: 'published',
      publishedVersion: null,
      revision: 0,
      hosts: [],
      opensAt: null,
      closesAt: null,
      maxApplications: null,
      applications: counts.get(defaultPage.pageId) ?? 0,
      default: true,
    };
    // Other servers' default pages on this database (docs/decisions/034), read only as this one's.
    const elsewhere = [...app.filePages.elsewhere].map((id): PageSummary => {
      const config = app.filePages.all.get(id)!;
      return { ...first, pageId: id, id, title: config.title, questions: filterQuestions(config), applications: counts.get(id) ?? 0, elsewhere: true };
    });
    return [
      first,
      ...elsewhere,
      ...(await Promise.all(pages.map(async (page) => summary(page, counts.get(page.id) ?? 0, await questionsOf(page.id, ranges))))),
    ];
  });

  app.post(
    '/pages',
    {
      schema: { body: CreatePageSchema, response: { 201: PageDetailSchema, ...problemResponses(409) } },
      config: { invalid: 'The new page is not valid.' },
      preValidation: app.requireEditor,
    },
    async (request, reply) => {
      const { id, from } = request.body;
      const taken = (existing: string) =>
        sendProblem(
          reply,
          409,
          existing === id ? `There is a page "${id}" already.` : `There is a page "${existing}" already: an id may not differ from another in case only.`,
          {
            errors: [{ path: 'id', message: existing === id ? 'This id is taken' : `Too like "${existing}"` }],
          },
        );
      // The default page's id in any case is its own (`Creators` beside `creators`), as a stored page's is (the store).
      const defaultId = [...app.filePages.all.keys()].find((pageId) => pageId.toLowerCase() === id.toLowerCase());
      if (defaultId !== undefined) return taken(defaultId);
      const file = from === 'default' ? defaultPage : app.filePages.all.get(from);
      const source = file ? { draft: JSON.parse(JSON.stringify(file)) as unknown } : { page: from };
      const created = await app.store.pages.create(id, source, request.adminUser!.email);
      if (created === 'taken') {
        // Which page has it, to name it (a refusal only: one read of the short list).
        const existing = (await app.store.pages.list()).find((page) => page.id.toLowerCase() === id.toLowerCase());
        return taken(existing?.id ?? id);
      }
      if (created === 'source') return sendProblem(reply, 400, `There is no page "${from}" to copy.`, { errors: [{ path: 'from', message: 'No such page' }] });
      return reply.code(201).send(await detail(created));
    },
  );

  app.get('/pages/:id', { schema: { params: PageParams, response: { 200: PageDetailSchema } } }, async (request, reply) => {
    const page = await app.store.pages.get(request.params.id);
    if (!page) return sendProblem(reply, 404, `There is no stored page "${request.params.id}".`);
    return detail(page);
  });

  app.put(
    '/pages/:id/draft',
    {
      schema: { params: PageParams, body: SaveDraftSchema, response: { 200: DraftSavedSchema, ...problemResponses(409) } },
      config: { invalid: 'The draft is not valid.' },
      bodyLimit: MAX_DRAFT_BYTES + BODY_OVERHEAD_BYTES,
      preValidation: app.requireEditor,
      // A body over the limit is a draft over it: the same answer as the check below, at `config`.
      errorHandler: (error: FastifyError, request, reply) => {
        if (error.statusCode === 413) return draftTooLarge(reply);
        return app.errorHandler(error, request, reply);
      },
    },
    async (request, reply) => {
      if (isDefault(request.params.id)) return readOnlyDefault(reply);
      const draft = JSON.stringify(request.body.config);
      if (Buffer.byteLength(draft) > MAX_DRAFT_BYTES) {
        return draftTooLarge(reply);
      }
      const saved = await app.store.pages.saveDraft(request.params.id, draft, request.body.revision, request.adminUser!.email);
      if ('missing' in saved) return sendProblem(reply, 404, `There is no stored page "${request.params.id}".`);
      if ('stale' in saved) return sendStale(reply, saved);
      return saved;
    },
  );

  app.post(
    '/pages/:id/publish',
    {
      schema: { params: PageParams, body: PublishPageSchema, response: { 200: PublishedSchema, 201: PublishedSchema, ...problemResponses(409, 422) } },
      config: { invalid: 'The publish request is not valid.' },
      preValidation: app.requireEditor,
    },
    async (request, reply) => {
      const { id } = request.params;
      if (isDefault(id)) return readOnlyDefault(reply);
      // The questions the page's versions ask so far (from the labels' kept merge): with the
      // draft's, at most MAX_PAGE_QUESTIONS (a concurrent publish may pass it by one version's).
      const range = (await options.labels.versionRange(id)).get(id);
      const asked = new Set(range === undefined ? [] : ((await options.labels.page(id, range))?.columns ?? []).map((column) => column.key));
      const check = (draft: unknown) => {
        const checked = publishCheck(draft, id, { submitOrigins: app.submitOrigins });
        if (!checked.config) return checked;
        const keys = new Set([...asked, ...answerColumns(checked.config).map((column) => column.key)]);
        if (keys.size <= MAX_PAGE_QUESTIONS) return checked;
        return {
          problems: [
            {
              path: 'steps',
              message: `the page's versions would ask ${keys.size} different questions together, at most ${MAX_PAGE_QUESTIONS}: ask fewer, or make a new page for a new form`,
            },
          ],
        };
      };
      // A shorter retention erases, within the hour, what it puts past its time: said and asked first.
      if (!request.body.eraseExpired) {
        const erases = await erasedByPublishing(id, retentionIn((await app.store.pages.get(id))?.draft));
        if (erases > 0) return refuseErasing(reply, erases);
      }
      const published = await app.store.pages.publish(id, request.body.revision, request.adminUser!.email, check);
      if ('missing' in published) return sendProblem(reply, 404, `There is no stored page "${id}".`);
      if ('stale' in published) return sendStale(reply, published);
      if ('problems' in published) return sendProblem(reply, 422, 'The page has errors: fix them before publishing.', { errors: published.problems });
      // The version served already: 200 and nothing changed (a double-click is harmless).
      if (published.unchanged) return reply.code(200).send({ version: published.version });
      await registry.changed(id);
      return reply.code(201).send({ version: published.version });
    },
  );

  app.get('/pages/:id/versions/:n', { schema: { params: PageVersionParams, response: { 200: z.unknown() } } }, async (request, reply) => {
    const config = await app.store.pages.version(request.params.id, request.params.n);
    if (config === undefined) return sendProblem(reply, 404, `Page "${request.params.id}" has no version ${request.params.n}.`);
    return JSON.parse(config) as unknown;
  });

  app.post(
    '/pages/:id/versions/:n/publish',
    {
      schema: { params: PageVersionParams, body: RepublishPageSchema, response: { 200: PublishedSchema, ...problemResponses(409) } },
      preValidation: app.requireEditor,
    },
    async (request, reply) => {
      const { id, n } = request.params;
      if (isDefault(id)) return readOnlyDefault(reply);
      // Serving an older version again may shorten the retention too: said and asked first, as publishing a draft is.
      if (!request.body?.eraseExpired) {
        const erases = await erasedByPublishing(id, retentionIn(await app.store.pages.version(id, n)));
        if (erases > 0) return refuseErasing(reply, erases);
      }
      const done = await app.store.pages.republish(id, n, request.adminUser!.email);
      if (done === 'missing') return sendProblem(reply, 404, `There is no stored page "${id}".`);
      if (done === 'version') return sendProblem(reply, 404, `Page "${id}" has no version ${n}.`);
      await registry.changed(id);
      return { version: n };
    },
  );

  app.patch(
    '/pages/:id',
    {
      schema: { params: PageParams, body: UpdatePageSchema, response: { 200: PageDetailSchema, ...problemResponses(409) } },
      config: { invalid: 'The change is not valid.' },
      preValidation: app.requireEditor,
    },
    async (request, reply) => {
      const { id } = request.params;
      if (isDefault(id)) return readOnlyDefault(reply);
      // The inbox's own host name (the one this request came to) is the default page's and the
      // inbox's: a page given it would take `/` and every `?page=` link (decision 021, the fifth outside attack, F3).
      const own = request.body.hosts?.indexOf(requestHost(request)) ?? -1;
      if (own >= 0) {
        return sendProblem(reply, 409, `"${request.body.hosts![own]}" is the inbox's own host name: a page cannot take it.`, {
          errors: [{ path: `hosts.${own}`, message: "The inbox's own host name" }],
        });
      }
      const done = await app.store.pages.update(id, request.body, request.adminUser!.email);
      if (done === 'missing') return sendProblem(reply, 404, `There is no stored page "${id}".`);
      if (done === 'unpublished') {
        const verb = request.body.status === 'closed' ? 'closing' : 'opening';
        return sendProblem(reply, 409, `Publish the page before ${verb} it.`, { errors: [{ path: 'status', message: 'The page has no published version' }] });
      }
      if (typeof done === 'object' && 'host' in done) {
        const { index, pageId } = done.host;
        return sendProblem(reply, 409, `The host name "${request.body.hosts![index]}" is the page "${pageId}"'s.`, {
          errors: [{ path: `hosts.${index}`, message: `Taken by the page "${pageId}"` }],
        });
      }
      if (typeof done === 'object')
        return sendProblem(reply, 400, 'The page would close before it opens.', { errors: [{ path: 'closesAt', message: CLOSES_BEFORE_OPENING }] });
      // Nothing changed: nothing to read again or tell the other processes.
      if (done !== 'unchanged') await registry.changed(id);
      return detail((await app.store.pages.get(id))!);
    },
  );
};
