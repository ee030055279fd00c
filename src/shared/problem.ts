import type { FieldError } from './payload';

/** An RFC 9457 problem details body (requirements §13), as the server sends it and the front ends read it. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** Validation errors with dotted field paths. */
  errors?: FieldError[];
}
