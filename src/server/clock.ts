/**
 * The server's clock: the time now, in ms since the Unix epoch. Injected (`AppOptions.clock`) so
 * that session lifetimes, sign-in windows and report days are tested without waiting for time to
 * pass; `Date.now` in production.
 */
export type Clock = () => number;

/** The wall clock. */
export const systemClock: Clock = () => Date.now();
