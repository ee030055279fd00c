import { sha256 } from '@noble/hashes/sha2.js';
import { solveChallenge, type Challenge, type DeriveKeyFunction, type Solution } from 'altcha-lib';

/**
 * ALTCHA's SHA-256 key derivation (altcha-lib's `algorithms/web/sha`: `cost` rounds over the salt
 * and the password, the key cut to `keyLength` bytes) with a JavaScript SHA-256 (@noble/hashes),
 * for a page outside a secure context, where the browser has no Web Crypto (plain HTTP on a host
 * name other than localhost's).
 */
const deriveKey: DeriveKeyFunction = async (parameters, salt, password) => {
  let derivedKey = new Uint8Array(salt.length + password.length);
  derivedKey.set(salt);
  derivedKey.set(password, salt.length);
  for (let round = 0; round < Math.max(1, parameters.cost); round++) derivedKey = sha256(derivedKey);
  return { derivedKey: derivedKey.slice(0, parameters.keyLength) };
};

/**
 * Solves the bot check's challenge on the page itself (docs/decisions/032), where the worker's Web
 * Crypto is missing: a chunk of its own, loaded only then.
 * @returns the solution, or null when it took longer than altcha-lib's 90 s.
 */
export function solveInPage(challenge: Challenge): Promise<Solution | null> {
  return solveChallenge({ challenge, deriveKey });
}
