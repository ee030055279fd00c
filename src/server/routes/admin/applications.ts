import { erasureDue } from '../../../shared/retention';
import { pageRetention } from '../../retention';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApplicationCountsSchema,
  ApplicationDetailSchema,
  ApplicationFilterSchema,
  ApplicationListQuerySchema,
  ApplicationListSchema,
  ApplicationPatchSchema,
  BulkStatusResultSchema,
  BulkStatusSchema,
  NeighboursQuerySchema,
  NeighboursSchema,
  PatchedApplicationSchema,
  type ApplicationList,
} from '../../../shared/admin';
import { payloadPhoneE164 } from '../../../shared/phone';
import { profileUrl, payloadPlatforms } from '../../../shared/platforms';
import { z } from '../../../shared/zod';
import { withWithdrawals } from '../../consents';
import { labelledAnswers } from '../../inbox/answers';
import { decodeCursor, encodeCursor } from '../../inbox/cursor';
import { toListItem } from '../../inbox/list-item';
import type { PageVersionLabels } from '../../inbox/page-versions';
import { problemResponses, sendProblem } from '../../problem';
import { IdParams } from './params';
import { THREAD_FULL } from './conversation';

const NOT_FOUND = 'There is no such application (it may have been erased).';

/**
 * The inbox's applications (requirements §17), inside the authenticated inbox API: `GET /pages`; `GET
 * /applications` (filters, answer filters, a sort and direction, and a keyset `cursor`; newest first by default); `GET /applications/counts` (how
 * many the filters match in each status); `GET /applications/{id}` (the
 * detail: answers labelled by the page's questions — a stored page's by the version the
 * application answered — profiles, the same creator's earlier
 * applications, audit, notes, tags, the phone in E.164); `GET
 * /applications/{id}/neighbours` (the previous and next in a view); and,
 * for editors, `PATCH /applications/{id}` (status, note), `PATCH /applications` (one status for a
 * selection) and `DELETE /applications/{id}` (erasure).
 */
export const applicationRoutes: FastifyPluginAsyncZod<{ labels: PageVersionLabels }> = async (app, options) => {
  const applications = app.store.applications;

  // `GET /pages` (the pages and their filter questions) is the campaign pages' list: pages.ts.

  app.get(
    '/applications',
    { schema: { querystring: ApplicationListQuerySchema, response: { 200: ApplicationListSchema } }, config: { invalid: 'The filters are not valid.' } },
    async (request, reply) => {
      const { cursor, limit, sort, dir, ...filter } = request.query;
      const order = { sort, dir };
      const after = cursor ? decodeCursor(cursor, order) : undefined;
      if (cursor && !after)
        return sendProblem(reply, 400, 'The cursor is not valid.', { errors: [{ path: 'cursor', message: 'Not a cursor of this list and sort' }] });
      const rows = await applications.listApplications(filter, { limit: limit + 1, order, ...(after ? { after } : {}), withDuplicates: true });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const next =
        rows.length > limit && last
          ? encodeCursor(order, { receivedAt: last.receivedAt, id: last.id, ...(last.sortValue === undefined ? {} : { value: last.sortValue }) })
          : undefined;
      // The page's tags in one query.
      const tags = await app.store.tags.ofMany(page.map((row) => row.id));
      const body: ApplicationList = { items: page.map((row) => toListItem(row, tags.get(row.id) ?? [])), ...(next ? { nextCursor: next } : {}) };
      return body;
    },
  );

  app.get(
    '/applications/counts',
    { schema: { querystring: ApplicationFilterSchema, response: { 200: ApplicationCountsSchema } }, config: { invalid: 'The filters are not valid.' } },
    async (request) => applications.countApplications(request.query),
  );

  app.get('/applications/:id', { schema: { params: IdParams, response: { 200: ApplicationDetailSchema } } }, async (request, reply) => {
    const [row, notes, tags, consents] = await Promise.all([
      applications.getApplication(request.params.id),
      app.store.notes.list(request.params.id),
      app.store.tags.of(request.params.id),
      app.store.consents.records(request.params.id),
    ]);
    if (!row) return sendProblem(reply, 404, NOT_FOUND);
    const columns = await options.labels.answerColumns(row);
    return {
      ...toListItem(row, tags),
      note: row.note,
      profiles: payloadPlatforms(row.payload).map((platform) => ({ ...platform, profileUrl: profileUrl(platform.platform, platform.handle) })),
      // An unreadable row's payload is only what its columns hold: not shown as if it were stored.
      payload: row.unreadable ? null : row.payload,
      answers: withWithdrawals(labelledAnswers(columns, row.payload), consents),
      ...(row.pageVersion === undefined ? {} : { pageVersion: row.pageVersion }),
      earlierSubmissions: row.earlierSubmissions,
      audit: row.audit,
      notes,
      tags,
      consents,
      phoneE164: payloadPhoneE164((row.payload as { personalInfo?: { phone?: unknown } }).personalInfo?.phone),
      // Its page's retention (the defaults for a page no longer served), from its decision when declined.
      erasesAt: erasureDue(
        { status: row.status, receivedAt: row.receivedAt, decidedAt: row.audit.findLast((entry) => entry.action === 'status' && entry.to === 'declined')?.at },
        await pageRetention(app.pageConfig, app.store.pages, row.pageId),
      ),
    };
  });

  app.get(
    '/applications/:id/neighbours',
    { schema: { params: IdParams, querystring: NeighboursQuerySchema, response: { 200: NeighboursSchema } }, config: { invalid: 'The view is not valid.' } },
    async (request, reply) => {
      const { sort, dir, ...filter } = request.query;
      const neighbours = await applications.neighbours(filter, { sort, dir }, request.params.id);
      return neighbours ?? sendProblem(reply, 404, NOT_FOUND);
    },
  );

  app.patch(
    '/applications/:id',
    {
      schema: { params: IdParams, body: ApplicationPatchSchema, response: { 200: PatchedApplicationSchema, ...problemResponses(409) } },
      config: { invalid: 'The change is not valid.' },
      preValidation: app.requireEditor,
    },
    async (request, reply) => {
      const row = await applications.updateApplication(request.params.id, request.body, request.adminUser!.email);
      if (!row) return sendProblem(reply, 404, NOT_FOUND);
      // The note would join a full thread: refused as POST …/notes refuses it, nothing changed.
      if (row === 'full') return sendProblem(reply, 409, THREAD_FULL);
      return { ...toListItem(row, await app.store.tags.of(row.id)), note: row.note };
    },
  );

  app.patch(
    '/applications',
    {
      schema: { body: BulkStatusSchema, response: { 200: BulkStatusResultSchema } },
      config: { invalid: 'The change is not valid.' },
      preValidation: app.requireEditor,
    },
    async (request) => ({ updated: await applications.setStatuses([...new Set(request.body.ids)], request.body.status, request.adminUser!.email) }),
  );

  app.delete('/applications/:id', { schema: { params: IdParams, response: { 204: z.void() } }, preValidation: app.requireEditor }, async (request, reply) => {
    const erased = await applications.eraseApplication(request.params.id, request.adminUser!.email);
    if (!erased) return sendProblem(reply, 404, NOT_FOUND);
    return reply.code(204).send();
  });
};
