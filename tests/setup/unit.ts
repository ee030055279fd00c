import { afterEach, vi } from 'vitest';

// Setup file of the `unit` project: every test starts with real timers and empty web storage
// (drafts and idempotency keys live there).
afterEach(() => {
  vi.useRealTimers();
  globalThis.sessionStorage?.clear();
  globalThis.localStorage?.clear();
});
