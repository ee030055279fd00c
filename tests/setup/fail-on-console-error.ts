import { afterEach, vi } from 'vitest';

// A React warning (act, keys, invalid DOM nesting) is a bug: fail the test that caused it.
const errors: unknown[][] = [];
const original = console.error;
console.error = (...args: unknown[]) => {
  errors.push(args);
  original(...args);
};

afterEach(() => {
  vi.useRealTimers();
  // Drafts and idempotency keys live in web storage: every test starts without them.
  globalThis.sessionStorage?.clear();
  globalThis.localStorage?.clear();
  if (errors.length > 0) {
    const first = errors.splice(0).map((a) => a.map(String).join(' '))[0];
    throw new Error(`console.error was called: ${first}`);
  }
});
