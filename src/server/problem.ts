import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FieldError } from '../shared/payload';
import { ProblemDetailsSchema, type ProblemDetails } from '../shared/problem';

export type { ProblemDetails };

/** How a route's schema declares an error status it answers: problem details, with the status's reason phrase. */
export interface ProblemResponse {
  description: string;
  content: { 'application/problem+json': { schema: typeof ProblemDetailsSchema } };
}

/**
 * The error statuses a route answers, for its `schema.response` beside its successes:
 * `response: { 201: SavedSchema, ...problemResponses(403, 404, 410) }`. Each is sent as
 * `application/problem+json` ({@link sendProblem}) and listed in the API's OpenAPI document
 * (plugins/openapi.ts). The statuses every route of a kind answers (400 for bad input, 413 and 415
 * for a body, 401 and 403 in the inbox API, 429 under a rate limit, 500, 503) are added by the
 * plugins that answer them (`declareProblems`), not repeated on each route.
 * @param statuses - 4xx and 5xx codes (RFC 9110 §15).
 */
export function problemResponses<S extends number>(...statuses: S[]): Record<S, ProblemResponse> {
  const responses = {} as Record<S, ProblemResponse>;
  for (const status of statuses) {
    responses[status] = { description: STATUS_CODES[status] ?? 'Error', content: { 'application/problem+json': { schema: ProblemDetailsSchema } } };
  }
  return responses;
}

/**
 * Adds to a route's declared responses the error statuses a plugin answers on it (an `onRoute`
 * hook's work), keeping what the route declared itself.
 * @param route - the route's options as Fastify's `onRoute` hook gives them.
 */
export function declareProblems(route: { schema?: { response?: unknown } }, ...statuses: number[]): void {
  route.schema ??= {};
  route.schema.response = { ...problemResponses(...statuses), ...(route.schema.response as object | undefined) };
}

/** The problem details of a status and a sentence (RFC 9457, `type` about:blank). */
export function problemDetails(status: number, detail: string): ProblemDetails {
  return { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail };
}

/**
 * Writes problem details on a raw Node response: for the router's own refusals, which answer
 * before Fastify's reply exists (a path too long to route).
 */
export function writeRawProblem(response: ServerResponse, status: number, detail: string): void {
  response.writeHead(status, { 'content-type': 'application/problem+json; charset=utf-8' });
  response.end(JSON.stringify(problemDetails(status, detail)));
}

/** What a client error of Node's HTTP parser is answered with: status and sentence. */
const PARSER_REFUSALS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive.'],
};

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refused before Fastify saw it (headers
 * over 16 KiB, a request that never finished arriving, bytes that are not HTTP) is answered with
 * problem details (RFC 9457) like every other refusal, not Fastify's own JSON, and the connection
 * closed.
 * @param error - Node's parser error (`code` HPE_…, or ERR_HTTP_REQUEST_TIMEOUT).
 * @param socket - the client's connection.
 */
export function writeParserProblem(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] = PARSER_REFUSALS[error.code ?? ''] ?? [400, 'The request is not valid HTTP.'];
  const body = JSON.stringify(problemDetails(status, detail));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/**
 * Prepares `reply` for `application/problem+json` (status, type, `extra.headers`) and returns the
 * body, for a caller that sends it some other way (a hook whose return value is sent).
 * @param status - HTTP status (4xx or 5xx).
 * @param detail - a sentence for the client; never internals or a stack trace.
 */
export function prepareProblem(
  reply: FastifyReply,
  status: number,
  detail: string,
  extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
): ProblemDetails {
  const body = problemDetails(status, detail);
  if (extra.errors) body.errors = extra.errors;
  for (const [name, value] of Object.entries(extra.headers ?? {})) reply.header(name, value);
  reply.code(status).type('application/problem+json');
  return body;
}

/**
 * Sends `application/problem+json` ({@link prepareProblem}).
 * @param status - HTTP status (4xx or 5xx).
 * @param detail - a sentence for the client; never internals or a stack trace.
 */
export function sendProblem(
  reply: FastifyReply,
  status: number,
  detail: string,
  extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
): FastifyReply {
  return reply.send(prepareProblem(reply, status, detail, extra));
}
