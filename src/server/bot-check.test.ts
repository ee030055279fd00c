import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChallenge, solveChallenge, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, validPayload } from '../../tests/factories/application';
import { altchaHeader, solvedHeader } from '../../tests/support/bot-check';
import { TEST_SECRET, xsrfPair } from '../../tests/support/xsrf';
import { newIdempotencyKey } from '../shared/idempotency-key';
import { buildApp } from './app';
import { BOT_CHECK_HEADER, issuedChallenge, solvedChallenge } from './bot-check';
import { openStore, type Store } from './store/store';

// The submit's bot check (docs/decisions/032), through the real routes: a challenge asked for a
// key, solved as the wizard's worker solves it (altcha-lib), checked before the body is read.
let dir: string;
let store: Store;
let app: Awaited<ReturnType<typeof buildApp>>;
let now = Date.UTC(2026, 10, 30, 12);
const headers = { ...xsrfPair().headers, 'content-type': 'application/json' };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bot-check-'));
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'dist', 'index.html'), '<!doctype html><html lang="en"><head><title>W</title><!--wizard-config--></head><body></body></html>');
  store = await openStore(`sqlite:${join(dir, 'applications.db')}`);
  app = await buildApp({
    config: defaultConfig(),
    store,
    distDir: join(dir, 'dist'),
    secret: TEST_SECRET,
    rateLimitPerMinute: 10_000,
    clock: () => now,
    botCheck: { minFillMs: 3_000, ttlMs: 60_000, maxCounter: 2_000 },
  });
});

