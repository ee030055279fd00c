/**
 * What the real wizard sends, for the bench's load generators: every submission is `PUT
 * /api/syncPage/:pageId` with JSON, `Accept: application/json`, a fresh `Idempotency-Key` (a UUID v7
 * from {@link newIdempotencyKey}, as the wizard makes it), and the anti-forgery pair the page set (the
 * `XSRF-TOKEN` cookie from `GET /`, echoed in the `X-XSRF-Token` header); each applicant has their
 * own e-mail address and handles, so the unique and duplicate-detection indexes grow as they do in
 * production; and, to a server with the bot check, its challenge solved for its key (`Altcha`, asked
 * for before the timed run: {@link proofsFor}).
 */
import { Agent, request as httpRequest } from 'node:http';
import { botCheckHeaders } from '../tests/support/bot-check';
import type { Options as AutocannonOptions } from 'autocannon';
import { validPayload } from '../tests/factories/application';
import { newIdempotencyKey } from '../src/shared/idempotency-key';
import type { ApplicationPayload } from '../src/shared/payload';

/** The page every bench submission is for (the default configuration's `pageId`). */
export const BENCH_PAGE_ID = 'creators';

/** Size of every bench submission's JSON body, in bytes (about what the default page's wizard sends). */
export const BENCH_BODY_BYTES = 1024;

/**
 * Applicant number `n`'s valid application: distinct e-mail address, Instagram and TikTok handles
 * (`salt` tells runs apart, so two runs on one database do not repeat each other), padded with the
 * free-text answer to {@link BENCH_BODY_BYTES}.
 */
export function benchPayload(n: number, salt: string): ApplicationPayload {
  const tag = `${salt}${n.toString(36)}`;
  const payload = validPayload({
    personalInfo: { ...validPayload().personalInfo, emailAddress: `creator.${tag}@example.com` },
    platforms: {
      instagram: { handle: `maker.${tag}`, followers: String(1000 + (n % 90_000)) },
      tiktok: { handle: `@tok${tag}`, followers: String(200 + (n % 9000)) },
    },
  });
  // Free text as applicants write it: every answer its own (the tallies and search index grow as
  // they do in production), padded to the body size with words drawn from the applicant's number.
  const words: string[] = [];
  let budget = BENCH_BODY_BYTES - JSON.stringify(payload).length - 1;
  // A 32-bit linear congruential sequence seeded with the applicant's number (Numerical Recipes' constants).
  for (let seed = (Math.imul(n + 1, 2_654_435_761) ^ salt.length) >>> 0; budget > 0; seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0) {
    const word = `${FREE_TEXT_WORDS[(seed >>> 16) % FREE_TEXT_WORDS.length]}${(seed >>> 8) % 97}`.slice(0, budget);
    words.push(word);
    budget -= word.length + 1;
  }
  if (words.length > 0) payload.fields = { ...payload.fields, dreamCampaign: `${payload.fields?.dreamCampaign ?? ''} ${words.join(' ')}`.trimEnd() };
  return payload;
}

/** Words the bench's free-text answers are made of (see {@link benchPayload}). */
const FREE_TEXT_WORDS = [
  'putty',
  'dough',
  'stop-motion',
  'unboxing',
  'tutorial',
  'series',
  'family',
  'weekend',
  'craft',
  'colour',
  'glow',
  'slime',
  'castle',
  'rocket',
  'reel',
  'short',
  'live',
  'story',
  'review',
  'challenge',
];

/**
 * The anti-forgery pair as the wizard has it: the cookie `GET /` sets, echoed in the header.
 * Empty for a server that sets none (the bare baseline route).
 */
export async function xsrfHeaders(url: string): Promise<Record<string, string>> {
  const page = await fetch(`${url}/`, { redirect: 'manual' });
  const cookie = page.headers
    .getSetCookie()
    .find((line) => line.startsWith('XSRF-TOKEN='))
    ?.split(';')[0];
  return cookie ? { cookie, 'x-xsrf-token': decodeURIComponent(cookie.slice('XSRF-TOKEN='.length)) } : {};
}

/** An application's key and, for a server with the bot check, its solved challenge's header. */
export interface Proof {
  key: string;
  headers: Record<string, string>;
}

/**
 * `count` keys, each with its challenge asked of `url` and solved (docs/decisions/032), 32 at a time:
 * the bench's submissions carry them as the wizard's do. A server without the bot check (an earlier
 * commit's, `BENCH_VERSUS`) answers no challenge: the keys alone.
 */
