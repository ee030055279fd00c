import { newIdempotencyKey } from '../../shared/idempotency-key';

/**
 * The application's `Idempotency-Key` (requirements §13): one UUID (v7, {@link newIdempotencyKey}) per application,
 * kept in sessionStorage per page so retries and reloads reuse it and the
 * server never stores the same application twice; cleared after a successful
 * submit so the next application gets its own.
 */

const storageKey = (pageId: string) => `wizard:${pageId}:idempotency-key`;

function session(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined; // storage disabled: the key lives as long as the page
  }
}

const memory = new Map<string, string>();

/** The page's current key, created on first use. */
export function getIdempotencyKey(pageId: string): string {
  const storage = session();
  const existing = storage?.getItem(storageKey(pageId)) ?? memory.get(pageId);
  if (existing) return existing;
  const key = newIdempotencyKey();
  memory.set(pageId, key);
  try {
    storage?.setItem(storageKey(pageId), key);
  } catch {
    // quota or privacy mode: memory keeps it for this page's life
  }
  return key;
}

/** Forgets the page's key after a successful submit. */
export function clearIdempotencyKey(pageId: string): void {
  memory.delete(pageId);
  try {
    session()?.removeItem(storageKey(pageId));
  } catch {
    // nothing stored
  }
}
