import { UUID_PATTERN } from '../constants';

/** The list's keyset position: the last row's time (ISO-8601 UTC, as stored) and id. */
export interface ListPosition {
  receivedAt: string;
  id: string;
}

/** The opaque `cursor` of the application list (DESIGN §8): base64url of `receivedAt|id`. */
export function encodeCursor(row: ListPosition): string {
  return Buffer.from(`${row.receivedAt}|${row.id}`).toString('base64url');
}

/**
 * A cursor made by {@link encodeCursor}, or undefined: the time must be the ISO-8601 form the store
 * keeps and the id a UUID, so nothing else reaches a query (issue 11: a NUL inside one failed on
 * PostgreSQL only).
 */
export function decodeCursor(cursor: string): ListPosition | undefined {
  const [receivedAt, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!receivedAt || !id || rest.length > 0 || !UUID_PATTERN.test(id)) return undefined;
  const ms = Date.parse(receivedAt);
  if (Number.isNaN(ms) || new Date(ms).toISOString() !== receivedAt) return undefined;
  return { receivedAt, id };
}
