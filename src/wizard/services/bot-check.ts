import type { Challenge } from 'altcha-lib';
import ShaWorker from 'altcha/workers/sha?worker';

/**
 * The submit's proof of work (docs/decisions/032): the server's ALTCHA challenge for the
 * application's Idempotency-Key and page, solved in a worker (altcha's own SHA-256 solver) while the
 * applicant types, so nobody waits for it; sent in the `Altcha` header, no sooner than the
 * challenge's `notBefore` (the minimum fill time, measured on this device's clock from when the
 * challenge arrived).
 */

/** A solved challenge: the header's value, and from when (this device's ms) it may be sent. */
interface Proof {
  header: string;
  sendFromMs: number;
}

/** The signed data of the server's challenge (src/server/bot-check.ts), in the server's ms. */
interface ChallengeData {
  issuedAt: number;
  notBefore: number;
}

const proofs = new Map<string, Promise<Proof | undefined>>();

/** Asks for the challenge for `key` on page `pageId` and solves it; undefined when the server asks none (its bot check is off) or it failed. */
async function solve(key: string, pageId: string): Promise<Proof | undefined> {
  const response = await fetch(`/api/challenge?key=${key}&page=${pageId}`);
  if (!response.ok) return undefined;
  const challenge = (await response.json()) as Challenge & { parameters: { data: ChallengeData } };
  // The server's time on this device's clock, from when the challenge arrived.
  const { issuedAt, notBefore } = challenge.parameters.data;
  const shift = Date.now() - issuedAt;
  // Outside a secure context (plain HTTP on another host name than localhost's) the browser has no
  // Web Crypto for the worker: a JavaScript SHA-256 on the page, loaded only then.
  const solution = crypto.subtle ? await inWorker(challenge) : await (await import('./solve-in-page')).solveInPage(challenge);
  if (!solution || (solution as { error?: unknown }).error) return undefined;
  return { header: btoa(JSON.stringify({ challenge, solution })), sendFromMs: notBefore + shift };
}

/** Solves `challenge` in altcha's worker: from counter 0 by 1, as ALTCHA's version 2 counts (uint32), for 90 s at most (its defaults). */
function inWorker(challenge: Challenge): Promise<unknown> {
  const worker = new ShaWorker();
  return new Promise<unknown>((resolve, reject) => {
    worker.onmessage = (message: MessageEvent) => {
      worker.terminate();
      resolve(message.data);
    };
    worker.onerror = reject;
    worker.postMessage({ type: 'work', challenge });
  });
}

/** Starts solving the challenge for `key` on page `pageId` in the background, unless it has been (a key is one page's). */
export function prepareProof(key: string, pageId: string): void {
  if (!proofs.has(key))
    proofs.set(
      key,
      solve(key, pageId).catch(() => undefined),
    );
}

/**
 * The `Altcha` header's value for the application under `key` to page `pageId`, once it may be sent: solved now
 * unless it was, asked for again when `again` (the server refused the last: it expired, say).
 * @returns undefined when the server asks for none or the challenge could not be had.
 */
export async function proofFor(key: string, pageId: string, again = false): Promise<string | undefined> {
  if (again) proofs.delete(key);
  prepareProof(key, pageId);
  const proof = await proofs.get(key);
  if (proof) await new Promise((resolve) => setTimeout(resolve, proof.sendFromMs - Date.now()));
  return proof?.header;
}
