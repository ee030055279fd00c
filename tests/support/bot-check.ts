import { randomUUID } from 'node:crypto';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { xsrfPair } from './xsrf';

/** ALTCHA's payload (`{ challenge, solution }`, or anything a test makes of it) as the `Altcha` header carries it: JSON in base64. */
export const altchaHeader = (payload: unknown): string => Buffer.from(JSON.stringify(payload)).toString('base64');

/** `challenge` solved as the wizard's worker solves it (altcha-lib), as the `Altcha` header's value. */
export async function solvedHeader(challenge: Challenge): Promise<string> {
  return altchaHeader({ challenge, solution: await solveChallenge({ challenge, deriveKey }) });
}

/**
 * The `Altcha` header of an application a test sends itself to a running server (docs/decisions/032):
 * the server's challenge for `key` and page `pageId` (`GET /api/challenge`), solved as the wizard's worker solves it.
 * The servers tests start take an application at once (`MIN_FILL_SECONDS=0`, tests/e2e/support.ts).
 * @param baseUrl - the server's address, `http://127.0.0.1:<port>`.
 * @param key - the application's Idempotency-Key.
 * @param pageId - the page it is sent to: `creators`, the default page, unless said.
 * @returns `{ Altcha: value }`, to spread into the request's headers.
 * @throws Error when the server gives no challenge.
 */
export async function botCheckHeaders(baseUrl: string, key: string, pageId = 'creators'): Promise<{ Altcha: string }> {
  const response = await fetch(`${baseUrl}/api/challenge?key=${key}&page=${pageId}`);
  if (!response.ok) throw new Error(`GET /api/challenge answered ${response.status}: ${await response.text()}`);
  return { Altcha: await solvedHeader((await response.json()) as Challenge) };
}

/**
 * Sends `body` to a running server as the wizard sends an application: JSON, the anti-forgery pair,
 * the Idempotency-Key `key` and its solved challenge ({@link botCheckHeaders}).
 * @returns the server's answer.
 */
export async function putApplication(baseUrl: string, body: unknown, key: string = randomUUID(), pageId = 'creators'): Promise<Response> {
  const xsrf = xsrfPair();
  return fetch(`${baseUrl}/api/syncPage/${pageId}`, {
    method: 'PUT',
    headers: {
      'Content-Type': 'application/json',
      Cookie: xsrf.cookie,
      'X-XSRF-TOKEN': xsrf.token,
      'Idempotency-Key': key,
      ...(await botCheckHeaders(baseUrl, key, pageId)),
    },
    body: JSON.stringify(body),
  });
}
