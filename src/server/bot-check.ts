import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Challenge, Solution } from 'altcha-lib';
import { UUID_PATTERN } from './constants';
import type { Clock } from './clock';

/**
 * The submit's bot check (requirements §13; docs/decisions/032): an ALTCHA proof-of-work
 * challenge (altcha-lib, version 2, SHA-256) the wizard solves in the background, bound to the
 * application's `Idempotency-Key` so one solution stores one application at most, and a minimum
 * time between the challenge and the submit. Stateless: the challenge is signed (HMAC-SHA-256)
 * with a secret every process shares, so any process checks what another issued.
 */
export interface BotCheckOptions {
  /** The shortest time from the challenge to the submit, in ms (`MIN_FILL_SECONDS`; default {@link DEFAULT_MIN_FILL_MS}). */
  minFillMs?: number;
  /** How long a challenge may be used, in ms (default {@link CHALLENGE_TTL_MS}); past it the wizard asks for another. */
  ttlMs?: number;
  /** The largest counter a solver may have to reach (`BOT_CHECK_MAX_NUMBER`; default {@link MAX_COUNTER}): the work asked, half of it on average. */
  maxCounter?: number;
}

/** Three seconds: no person fills a page in less; a script posting at once is refused. */
export const DEFAULT_MIN_FILL_MS = 3_000;
/** Two hours: a person who leaves the page longer gets another challenge, solved in the background. */
export const CHALLENGE_TTL_MS = 2 * 3_600_000;
/**
 * 50 000 SHA-256 digests at most (25 000 on average): under a second in a phone's browser, in a
 * worker, while the applicant types; each application then costs a script that much work.
 */
export const MAX_COUNTER = 50_000;
/** The header a submit carries its solution in: ALTCHA's payload (`{ challenge, solution }`), JSON in base64. */
export const BOT_CHECK_HEADER = 'altcha';

/**
 * What the challenge's signed data says: the key it is for, when it was issued, from and until when it
 * may be used (ms since the epoch, the server's clock: checked here rather than by altcha-lib,
 * which reads the system's).
 */
interface ChallengeData {
  key: string;
  /** The page the application is for: a solution stores one application, on that page only. */
  page: string;
  issuedAt: number;
  /** The earliest the application may come: `issuedAt` and the minimum fill time. */
  notBefore: number;
  expiresAt: number;
}

/** Issues and checks the submit's challenges ({@link BotCheckOptions}). */
export class BotCheck {
  readonly minFillMs: number;
  readonly ttlMs: number;
  readonly maxCounter: number;

  /**
   * @param secret - signs the challenges (the HMAC key is derived from it).
   * @param clock - the time now in ms.
   */
  constructor(
    private readonly secret: string,
    private readonly clock: Clock,
    options: BotCheckOptions = {},
  ) {
    this.minFillMs = options.minFillMs ?? DEFAULT_MIN_FILL_MS;
    this.ttlMs = options.ttlMs ?? CHALLENGE_TTL_MS;
    this.maxCounter = options.maxCounter ?? MAX_COUNTER;
  }

  /**
   * A challenge for the application under `key` (a UUID, lower case) to page `page`: its counter chosen at random
   * from 0 to {@link maxCounter}, its prefix derived from it (ALTCHA's deterministic mode, see
   * {@link issuedChallenge}), the key, the page and the issue time signed in its data, expiring after
   * {@link ttlMs}.
   */
  challenge(key: string, page: string): Challenge {
    const now = this.clock();
    const data: ChallengeData = { key, page, issuedAt: now, notBefore: now + this.minFillMs, expiresAt: now + this.ttlMs };
    // Anywhere in the range: a solver that knows the range gains nothing by starting part-way.
    return issuedChallenge(randomInt(0, this.maxCounter + 1), { ...data }, `${this.secret}:challenge`);
  }

  /**
   * Checks a submit's `Altcha` header for the application under `key` to page `page`.
   * @returns undefined when it holds; else why not, in words for the client's developer (the
   * wizard itself asks for another challenge and sends again).
   */
  async verify(header: string | string[] | undefined, key: string | undefined, page: string): Promise<string | undefined> {
    if (typeof header !== 'string' || header === '') return 'An application needs a solved challenge in its Altcha header (GET /api/challenge).';
    if (typeof key !== 'string' || !UUID_PATTERN.test(key.toLowerCase())) return 'An application with a challenge needs its Idempotency-Key (a UUID).';
    let challenge: Challenge;
    let solution: Solution;
    // Base64 and nothing else (Node's decoder would skip what follows the padding: a second header joined to the first).
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(header)) return 'The Altcha header is not an ALTCHA payload.';
    try {
      const decoded = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as { challenge?: Challenge; solution?: Solution };
      if (!isChallenge(decoded.challenge) || !isSolution(decoded.solution)) return 'The Altcha header is not an ALTCHA payload.';
      ({ challenge, solution } = decoded as { challenge: Challenge; solution: Solution });
    } catch {
      return 'The Altcha header is not an ALTCHA payload.';
    }
    if (!solvedChallenge(challenge, solution, `${this.secret}:challenge`)) return 'The challenge is not solved.';
    const data = challenge.parameters.data as Partial<ChallengeData> | undefined;
    if (data?.key !== key.toLowerCase()) return 'The challenge was solved for another Idempotency-Key.';
    if (data.page !== page) return 'The challenge was solved for another page.';
    const now = this.clock();
    if (typeof data.expiresAt !== 'number' || now >= data.expiresAt) return 'The challenge expired: ask for another.';
    if (typeof data.notBefore !== 'number' || now < data.notBefore) return 'The application came too soon after its challenge.';
    return undefined;
  }
}

