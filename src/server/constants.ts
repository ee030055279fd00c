/** Seconds a client is asked to wait after a 503 (`Retry-After`, requirements §13). */
export const RETRY_AFTER_SECONDS = 5;

/** A UUID in its canonical form, lower-case hex (RFC 9562 §4): application ids, idempotency keys. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The inbox's session cookie: a random token; the store keeps only its SHA-256 (decision 004). */
export const SESSION_COOKIE = 'admin_session';
