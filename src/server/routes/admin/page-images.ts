import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '../../../shared/zod';
import { MAX_PAGE_IMAGE_BYTES, PAGE_ID_PATTERN, PAGE_IMAGE_TYPES, PageImageQuery, PageImageSchema, PageParams } from '../../../shared/pages';
import { RETRY_AFTER_SECONDS } from '../../constants';
import { BodyError } from '../../json-body';
import { problemResponses, sendProblem } from '../../problem';
import { ImageRefused, pageImageOf, processImage } from '../../uploads';

/** The 503 of an upload that finds the uploads' turns full, with Retry-After. */
const busy = (reply: FastifyReply) =>
  sendProblem(reply, 503, 'The server is busy with other images. Please try again shortly.', { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });

/** The accepted types as the 415 names them. */
const TYPES_TEXT = PAGE_IMAGE_TYPES.join(', ');

/** The 400 of a body sent with a `Content-Encoding` (docs/inbox.md): the image's own bytes only. */
const ENCODED = "Send the image's bytes as they are, without a Content-Encoding.";

/**
 * A page's images (docs/decisions/021 "Uploads"), inside the authenticated inbox API:
 * `POST /pages/{id}/images?kind=cover|logo`, for editors (403 for viewers), with the inbox's
 * session and anti-forgery header (the `authenticate` hook of the API, before anything is read).
 * The body is the image's bytes, `Content-Type` one of {@link PAGE_IMAGE_TYPES} (else 415), at most
 * {@link MAX_PAGE_IMAGE_BYTES} (else 413, refused from its `Content-Length` before reading, or
 * once that many bytes have come). The page must be stored (404; the default page is read-only,
 * 409), checked before the body is read. The bytes are judged by their content and re-encoded to
 * WebP (`processImage`: 422 for anything else, a truncated image, too many pixels), one upload at
 * a time per turn (`app.uploads.turns`: 503 with Retry-After when too many wait, before the body
 * is read when as many uploads as may run and wait are arriving already), stored under
 * their content hash (503 with Retry-After when the disk does not take them: full, read-only,
 * failing, not writable), audited (`page-image`), and answered 201 with `{ src, srcset }` for a cover or
 * `{ src }` for a logo: the values the configuration takes. A body sent with a `Content-Encoding`
 * is 400, before it is read. Every refusal is problem+json.
 */
export const pageImageRoutes: FastifyPluginAsyncZod = async (app) => {
  // Image bytes only, in this plugin's routes: JSON and the rest are 415 here.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser([...PAGE_IMAGE_TYPES], { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.addContentTypeParser('*', (_request, _payload, done) => done(new BodyError(415, `Send the image's bytes as ${TYPES_TEXT}.`), undefined));

  /** Before the body is read: editors only, and a stored page (a refused upload costs no bytes read). */
  const pageToChange = async (request: FastifyRequest, reply: FastifyReply) => {
    // The guard answers with the reply, which is a thenable: awaited, it gives undefined once sent.
    // Whether it answered is `reply.sent` (a viewer's 403 went on to the page checks before).
    await app.requireEditor(request, reply);
    if (reply.sent) return reply;
    // An encoded body (gzip, say) is refused before it is read, valid or not: @fastify/compress
    // would inflate it first, and 10 MiB of gzip can be far more than 10 MiB of image.
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity')
      return sendProblem(reply, 400, ENCODED, { errors: [{ path: '(body)', message: 'Without a Content-Encoding' }] });
    const { id } = request.params as { id: string };
    // A malformed id is left to the params schema's 400.
    if (!PAGE_ID_PATTERN.test(id)) return undefined;
    if (app.pages.has(id)) return sendProblem(reply, 409, 'The default page is read from its file and cannot be changed here.');
    if (!(await app.store.pages.get(id))) return sendProblem(reply, 404, `There is no stored page "${id}".`);
    // As many uploads as may run and wait are let in; the next is refused before its body is
    // read (its connection then closes: app.ts), not once 10 MiB of it are kept.
    const pass = app.uploads.turns.admit();
    if (pass === 'busy') return busy(reply);
    reply.raw.once('close', pass.leave);
    return undefined;
  };

  app.post(
    '/pages/:id/images',
    {
      schema: { params: PageParams, querystring: PageImageQuery, response: { 201: PageImageSchema, ...problemResponses(409, 422) } },
      config: {
        invalid: 'The upload is not valid.',
        // The document's body: the image's bytes (checked by their content here, not by a schema).
        openapi: { consumes: [...PAGE_IMAGE_TYPES], body: z.string() },
      },
      bodyLimit: MAX_PAGE_IMAGE_BYTES,
      onRequest: pageToChange,
      errorHandler: (error: FastifyError, request, reply) => {
        if (error.statusCode === 413) {
          const limit = `${MAX_PAGE_IMAGE_BYTES / 1024 / 1024} MiB`;
          return sendProblem(reply, 413, `The image is larger than ${limit}.`, { errors: [{ path: '(body)', message: `At most ${limit}` }] });
        }
        // Fastify's own refusal of a Content-Type it cannot parse (`image/png, text/html`): this
        // route's words, not the JSON routes'.
        if (error.statusCode === 415) return sendProblem(reply, 415, `Send the image's bytes as ${TYPES_TEXT}.`);
        // A body @fastify/compress could not decompress (`Content-Encoding: gzip` on bytes that are not).
        if (error.code?.startsWith('FST_CP_ERR')) return sendProblem(reply, 400, ENCODED);
        return app.errorHandler(error, request, reply);
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { kind } = request.query;
      const bytes = request.body;
      if (!Buffer.isBuffer(bytes)) return sendProblem(reply, 415, `Send the image's bytes as ${TYPES_TEXT}.`);
      // A client gone while its upload waits leaves the queue (the 503 then reaches no one).
      const turn = await app.uploads.turns.take(reply.raw);
      if (turn === 'busy' || turn === 'gone') return busy(reply);
      try {
        let image;
        try {
          image = await processImage(bytes, kind);
        } catch (error) {
          if (error instanceof ImageRefused) return sendProblem(reply, 422, error.message, { errors: [{ path: '(body)', message: error.message }] });
          throw error;
        }
        try {
          await app.uploads.save(image);
        } catch (error) {
          // The disk did not take the files (full, read-only, failing, or the directory not
          // writable): nothing of the request's fault, and the editor may try again once there is
          // room, as a submit on that disk is told; never a 500. Logged for the operator.
          request.log.error({ err: error }, 'uploaded image not written');
          return sendProblem(reply, 503, 'The server cannot store the image right now. Please try again shortly.', {
            headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
          });
        }
        const recorded = await app.store.pages.recordImage(id, request.adminUser!.email, {
          kind,
          hash: image.hash,
          widths: image.files.map((file) => file.width),
        });
        if (recorded === 'missing') return sendProblem(reply, 404, `There is no stored page "${id}".`);
        return reply.code(201).send(pageImageOf(image));
      } finally {
        turn.release();
      }
    },
  );
};
