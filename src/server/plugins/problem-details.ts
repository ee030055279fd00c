import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { DEFAULT_MESSAGES } from '../../shared/messages';
import { PAGE_ID_PATTERN } from '../../shared/pages';
import type { FieldError } from '../../shared/payload';
import { isPlainLongText } from '../../shared/rules';
import { RETRY_AFTER_SECONDS } from '../constants';
import { BodyError, registerJsonBodyParser } from '../json-body';
import { sendProblem } from '../problem';
import { isStatementTimeout, isStoreDataError, isStoreUnavailable } from '../store/errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The `detail` of this route's 400 when its params, query or body fail its schema (the
     * `errors` list the field paths); default 'The request is not valid.'.
     */
    invalid?: string;
  }
}

/** A byte count as people read it: `64 KiB`, `1 KiB`, `512 bytes`. */
function formatBytes(bytes: number): string {
  return bytes >= 1024 && bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

/**
 * A schema validation failure's field paths, as the rest of the API writes them: `status`,
 * `ids.3`, or `(body)` for the body as a whole.
 */
function fieldErrors(validation: readonly { instancePath: string; message?: string | undefined }[]): FieldError[] {
  return validation.map((issue) => ({
    path: issue.instancePath.split('/').filter(Boolean).join('.') || '(body)',
    message: issue.message ?? 'Invalid value',
  }));
}

/** The fallback field of {@link unstorableValues}: the request as a whole. */
const WHOLE_REQUEST = '(request)';

/**
 * Where a request holds a value the store refused (PostgreSQL's SQLSTATE class 22), as field
 * errors: each path parameter (`id`), query value (`q`, `answer.1`) and body value (`ids.3`) that is
 * not plain text (isPlainLongText: a control character other than tab and line breaks, a lone
 * surrogate, a noncharacter; a NUL, say). When none is (the store refused something else),
 * `(request)`: every 400 names where to look.
 */
export function unstorableValues(request: { params?: unknown; query?: unknown; body?: unknown }): FieldError[] {
  const errors: FieldError[] = [];
  const walk = (value: unknown, path: string[]) => {
    if (typeof value === 'string') {
      if (!isPlainLongText(value)) errors.push({ path: path.length > 0 ? path.join('.') : '(body)', message: DEFAULT_MESSAGES.plainText });
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, [...path, String(index)]));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) walk(item, [...path, key]);
    }
  };
  walk(request.params, []);
  walk(request.query, []);
  walk(request.body, []);
  return errors.length > 0 ? errors : [{ path: WHOLE_REQUEST, message: 'A value of the request cannot be stored or searched for' }];
}

/**
 * Every failure as problem details (RFC 9457, requirements §13), never a stack trace or a 500 for bad
 * input: route schemas (zod, through fastify-type-provider-zod) validate params, query and body
 * and serialise responses; a schema failure is a 400 with field paths; bodies are UTF-8 JSON only
 * (json-body.ts: 415, 413, duplicate keys); an unreachable store is a 503 with `Retry-After`; a
 * value the database cannot take is a 400; an unknown `GET` path redirects to the wizard at the
 * root (requirements §2), an unknown API path is a 404.
 */
export const errorsAsProblems = fp(
  async (app: FastifyInstance) => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    // JSON only: a text/plain body is a 415, not a string handed to the schema.
    app.removeContentTypeParser('text/plain');
    registerJsonBodyParser(app);

    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        return sendProblem(reply, 400, request.routeOptions.config.invalid ?? 'The request is not valid.', { errors: fieldErrors(error.validation) });
      }
      if (error instanceof BodyError) return sendProblem(reply, error.statusCode, error.message, error.errors ? { errors: error.errors } : {});
      if (isStatementTimeout(error)) {
        // A read the store stopped at its time limit (an inbox filter of many common texts over
        // many applications): the same request would stop again, so the answer says what to change.
        request.log.warn({ err: error }, 'statement stopped at the time limit');
        return sendProblem(reply, 503, 'This request took longer than the server allows. Narrow its filters and try again.', {
          headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
        });
      }
      if (isStoreUnavailable(error)) {
        // The database is down or full: the client may come back; nothing here is a bug.
        request.log.warn({ err: error }, 'store unavailable');
        return sendProblem(reply, 503, 'The service cannot reach its store right now. Please try again shortly.', {
          headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
        });
      }
      if (isStoreDataError(error)) {
        // A value the schemas let through that the database cannot take (PostgreSQL SQLSTATE class
        // 22: a NUL in a route parameter, say) is the request's fault, never a 500.
        return sendProblem(reply, 400, 'The request holds a value that cannot be stored or searched for.', { errors: unstorableValues(request) });
      }
      const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) {
        request.log.error({ err: error }, 'unhandled error');
        return sendProblem(reply, 500, 'Something went wrong on our side. Please try again later.');
      }
      const detail =
        // A body @fastify/compress could not decompress (FST_CP_ERR_…): no JSON was read at all.
        error.code?.startsWith('FST_CP_ERR')
          ? 'The body could not be decoded by its Content-Encoding.'
          : status === 413
            ? `The body is larger than ${formatBytes(request.routeOptions.bodyLimit)}.`
            : status === 415
              ? // The one-click unsubscription takes what mail clients send (RFC 8058); every other body is JSON.
                request.url.startsWith('/api/email/unsubscribe')
                ? 'Send the form as application/x-www-form-urlencoded or multipart/form-data.'
                : 'Send the body as application/json.'
              : status === 400
                ? 'The body is not valid JSON.'
                : (error.message ?? 'The request cannot be handled.');
      return sendProblem(reply, status, detail);
    });

    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '/';
      // requirements §2: any other path shows the wizard at the root; with the stored page its `?page=`
      // named, if any, and no other parameter.
      if ((request.method === 'GET' || request.method === 'HEAD') && !path.startsWith('/api/')) {
        const page = (request.query as { page?: unknown } | undefined)?.page;
        return reply.redirect(typeof page === 'string' && PAGE_ID_PATTERN.test(page) ? `/?page=${page}` : '/', 302);
      }
      return sendProblem(reply, 404, `Nothing is at ${request.method} ${path}.`);
    });
  },
  { name: 'problem-details' },
);
