import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MAX_SAVED_VIEWS, NeighboursQuerySchema, SaveViewSchema, SavedViewSchema } from '../../../shared/admin';
import { z } from '../../../shared/zod';
import { problemResponses, sendProblem } from '../../problem';
import { IdParams } from './params';

/** The parameters a saved view may hold: the list's filters and sort (not its cursor or page size). */
const VIEW_PARAMETERS = new Set(Object.keys(NeighboursQuerySchema.shape));

/**
 * A view's query string as the list's API reads it: its parameters, a repeated one as a list.
 * @returns the parameters, or the first one the list does not know.
 */
function viewParameters(query: string): { values: Record<string, string | string[]> } | { unknown: string } {
  const values: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(query)) {
    if (!VIEW_PARAMETERS.has(key)) return { unknown: key };
    const previous = values[key];
    values[key] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return { values };
}

/**
 * Saved views, inside the authenticated inbox API, each user's own: `GET /views`;
 * `POST /views` saves `{ name, query }` (a name saved before is replaced; the query must be a
 * valid list view, else 400 naming `query`; more than {@link MAX_SAVED_VIEWS} views is 409);
 * `DELETE /views/{id}` (404 for another user's or no view). Viewers save views too: a view changes
 * no application. Every change carries the anti-forgery header (the session plugin).
 */
export const savedViewRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/views', { schema: { response: { 200: z.array(SavedViewSchema) } } }, async (request) => app.store.views.list(request.adminUser!.id));

  app.post(
    '/views',
    { schema: { body: SaveViewSchema, response: { 201: SavedViewSchema, ...problemResponses(409) } }, config: { invalid: 'The view is not valid.' } },
    async (request, reply) => {
      const query = request.body.query.replace(/^\?/, '');
      const parameters = viewParameters(query);
      const valid = 'values' in parameters && NeighboursQuerySchema.safeParse(parameters.values).success;
      if (!valid) {
        const message = 'unknown' in parameters ? `The list has no filter "${parameters.unknown}"` : 'Not a valid view of the list';
        return sendProblem(reply, 400, 'The view is not valid.', { errors: [{ path: 'query', message }] });
      }
      const view = await app.store.views.save(request.adminUser!.id, request.body.name, query, MAX_SAVED_VIEWS);
      if (!view) return sendProblem(reply, 409, `You have ${MAX_SAVED_VIEWS} saved views: delete one first.`);
      return reply.code(201).send(view);
    },
  );

  app.delete('/views/:id', { schema: { params: IdParams, response: { 204: z.void() } } }, async (request, reply) => {
    if (!(await app.store.views.remove(request.adminUser!.id, request.params.id))) return sendProblem(reply, 404, 'There is no such saved view.');
    return reply.code(204).send();
  });
};
