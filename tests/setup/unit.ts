import { afterEach, vi } from 'vitest';

// Setup file of the `unit` project: every test starts with real timers and empty web storage
// (drafts and idempotency keys live there).
afterEach(() => {
  vi.useRealTimers();
  globalThis.sessionStorage?.clear();
  globalThis.localStorage?.clear();
});

// The wizard asks its server for the bot check's challenge as the engine arrives (docs/decisions/032).
// A unit test's page has no server behind it (happy-dom's fetch would go to localhost:3000 and print
// the refused connection): the challenge is answered 404, as a server without the check answers it.
// The check itself is tested against the real server: src/server/bot-check.test.ts, tests/e2e/bot-check.test.ts.
const pageFetch = globalThis.fetch;
globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
  String(input instanceof Request ? input.url : input).startsWith('/api/challenge')
    ? Promise.resolve(new Response(null, { status: 404 }))
    : pageFetch(input, init)) as typeof fetch;
