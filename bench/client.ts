/**
 * What the real wizard sends, for the bench's load generators: every submission is `PUT
 * /api/syncPage/:pageId` with JSON, `Accept: application/json`, a fresh `Idempotency-Key` (a UUID v7
 * from {@link newIdempotencyKey}, as the wizard makes it), and the anti-forgery pair the page set (the
 * `XSRF-TOKEN` cookie from `GET /`, echoed in the `X-XSRF-Token` header); each applicant has their
 * own e-mail address and handles, so the unique and duplicate-detection indexes grow as they do in
 * production.
 */
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
  const padding = BENCH_BODY_BYTES - JSON.stringify(payload).length;
  if (padding > 0) payload.fields = { ...payload.fields, dreamCampaign: `${payload.fields?.dreamCampaign ?? ''} ${'A'.repeat(padding - 1)}` };
  return payload;
}

/**
 * The anti-forgery pair as the wizard has it: the cookie `GET /` sets, echoed in the header.
 * Empty for a server that sets none (the bare baseline route).
 */
export async function xsrfHeaders(url: string): Promise<Record<string, string>> {
  const page = await fetch(`${url}/`, { redirect: 'manual' });
  const cookie = page.headers.getSetCookie().find((line) => line.startsWith('XSRF-TOKEN='))?.split(';')[0];
  return cookie ? { cookie, 'x-xsrf-token': decodeURIComponent(cookie.slice('XSRF-TOKEN='.length)) } : {};
}

/**
 * autocannon options that send what the wizard sends: each request a new applicant (a distinct
 * body from {@link benchPayload}) under a new `Idempotency-Key`, with the XSRF pair of `url`'s page.
 * @param salt - sets these applicants apart from any other run's on the same database.
 */
export async function wizardSubmissions(url: string, salt: string): Promise<Pick<AutocannonOptions, 'url' | 'headers' | 'requests'>> {
  const headers = { 'content-type': 'application/json', accept: 'application/json', ...(await xsrfHeaders(url)) };
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
          headers: { ...headers, 'idempotency-key': newIdempotencyKey() },
          body: JSON.stringify(benchPayload(n++, salt)),
        }),
      },
    ],
  };
}
