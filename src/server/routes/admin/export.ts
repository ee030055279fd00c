import type { Readable } from 'node:stream';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '../../../shared/zod';
import { ApplicationFilterSchema } from '../../../shared/admin';
import { EXPORT_BATCH_ROWS, applicationsCsv } from '../../inbox/csv';
import { ExportClientStalled, ExportThreads, THREAD_EXPORT_BATCH_ROWS, type ExportEncoding, type ExportLimits } from '../../inbox/export-threads';
import { utcDay } from '../../inbox/funnel-report';
import type { PageVersionLabels } from '../../inbox/page-versions';
import { sendProblem } from '../../problem';

/** The `Retry-After` of a 503 when every export turn is taken, in seconds: an export of 100 000 rows takes about one. */
const EXPORTS_BUSY_RETRY_SECONDS = 10;

/**
 * `GET /applications.csv` of the inbox API (docs/decisions/014): the
 * applications matching the list's filters as CSV (RFC 4180, formula-neutralised cells), newest
 * first, with the page's answer columns (a stored page's: every version's, and the version each
 * application answered); read and formatted in a thread of its own, gzip when the
 * client accepts it; a few exports at a time (503 with `Retry-After` past them).
 */
export const exportRoutes: FastifyPluginAsyncZod<{ labels: PageVersionLabels; exportLimits?: Partial<ExportLimits> | undefined }> = async (app, options) => {
  const exportThreads = new ExportThreads(options.exportLimits);
  app.addHook('onClose', async () => exportThreads.close());

  // Not compressed by @fastify/compress (on libuv's thread pool at normal priority): the
  // export's thread compresses it.
  app.get(
    '/applications.csv',
    {
      compress: false,
      schema: { querystring: ApplicationFilterSchema },
      config: {
        invalid: 'The filters are not valid.',
        // Streamed by the export's thread, not serialised: the document says what it is.
        openapi: {
          responses: {
            200: {
              description: 'The applications the filters match, as CSV (UTF-8 with a BOM, CRLF, a header row)',
              content: { 'text/csv': { schema: z.string() } },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const filter = request.query;
      // What this process stored before the export was asked for is in it, answers and all
      // (the export's thread reads the answer index this process may still be writing).
      await app.store.applications.indexed();
      const source = app.store.applications.exportSource();
      // Gzip, compressed by the export's thread, when the client accepts it (every browser does),
      // else none (RFC 9110 §12.5.3): `identity` listed first, so `*` and `gzip;q=0, *` get none.
      // An in-memory store's export (tests) is never compressed.
      const encoding: ExportEncoding = source && negotiate(request.headers['accept-encoding'] ?? '', ['identity', 'gzip']) === 'gzip' ? 'gzip' : 'identity';
      /** The export's own headers: a CSV file, compressed or not. */
      const fileHeaders = () => {
        if (encoding === 'gzip') reply.header('Content-Encoding', 'gzip');
        return reply
          .header('Vary', 'Accept-Encoding')
          .type('text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="applications-${utcDay(app.clock())}.csv"`);
      };
      // HEAD (answered by this GET route): the headers the export would have (RFC 9110 §9.3.2),
      // without running one, which would take a turn and a thread for bytes nobody reads.
      if (request.method === 'HEAD') return fileHeaders().send();
      // Worked out here (labels go through html-to-text, a stored page's versions are read once);
      // the thread is given them as plain data.
      const columns = await options.labels.exportColumns(filter.pageId);
      // A few exports at a time, whoever asks (docs/decisions/014): each is a thread.
      const turn = await exportThreads.turn(reply.raw);
      if (turn === 'busy' || turn === 'gone') {
        return sendProblem(reply, 503, 'Too many exports are running. Try again in a few seconds.', {
          headers: { 'Retry-After': String(EXPORTS_BUSY_RETRY_SECONDS) },
        });
      }
      let csv: Readable;
      try {
        // Read and formatted in a thread of its own at the lowest priority, relayed here chunk by
        // chunk: health checks and submissions never wait for it. An in-memory
        // database, which no other thread can open, streams in batches that yield to the event
        // loop between them instead.
        csv = source
          ? exportThreads.csv(turn, source, {
              filter,
              columns: columns.columns,
              pageVersion: columns.pageVersion,
              batchRows: THREAD_EXPORT_BATCH_ROWS,
              encoding,
            })
          : applicationsCsv(app.store.applications.exportApplications(filter, EXPORT_BATCH_ROWS), columns.columns, { pageVersion: columns.pageVersion }).once(
              'close',
              turn.release,
            );
      } catch (error) {
        turn.release();
        throw error;
      }
      csv.on('error', (error) => {
        // A client that stopped reading is cut short on purpose; a store's failure is a fault.
        if (error instanceof ExportClientStalled) request.log.warn({ err: error }, 'export cut short: its client stopped reading');
        else request.log.error({ err: error }, 'export failed');
        // Failed before its first byte: the error page that follows is neither gzip nor a file.
        if (!reply.raw.headersSent) {
          reply.removeHeader('Content-Encoding');
          reply.removeHeader('Content-Disposition');
        }
      });
      return fileHeaders().send(csv);
    },
  );
};
