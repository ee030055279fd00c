import type { FieldError } from './payload';
import { z } from './zod';

/**
 * An RFC 9457 problem details body (requirements §13), as the server sends it and the front ends
 * read it: `type` is `about:blank`, `title` the status's reason phrase, `detail` a sentence for
 * the person, `errors` the field paths a validation failure names. Other members are the
 * answer's own extensions (RFC 9457 §3.2: a stale draft's `revision`, `updatedAt`, `updatedBy`),
 * kept as they are. The server's routes declare it for each error status they answer (their
 * OpenAPI document lists them).
 */
export const ProblemDetailsSchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number(),
  detail: z.string(),
  /** Validation errors with dotted field paths (`personalInfo.emailAddress`); an error may add its own members (a `hint`). */
  errors: z.optional(z.array(z.looseObject({ path: z.string(), message: z.string() }))),
});

/** A problem details body (see {@link ProblemDetailsSchema}). */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** Validation errors with dotted field paths. */
  errors?: FieldError[];
}
