import { APPLICATION_SORTS, SORT_DIRECTIONS } from '../../shared/admin';
import { isPlainText } from '../../shared/rules';
import { UUID_PATTERN } from '../constants';
import type { ListOrder } from '../store/application-filters';
import type { ListPosition } from '../store/applications';

/** Longest sort key a cursor may carry, in characters (a name: first and last, 200 each). */
const MAX_CURSOR_VALUE_LENGTH = 401;

/**
 * The opaque `cursor` of the application list (requirements §17): base64url of a JSON array
 * `[sort, dir, value, receivedAt, id]`, the last row's position in its order (the list's sorts).
 */
export function encodeCursor(order: ListOrder, row: ListPosition): string {
  return Buffer.from(JSON.stringify([order.sort, order.dir, row.value ?? null, row.receivedAt, row.id])).toString('base64url');
}

/** A time the store keeps: ISO-8601 UTC, as `Date#toISOString` writes it. */
const isStoredTime = (value: unknown): value is string =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) && new Date(Date.parse(value)).toISOString() === value;

/**
 * A cursor made by {@link encodeCursor} for the same order, or undefined: the time must be the
 * ISO-8601 form the store keeps, the id a UUID, and the sort key a number for a number sort and
 * plain text otherwise, so nothing else reaches a query (a NUL inside one failed on
 * PostgreSQL only). A cursor of another sort or direction is not this list's.
 */
export function decodeCursor(cursor: string, order: ListOrder): ListPosition | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 5) return undefined;
  const [sort, dir, value, receivedAt, id] = parsed as unknown[];
  if (sort !== order.sort || dir !== order.dir || !APPLICATION_SORTS.includes(order.sort) || !SORT_DIRECTIONS.includes(order.dir)) return undefined;
  if (!isStoredTime(receivedAt) || typeof id !== 'string' || !UUID_PATTERN.test(id)) return undefined;
  if (sort === 'received') return value === null ? { receivedAt, id } : undefined;
  if (sort === 'followers' || sort === 'topPlatform')
    return Number.isSafeInteger(value) && (value as number) >= 0 ? { value: value as number, receivedAt, id } : undefined;
  return typeof value === 'string' && value.length <= MAX_CURSOR_VALUE_LENGTH && isPlainText(value) ? { value, receivedAt, id } : undefined;
}
