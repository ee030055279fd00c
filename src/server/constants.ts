/** Seconds a client is asked to wait after a 503 (`Retry-After`, DESIGN §4). */
export const RETRY_AFTER_SECONDS = 5;
