import { afterEach, vi } from 'vitest';
import { PHONE_METADATA_PATH } from '../../src/shared/phone-metadata';
import { fetchPhoneMetadata } from '../../src/wizard/preview/phone-metadata-fetch';

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
// A calling code's numbering plans (src/shared/phone-metadata.ts), which the built server serves as
// files, are cut from the whole metadata, as the builder's preview has them.
const pageFetch = globalThis.fetch;
globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = String(input instanceof Request ? input.url : input);
  if (url.startsWith('/api/challenge')) return new Response(null, { status: 404 });
  if (url.startsWith(PHONE_METADATA_PATH) && url.endsWith('.json')) {
    const plans = await fetchPhoneMetadata(url.slice(PHONE_METADATA_PATH.length, -'.json'.length)).catch(() => undefined);
    return plans ? Response.json(plans) : new Response(null, { status: 404 });
  }
  return pageFetch(input, init);
}) as typeof fetch;