export async function proofsFor(url: string, count: number): Promise<Proof[]> {
  const probe = await fetch(`${url}/api/challenge?key=${newIdempotencyKey()}&page=${BENCH_PAGE_ID}`);
  await probe.body?.cancel();
  if (probe.status === 404) return Array.from({ length: count }, () => ({ key: newIdempotencyKey(), headers: {} }));
  const proofs: Proof[] = [];
  let asked = 0;
  const worker = async () => {
    // A slot is taken before the wait, so 32 workers ask for `count` in all.
    while (asked < count) {
      asked += 1;
      const key = newIdempotencyKey();
      proofs.push({ key, headers: await botCheckHeaders(url, key, BENCH_PAGE_ID) });
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  return proofs;
}

/** Submissions a second the load generator has proofs ready for, at most (more are sent without, and answered 400). */
const PROOFS_PER_SECOND = Number(process.env.BENCH_PROOFS_PER_SECOND ?? 2500);

/**
 * autocannon options that send what the wizard sends: each request a new applicant (a distinct
 * body from {@link benchPayload}) under a new `Idempotency-Key`, with the XSRF pair of `url`'s page.
 * @param salt - sets these applicants apart from any other run's on the same database.
 */
export async function wizardSubmissions(url: string, salt: string, seconds: number): Promise<Pick<AutocannonOptions, 'url' | 'headers' | 'requests'>> {
  const headers = { 'content-type': 'application/json', accept: 'application/json', ...(await xsrfHeaders(url)) };
  const proofs = await proofsFor(url, Math.ceil(seconds * PROOFS_PER_SECOND));
  let n = 0;
  return {
    url,
    headers,
    requests: [
      {
        method: 'PUT',
        path: `/api/syncPage/${BENCH_PAGE_ID}`,
        setupRequest: (request) => ({
          ...request,
          headers: { ...headers, ...(proofs[n] ? { 'idempotency-key': proofs[n]!.key, ...proofs[n]!.headers } : { 'idempotency-key': newIdempotencyKey() }) },
          body: JSON.stringify(benchPayload(n++, salt)),
        }),
      },
    ],
  };
}

/** Figures of {@link pacedSubmissions}: answers a second, latency percentiles in ms, answers other than 2xx (errors included). */
export interface PacedFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/**
 * Submissions at a steady pace, as applicants arrive: request `i` is due `i / rate` seconds after
 * the start, whatever the answers before it, over at most `connections` keep-alive connections;
 * each latency runs from when the request was due to the end of its answer, so a request that
 * waited for a connection or for the server's attention counts that wait (no coordinated
 * omission). autocannon's own rate option is not used for this: it sends each connection's
 * share of a second back to back at the start of that second — 500 submissions in one burst
 * every second — and its correction for the omission counts every millisecond of a slow answer
 * as a sample of its own (autocannon 8–9, `recordValueWithExpectedInterval(time, ceil(1 / rate))`).
 * @param rate - submissions a second.
 * @param salt - sets these applicants apart from any other run's on the same database.
 * @param answered - told each answer's status, body and time (`performance.now()`), when given (the body is read only then).
 */
export async function pacedSubmissions(
  url: string,
  salt: string,
  options: { rate: number; seconds: number; connections: number; answered?: (status: number, body: string, at: number) => void },
): Promise<PacedFigures> {
  const headers = { 'content-type': 'application/json', accept: 'application/json', ...(await xsrfHeaders(url)) };
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const target = new URL(`/api/syncPage/${BENCH_PAGE_ID}`, url);
  const total = Math.round(options.rate * options.seconds);
  const proofs = await proofsFor(url, total);
  const latencies: number[] = [];
  let non2xx = 0;
  const send = (due: number, body: string, proof: Proof) =>
    new Promise<void>((resolve) => {
      const request = httpRequest(
        target,
        { method: 'PUT', agent, headers: { ...headers, 'idempotency-key': proof.key, ...proof.headers, 'content-length': Buffer.byteLength(body) } },
        (response) => {
          const chunks: Buffer[] = [];
          if (options.answered) response.on('data', (chunk: Buffer) => chunks.push(chunk));
          else response.resume();
          response.on('end', () => {
            const at = performance.now();
            latencies.push(at - due);
            options.answered?.(response.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'), at);
            if ((response.statusCode ?? 0) >= 300) non2xx += 1;
            resolve();
          });
        },
      );
      request.on('error', () => {
        non2xx += 1;
        resolve();
      });
      request.end(body);
    });
  const started = performance.now();
  const answered: Promise<void>[] = [];
  for (let sent = 0; sent < total;) {
    const now = performance.now();
    for (; sent < total && started + (sent * 1000) / options.rate <= now; sent++)
      answered.push(send(started + (sent * 1000) / options.rate, JSON.stringify(benchPayload(sent, salt)), proofs[sent]!));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(answered);
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)]! * 10) / 10;
  return { requestsPerSecond: Math.round(latencies.length / seconds), p50: at(0.5), p99: at(0.99), non2xx };
}