const isChallenge = (value: unknown): value is Challenge =>
  typeof value === 'object' && value !== null && typeof (value as Challenge).parameters === 'object' && (value as Challenge).parameters !== null;

const isSolution = (value: unknown): value is Solution =>
  typeof value === 'object' && value !== null && Number.isSafeInteger((value as Solution).counter) && typeof (value as Solution).derivedKey === 'string';

/** `value` with its objects' keys sorted, recursively: ALTCHA's canonical JSON of what it signs. */
function sortedKeys(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}

const HEX = /^(?:[0-9a-f]{2})+$/i;

/** The key ALTCHA version 2 derives at cost 1 with SHA-256: SHA-256 of the salt, the nonce and the counter (32-bit big-endian). */
function keyFor(salt: Buffer, nonce: Buffer, counter: number): Buffer {
  const password = Buffer.alloc(nonce.length + 4);
  nonce.copy(password);
  password.writeUInt32BE(counter, nonce.length);
  return createHash('sha256').update(salt).update(password).digest();
}

/**
 * An ALTCHA version 2 challenge as altcha-lib's `createChallenge` makes it in its deterministic mode
 * with SHA-256, cost 1 and the default key length (32 bytes) and prefix (its first 16 bytes), signed
 * with HMAC-SHA-256 over its parameters' canonical JSON — with Node's own random bytes, SHA-256 and
 * HMAC: altcha-lib's takes about 0.2 ms a challenge under load (Web Crypto imports the key and signs
 * through a promise each time, docs/performance.md), this a few µs. src/server/bot-check.test.ts
 * checks that altcha-lib's solver solves it and its verification accepts the solution.
 * @param counter - the solution's counter, from 0 to 2^32 − 1.
 * @param data - what the challenge carries, signed.
 * @param hmacSecret - the signature's secret.
 */
export function issuedChallenge(counter: number, data: Record<string, unknown>, hmacSecret: string): Challenge {
  const random = randomBytes(32);
  const nonce = random.subarray(0, 16);
  const salt = random.subarray(16);
  const parameters = sortedKeys({
    algorithm: 'SHA-256',
    cost: 1,
    data,
    keyLength: 32,
    keyPrefix: keyFor(salt, nonce, counter).subarray(0, 16).toString('hex'),
    nonce: nonce.toString('hex'),
    salt: salt.toString('hex'),
  }) as unknown as Challenge['parameters'];
  const signature = createHmac('sha256', hmacSecret).update(JSON.stringify(parameters)).digest('hex');
  return { parameters, signature };
}

/**
 * Whether `solution` solves `challenge` as this server issued it (docs/decisions/032, "The check's
 * cost"): ALTCHA version 2's verification (altcha-lib's `verifySolution`, path 4b) for the one kind
 * of challenge issued here — SHA-256, cost 1, a 32-bit counter — with Node's own HMAC and SHA-256:
 * the challenge's HMAC-SHA-256 over its parameters' canonical JSON equals its signature (compared in
 * constant time); the key derived again, SHA-256 of the salt then the nonce and the counter
 * (big-endian), equals the solution's and starts with the signed prefix. altcha-lib's own check
 * takes 0.14 ms (Web Crypto imports the key and signs through a promise each time), this 0.009 ms,
 * and the submit is CPU-bound on one core; src/server/bot-check.test.ts checks the two agree.
 * Never throws: anything malformed is unsolved.
 */
export function solvedChallenge(challenge: Challenge, solution: Solution, hmacSecret: string): boolean {
  const parameters = challenge.parameters as unknown as Record<string, unknown>;
  const { algorithm, cost, nonce, salt, keyPrefix, keyLength = 32 } = parameters;
  const { counter, derivedKey } = solution;
  if (typeof challenge.signature !== 'string' || !/^(?:[0-9a-f]{2})+$/.test(challenge.signature)) return false;
  if (algorithm !== 'SHA-256' || cost !== 1 || keyLength !== 32) return false;
  if (typeof nonce !== 'string' || typeof salt !== 'string' || typeof keyPrefix !== 'string' || !HEX.test(nonce) || !HEX.test(salt)) return false;
  if (!Number.isInteger(counter) || counter < 0 || counter > 0xffffffff || typeof derivedKey !== 'string' || !/^(?:[0-9a-f]{2})+$/.test(derivedKey))
    return false;
  const expected = createHmac('sha256', hmacSecret)
    .update(JSON.stringify(sortedKeys(parameters)))
    .digest();
  const given = Buffer.from(challenge.signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  const key = keyFor(Buffer.from(salt, 'hex'), Buffer.from(nonce, 'hex'), counter).toString('hex');
  return key === derivedKey && key.startsWith(keyPrefix.toLowerCase());
}