afterAll(async () => {
  await app.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Asks for a challenge for `key` and solves it: the `Altcha` header's value. */
async function solved(key: string, page = 'creators'): Promise<string> {
  const response = await app.inject({ method: 'GET', url: `/api/challenge?key=${key}&page=${page}` });
  expect(response.statusCode).toBe(200);
  expect(response.headers['cache-control']).toBe('no-store');
  return solvedHeader(response.json<Challenge>());
}

const put = (key: string | undefined, altcha: string | undefined, body: unknown = validPayload()) =>
  app.inject({
    method: 'PUT',
    url: '/api/syncPage/creators',
    headers: { ...headers, ...(key ? { 'idempotency-key': key } : {}), ...(altcha ? { [BOT_CHECK_HEADER]: altcha } : {}) },
    payload: JSON.stringify(body),
  });

describe('the bot check on PUT /api/syncPage/{pageId}', () => {
  it('stores an application with a solved challenge for its key, sent after the minimum fill time', async () => {
    const key = newIdempotencyKey();
    const altcha = await solved(key);
    now += 3_000;
    const response = await put(key, altcha);
    expect(response.statusCode).toBe(201);
  });

  it('refuses, before storing, an application without a solution, with one of another key or page, one sent too soon, a tampered one and an expired one (400 at Altcha)', async () => {
    const refused = async (response: Awaited<ReturnType<typeof put>>, detail: RegExp) => {
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      const body = response.json<{ detail: string; errors: { path: string }[] }>();
      expect(body.detail).toMatch(detail);
      expect(body.errors).toEqual([{ path: 'Altcha', message: body.detail }]);
    };
    const key = newIdempotencyKey();
    await refused(await put(key, undefined), /needs a solved challenge/);
    await refused(await put(key, 'not base64 json'), /not an ALTCHA payload/);
    const altcha = await solved(key);
    // Sooner than three seconds after the challenge: no person fills a page that fast.
    now += 2_999;
    await refused(await put(key, altcha), /too soon/);
    now += 1;
    await refused(await put(newIdempotencyKey(), altcha), /another Idempotency-Key/);
    // One solution, one page: solved for another page (where the same key would be new), refused here.
    const elsewhere = await solved(key, 'another-page');
    now += 3_000;
    await refused(await put(key, elsewhere), /another page/);
    // A valid header with something after it (a second header joined to the first) is no payload.
    await refused(await put(key, `${altcha}, zz`), /not an ALTCHA payload/);
    await refused(await put(key, `${altcha}!!`), /not an ALTCHA payload/);
    await refused(await put(undefined, altcha), /needs its Idempotency-Key/);
    const payload = JSON.parse(Buffer.from(altcha, 'base64').toString()) as { challenge: Challenge; solution: { derivedKey: string } };
    const tampered = {
      ...payload,
      solution: { ...payload.solution, derivedKey: payload.solution.derivedKey.replace(/.$/, (last) => (last === '0' ? '1' : '0')) },
    };
    await refused(await put(key, altchaHeader(tampered)), /not solved/);
    const otherData = { ...payload, challenge: { ...payload.challenge, parameters: { ...payload.challenge.parameters, data: { key, issuedAt: 0 } } } };
    await refused(await put(key, altchaHeader(otherData)), /not solved/);
    now += 60_000;
    await refused(await put(key, altcha), /expired/);
    expect(await store.applications.findByIdempotencyKey('creators', key)).toBeUndefined();
  });

  it('lets one solution store one application: a replay under its key answers the first id, with other answers 422, under another key 400', async () => {
    const key = newIdempotencyKey();
    const altcha = await solved(key);
    now += 3_000;
    const first = await put(key, altcha);
    expect(first.statusCode).toBe(201);
    const again = await put(key, altcha);
    expect(again.statusCode).toBe(200);
    expect(again.json<{ id: string }>().id).toBe(first.json<{ id: string }>().id);
    const other = validPayload();
    other.personalInfo.firstName = 'Someone';
    expect((await put(key, altcha, other)).statusCode).toBe(422);
    expect((await put(newIdempotencyKey(), altcha, other)).statusCode).toBe(400);
  });

  it('refuses an application whose honeypot was filled (400 at honeypot), and asks a challenge only for a UUID', async () => {
    const key = newIdempotencyKey();
    const altcha = await solved(key);
    now += 3_000;
    const response = await put(key, altcha, { ...validPayload(), honeypot: 'https://spam.example' });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ errors: { path: string }[] }>().errors.map((error) => error.path)).toEqual(['honeypot']);
    const bad = await app.inject({ method: 'GET', url: '/api/challenge?key=nope&page=creators' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ errors: { path: string }[] }>().errors).toEqual([{ path: 'key', message: 'Expected a UUID' }]);
    for (const page of ['', '../admin', 'a'.repeat(65)]) {
      const noPage = await app.inject({ method: 'GET', url: `/api/challenge?key=${key}${page === '' ? '' : `&page=${encodeURIComponent(page)}`}` });
      expect(noPage.statusCode).toBe(400);
      expect(noPage.json<{ errors: { path: string }[] }>().errors).toEqual([{ path: 'page', message: 'Expected a page id' }]);
    }
  });

  it('asks the same of a link to finish on another device: an e-mail to any address costs a solved challenge for the key and page (400 at Altcha without)', async () => {
    const key = newIdempotencyKey();
    const keep = (extra: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/api/drafts/creators',
        headers: { ...headers, 'idempotency-key': key, ...extra },
        payload: JSON.stringify({ email: 'kai@example.com', step: 1, values: {} }),
      });
    const bare = await keep({});
    expect(bare.statusCode).toBe(400);
    expect(bare.json<{ errors: { path: string }[] }>().errors.map((error) => error.path)).toEqual(['Altcha']);
    const elsewhere = await solved(key, 'another-page');
    now += 3_000;
    expect((await keep({ [BOT_CHECK_HEADER]: elsewhere })).statusCode).toBe(400);
    const altcha = await solved(key);
    now += 3_000;
    expect((await keep({ [BOT_CHECK_HEADER]: altcha })).statusCode).toBe(202);
    // One solution, one link: the same header again, to any address, is refused and sends nothing.
    const again = await app.inject({
      method: 'POST',
      url: '/api/drafts/creators',
      headers: { ...headers, 'idempotency-key': key, [BOT_CHECK_HEADER]: altcha },
      payload: JSON.stringify({ email: 'someone.else@example.com', step: 1, values: {} }),
    });
    expect(again.statusCode).toBe(400);
    expect(again.json<{ errors: { path: string }[] }>().errors.map((error) => error.path)).toEqual(['Altcha']);
    expect(await store.resumeDrafts.byEmail('someone.else@example.com')).toEqual([]);
    // Many at once with one solution, each to another address: one link.
    const once = newIdempotencyKey();
    const header = await solved(once);
    now += 3_000;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        app.inject({
          method: 'POST',
          url: '/api/drafts/creators',
          headers: { ...headers, 'idempotency-key': once, [BOT_CHECK_HEADER]: header },
          payload: JSON.stringify({ email: `many${index}@example.com`, step: 1, values: {} }),
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([202, 400, 400, 400, 400, 400]);
  });

  it("judges a solution as altcha-lib's own verification does, solved or changed in any part", async () => {
    const secret = 'a-secret-of-the-tests:challenge';
    for (let index = 0; index < 8; index++) {
      const challenge = await createChallenge({
        algorithm: 'SHA-256',
        cost: 1,
        counter: index * 97,
        data: { key: newIdempotencyKey(), page: 'creators', issuedAt: 1, notBefore: 2, expiresAt: 3 },
        deriveKey,
        hmacSignatureSecret: secret,
      });
      const solution = (await solveChallenge({ challenge, deriveKey }))!;
      const parameters = challenge.parameters;
      const flip = (hex: string) => hex.replace(/.$/, (last) => (last === '0' ? '1' : '0'));
      const cases: [Challenge, typeof solution][] = [
        [challenge, solution],
        [challenge, { ...solution, derivedKey: flip(solution.derivedKey) }],
        [challenge, { ...solution, counter: solution.counter + 1 }],
        [challenge, { ...solution, derivedKey: solution.derivedKey.toUpperCase() }],
        [{ ...challenge, signature: flip(challenge.signature!) }, solution],
        [{ ...challenge, signature: challenge.signature!.toUpperCase() }, solution],
        [{ ...challenge, parameters: { ...parameters, nonce: flip(parameters.nonce) } }, solution],
        [{ ...challenge, parameters: { ...parameters, salt: flip(parameters.salt) } }, solution],
        [{ ...challenge, parameters: { ...parameters, keyPrefix: '' } }, solution],
        [{ ...challenge, parameters: { ...parameters, data: { ...parameters.data, page: 'another' } } }, solution],
        [challenge, { ...solution, counter: -1 }],
      ];
      for (const [given, solved] of cases) {
        const library = await verifySolution({ challenge: given, solution: solved, deriveKey, hmacSignatureSecret: secret }).catch(() => undefined);
        expect(solvedChallenge(given, solved, secret), JSON.stringify({ given, solved })).toBe(library?.verified === true);
      }
    }
  });

  it("issues challenges as altcha-lib's createChallenge makes them, which its solver solves and its verification accepts", async () => {
    const secret = 'a-secret-of-the-tests:challenge';
    const data = { key: newIdempotencyKey(), page: 'creators', issuedAt: 1, notBefore: 2, expiresAt: 3 };
    const library = await createChallenge({ algorithm: 'SHA-256', cost: 1, counter: 5, data, deriveKey, hmacSignatureSecret: secret });
    const nonces = new Set<string>();
    for (const counter of [0, 1, 97, 1_999, 50_000]) {
      const challenge = issuedChallenge(counter, data, secret);
      // The same parameters, in the same (sorted) order, each of the same kind and length.
      expect(Object.keys(challenge.parameters)).toEqual(Object.keys(library.parameters));
      for (const name of Object.keys(library.parameters) as (keyof Challenge['parameters'])[]) {
        expect(typeof challenge.parameters[name]).toBe(typeof library.parameters[name]);
        if (typeof library.parameters[name] === 'string') expect(String(challenge.parameters[name]).length).toBe(String(library.parameters[name]).length);
      }
      expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
      nonces.add(challenge.parameters.nonce).add(challenge.parameters.salt);
      const solution = (await solveChallenge({ challenge, deriveKey }))!;
      expect(solution.counter).toBe(counter);
      expect(await verifySolution({ challenge, solution, deriveKey, hmacSignatureSecret: secret })).toMatchObject({ verified: true });
      expect(solvedChallenge(challenge, solution, secret)).toBe(true);
    }
    // A nonce and a salt of their own each time.
    expect(nonces.size).toBe(10);
  });
});
