import { STATUS_CODES } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { FieldError } from '../shared/payload';
import type { ProblemDetails } from '../shared/problem';

export type { ProblemDetails };

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
  const body: ProblemDetails = { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail };
  if (extra.errors) body.errors = extra.errors;
  for (const [name, value] of Object.entries(extra.headers ?? {})) reply.header(name, value);
  return reply.code(status).type('application/problem+json').send(body);
}
