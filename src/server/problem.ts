import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { FieldError } from '../shared/payload';
import type { ProblemDetails } from '../shared/problem';

export type { ProblemDetails };

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

/**
 * Sends `application/problem+json`.
 * @param status - HTTP status (4xx or 5xx).
 * @param detail - a sentence for the client; never internals or a stack trace.
 */
export function sendProblem(
  reply: FastifyReply,
  status: number,
  detail: string,
  extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
): FastifyReply {
  const body = problemDetails(status, detail);
  if (extra.errors) body.errors = extra.errors;
  for (const [name, value] of Object.entries(extra.headers ?? {})) reply.header(name, value);
  return reply.code(status).type('application/problem+json').send(body);
}
