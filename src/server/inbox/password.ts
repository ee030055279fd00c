import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt's cost parameters (RFC 7914 §2): N the CPU/memory cost (a power of 2), r the block size, p the parallelism. */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/**
 * scrypt cost (RFC 7914): N = 2^16, r = 8, p = 1 uses 64 MiB per hash (memory-hard; OWASP's
 * password-storage sheet lists N ≥ 2^16 with r = 8 as a sound choice) and takes ~0.2 s here.
 */
const PASSWORD_COST: ScryptCost = { N: 2 ** 16, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, options: ScryptCost): Promise<Buffer> {
  const scryptOptions: ScryptOptions = { ...options, maxmem: 256 * options.N * options.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, scryptOptions, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/**
 * Hashes a password with scrypt and a random 16-byte salt.
 * @param cost - {@link PASSWORD_COST} unless given: every account the product creates uses it;
 *   tests give their own accounts a cheaper one, which their sign-ins then pay (tests/support/users.ts).
 * @returns `scrypt$N$r$p$<salt base64url>$<key base64url>`: the parameters travel with the hash,
 * so they can be raised later without breaking stored ones.
 */
export async function hashPassword(password: string, cost: ScryptCost = PASSWORD_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A hash of no password, checked when the e-mail has no account so both answers take as long. */
let decoy: Promise<string> | undefined;

/**
 * Checks a password against a stored hash in constant time; a missing or
 * malformed hash is checked against a decoy and fails, taking as long as a real check.
 */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    decoy ??= hashPassword(randomBytes(16).toString('hex'));
    await verifyPassword(password, await decoy);
    return false;
  }
  const [, n, r, p, salt, key] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
