/**
 * The baseline of `npm run bench`: a bare Fastify route that parses the same
 * JSON body as the submit route and stores nothing, and a `/readyz` that
 * answers at once (the start-up baseline, bench/start.ts). Listens on PORT.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
app.put('/api/syncPage/:pageId', async (request, reply) => {
  if (typeof request.body !== 'object' || request.body === null) return reply.code(400).send({});
  return reply.code(201).send({ id: randomUUID(), receivedAt: new Date().toISOString() });
});
app.get('/readyz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
