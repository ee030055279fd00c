import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PersonEraseBodySchema, PersonExportSchema, PersonQuerySchema } from '../../../shared/person';
import { z } from '../../../shared/zod';
import { erasePerson, exportPerson, personErasure } from '../../inbox/person';
import type { PageVersionLabels } from '../../inbox/page-versions';

/**
 * A person's data in the inbox API (docs/privacy.md, "A person's data"; editors): everything kept
 * about the person who applied under an e-mail address, on every page, as one JSON document to
 * download, or erased.
 */
export const personRoutes: FastifyPluginAsyncZod<{ labels: PageVersionLabels }> = async (app, options) => {
  app.get(
    '/people/export',
    { schema: { querystring: PersonQuerySchema, response: { 200: PersonExportSchema } }, preValidation: app.requireEditor },
    async (request, reply) => {
      const document = await exportPerson(app.store, options.labels, request.query.email, app.clock(), request.adminUser!.email);
      // A file to keep or send to the person: named by the day, not by the address (a file name travels further than its contents).
      return reply.header('Content-Disposition', `attachment; filename="person-${document.about.exportedAt.slice(0, 10)}.json"`).send(document);
    },
  );

  // What an erasure would take, said before it is asked for (a count: nothing of the person).
  app.get(
    '/people/erasure',
    { schema: { querystring: PersonQuerySchema, response: { 200: z.object({ applications: z.number() }) } }, preValidation: app.requireEditor },
    async (request) => {
      const { applications, held } = await personErasure(app.store, request.query.email);
      return { applications: applications.length + held.length };
    },
  );

  app.post(
    '/people/erase',
    { schema: { body: PersonEraseBodySchema, response: { 200: z.object({ erased: z.number() }) } }, preValidation: app.requireEditor },
    async (request) => ({ erased: await erasePerson(app.store, request.body.email, request.adminUser!.email) }),
  );
};
