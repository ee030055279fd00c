import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * On close (SIGTERM), connections that never sent a request are ended at once. Node's
 * `server.close()` waits for every connection, and closes idle keep-alive ones itself, but a
 * connection opened ahead of time (a browser's preconnect) that has sent nothing is not idle to
 * it: it held a shutdown for up to the headers timeout (60 s). Requests in flight, and
 * connections that have sent one, are left to finish as before.
 */
export const gracefulClose = fp(
  async (app: FastifyInstance) => {
    const unused = new Set<Socket>();
    app.server.on('connection', (socket: Socket) => {
      unused.add(socket);
      socket.once('close', () => unused.delete(socket));
    });
    app.server.on('request', (request: { socket: Socket }) => unused.delete(request.socket));
    app.addHook('preClose', async () => {
      for (const socket of unused) socket.destroy();
      unused.clear();
    });
  },
  { name: 'graceful-close' },
);
