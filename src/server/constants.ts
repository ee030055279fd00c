/** Seconds a client is asked to wait after a 503 (`Retry-After`, DESIGN §4). */
export const RETRY_AFTER_SECONDS = 5;

/** The inbox's session cookie: a random token; the store keeps only its SHA-256 (decision 004). */
export const SESSION_COOKIE = 'admin_session';
