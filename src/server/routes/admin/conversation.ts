import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApplicationTagsBodySchema,
  ApplicationTagsSchema,
  BulkTagsResultSchema,
  BulkTagsSchema,
  MAX_NOTES_PER_APPLICATION,
  MAX_TAGS_PER_APPLICATION,
  MAX_TAGS,
  NoteBodySchema,
  NoteListSchema,
  NoteSchema,
  TagBodySchema,
  TagListSchema,
  TagSchema,
} from '../../../shared/admin';
import { z } from '../../../shared/zod';
import { problemResponses, sendProblem } from '../../problem';
import { IdParams, NoteParams } from './params';
import type { NoteRefusal } from '../../store/notes';

const NO_APPLICATION = 'There is no such application (it may have been erased).';
/** The 409 of every way a note joins a full thread: `POST …/notes`, and `PATCH /applications/{id}` with a `note`. */
export const THREAD_FULL = `This application has ${MAX_NOTES_PER_APPLICATION} notes, the most it may have. Delete one first.`;
const REFUSALS: Record<NoteRefusal, [number, string]> = {
  'no-application': [404, NO_APPLICATION],
  'no-note': [404, 'There is no such note on this application (it may have been deleted).'],
  'not-yours': [403, 'Only the author of a note may change or delete it.'],
};

/**
 * The conversation on an application, inside the authenticated inbox API. Everyone
 * signed in reads: `GET /applications/{id}/notes` (the thread, oldest first) and `GET /tags`.
 * Editors change, each change audited on the application: `POST /applications/{id}/notes` (201),
 * `PATCH` and `DELETE /applications/{id}/notes/{noteId}` (their own notes only: 403 otherwise),
 * `POST /tags` (201 created; 200 with the tag of that name when one exists, case aside), `DELETE
 * /tags/{id}` (removed from every application too) and `PUT /applications/{id}/tags` (`{ tagIds }`:
 * the application's tags from now on) and `POST /applications/tags` (`{ ids, add?, remove? }`: bulk
 * tagging of a selection; ids of no application are skipped and named in `notFound`). Errors are
 * problem details: 400 for a body the schemas refuse or a tag id of no tag, 404 for an unknown
 * application, note or tag, 409 past the limits.
 */
export const conversationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { notes, tags } = app.store;

  app.get('/applications/:id/notes', { schema: { params: IdParams, response: { 200: NoteListSchema } } }, async (request, reply) => {
    if (!(await app.store.applications.exists(request.params.id))) return sendProblem(reply, 404, NO_APPLICATION);
    return notes.list(request.params.id);
  });

  app.post(
    '/applications/:id/notes',
    {
      schema: { params: IdParams, body: NoteBodySchema, response: { 201: NoteSchema, ...problemResponses(409) } },
      config: { invalid: 'The note is not valid.' },
      preValidation: app.requireEditor,
    },
    async (request, reply) => {
      const added = await notes.add(request.params.id, request.adminUser!.email, request.body.text);
      if (added === 'no-application') return sendProblem(reply, 404, NO_APPLICATION);
      if (added === 'full') return sendProblem(reply, 409, THREAD_FULL);
      return reply.code(201).send(added);
    },
  );

  app.patch(
    '/applications/:id/notes/:noteId',
    {
      schema: { params: NoteParams, body: NoteBodySchema, response: { 200: NoteSchema } },
      config: { invalid: 'The note is not valid.' },
      preValidation: app.requireEditor,
    },
    async (request, reply) => {
      const edited = await notes.edit(request.params.id, request.params.noteId, request.adminUser!.email, request.body.text);
      if (typeof edited === 'string') return sendProblem(reply, ...REFUSALS[edited]);
      return edited;
    },
  );

  app.delete(
    '/applications/:id/notes/:noteId',
    { schema: { params: NoteParams, response: { 204: z.void() } }, preValidation: app.requireEditor },
    async (request, reply) => {
      const removed = await notes.remove(request.params.id, request.params.noteId, request.adminUser!.email);
      if (removed !== true) return sendProblem(reply, ...REFUSALS[removed]);
      return reply.code(204).send();
    },
  );

  app.get('/tags', { schema: { response: { 200: TagListSchema } } }, async () => tags.list());

  app.post(
    '/tags',
    {
      schema: { body: TagBodySchema, response: { 200: TagSchema, 201: TagSchema, ...problemResponses(409) } },
      config: { invalid: 'The tag is not valid.' },
      preValidation: app.requireEditor,
    },
    async (request, reply) => {
      const created = await tags.create(request.body.name);
      if (created === 'full') return sendProblem(reply, 409, `There are ${MAX_TAGS} tags, the most there may be. Delete one first.`);
      return reply.code(created.created ? 201 : 200).send(created.tag);
    },
  );

  app.delete('/tags/:id', { schema: { params: IdParams, response: { 204: z.void() } }, preValidation: app.requireEditor }, async (request, reply) => {
    if (!(await tags.remove(request.params.id, request.adminUser!.email))) return sendProblem(reply, 404, 'There is no such tag (it may have been deleted).');
    return reply.code(204).send();
  });

  app.put(
    '/applications/:id/tags',
    {
      schema: { params: IdParams, body: ApplicationTagsBodySchema, response: { 200: ApplicationTagsSchema } },
      config: { invalid: 'The tags are not valid.' },
      preValidation: app.requireEditor,
    },
    async (request, reply) => {
      const result = await tags.set(request.params.id, request.body.tagIds, request.adminUser!.email);
      if (Array.isArray(result)) return result;
      if (result.refused === 'no-application') return sendProblem(reply, 404, NO_APPLICATION);
      return sendProblem(reply, 400, 'The tags are not valid.', {
        errors: result.indexes.map((index) => ({ path: `tagIds.${index}`, message: 'No such tag (it may have been deleted)' })),
      });
    },
  );

  app.post(
    '/applications/tags',
    {
      schema: { body: BulkTagsSchema, response: { 200: BulkTagsResultSchema, ...problemResponses(409) } },
      config: { invalid: 'The tag change is not valid.' },
      preValidation: app.requireEditor,
    },
    async (request, reply) => {
      const { ids, add, remove } = request.body;
      const result = await tags.bulk(ids, { add, remove }, request.adminUser!.email);
      if (!('refused' in result)) return result;
      if (result.refused === 'too-many') {
        return sendProblem(reply, 409, `An application may carry ${MAX_TAGS_PER_APPLICATION} tags at most: nothing was changed.`, {
          errors: result.indexes.map((index) => ({ path: `ids.${index}`, message: `Would carry more than ${MAX_TAGS_PER_APPLICATION} tags` })),
        });
      }
      const stale = (list: 'add' | 'remove', indexes: number[]) =>
        indexes.map((index) => ({ path: `${list}.${index}`, message: 'No such tag (it may have been deleted)' }));
      return sendProblem(reply, 400, 'The tag change is not valid.', { errors: [...stale('add', result.add), ...stale('remove', result.remove)] });
    },
  );
};
