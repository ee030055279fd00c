import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig, validPayload } from '../../tests/factories/application';
import { parseApplicationPayload } from '../shared/payload';
import { TEST_SECRET, xsrfPair } from '../../tests/support/xsrf';
import { buildApp } from './app';
import { openStore, type Store } from './store/store';

// Thousands of generated malformed and hostile bodies: every answer is a 4xx
// problem+json or a 2xx for a valid application, never a 5xx, and nothing
// invalid is stored ("Bad input").

let dir: string;
let store: Store;
let app: Awaited<ReturnType<typeof buildApp>>;
/** Applications answered 2xx in the running test, and the table's rows when it started. */
let stored = 0;
let rowsBefore = 0;
const { headers: xsrfHeaders } = xsrfPair();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hostile-'));
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'dist', 'index.html'), '<html lang="en"><head><title>t</title><!--wizard-config--></head></html>');
  store = await openStore(`sqlite:${join(dir, 'applications.db')}`);
  app = await buildApp({ config: defaultConfig(), store, distDir: join(dir, 'dist'), rateLimitPerMinute: 1_000_000, secret: TEST_SECRET });
});
function storedRows(): number {
  const db = new Database(join(dir, 'applications.db'), { readonly: true });
  try {
    return (db.prepare('select count(*) as n from applications').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

// Each test checks its own submissions: nothing but the applications answered 2xx was stored.
beforeEach(() => {
  stored = 0;
  rowsBefore = storedRows();
});
afterEach(() => {
  expect(storedRows() - rowsBefore, 'rows stored by the test against its 2xx answers').toBe(stored);
});
afterAll(async () => {
  await app.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function send(body: string, contentType = 'application/json') {
  const response = await app.inject({
    method: 'PUT',
    url: '/api/syncPage/creators',
    headers: { 'content-type': contentType, ...xsrfHeaders },
    payload: body,
  });
  expect(response.statusCode, response.body).toBeLessThan(500);
  if (response.statusCode >= 400) {
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    const problem = response.json<{ status: number; title: string; detail: string }>();
    expect(problem.status).toBe(response.statusCode);
    expect(response.body).not.toMatch(/\bat .+:\d+:\d+/);
  } else {
    stored += 1;
    const { id } = response.json<{ id: string }>();
    const row = await store.applications.findById(id);
    expect(parseApplicationPayload(row?.payload).errors).toBeUndefined();
  }
  return response.statusCode;
}

const HOSTILE_STRINGS = fc.oneof(
  fc.string({ maxLength: 50 }),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.constantFrom(
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    'javascript:alert(1)',
    '=HYPERLINK("http://evil.example")',
    '\u0000\u202e\ufeff',
    '__proto__',
    "'; drop table applications; --",
    '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🧪',
  ),
  fc.integer({ min: 1_000, max: 80_000 }).map((length) => 'x'.repeat(length)),
);

const ANY_JSON_VALUE = fc.oneof(
  HOSTILE_STRINGS,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.object({ maxDepth: 2 }),
);

/** A valid payload with one leaf replaced: the form of most real bad input. */
const MUTATED_PAYLOAD = fc
  .tuple(
    fc.constantFrom(
      ['personalInfo', 'firstName'],
      ['personalInfo', 'emailAddress'],
      ['personalInfo', 'countryCode'],
      ['personalInfo', 'phone'],
      ['personalInfo', 'phone', 'subscriber'],
      ['platforms', 'instagram', 'handle'],
      ['platforms', 'instagram', 'followers'],
      ['platforms', 'myspace'],
      ['fields', 'dreamCampaign'],
      ['fields', 'a.b.c'],
      ['personalInfo'],
      ['fields'],
      ['extra'],
    ),
    ANY_JSON_VALUE,
  )
  .map(([path, value]) => {
    const payload = structuredClone(validPayload()) as unknown as Record<string, unknown>;
    let node = payload;
    for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    node[path.at(-1)!] = value;
    return JSON.stringify(payload);
  });

/** Prototype-pollution keys at any level, written as raw JSON (JSON.stringify would drop them). */
const PROTO_BODY = fc
  .tuple(fc.constantFrom('__proto__', 'constructor', 'prototype'), fc.constantFrom('', 'personalInfo', 'fields', 'platforms'))
  .map(([key, where]) => {
    const payload = JSON.stringify(validPayload());
    const poison = `"${key}":{"polluted":"yes","prototype":{"polluted":"yes"}}`;
    return where === '' ? `{${poison},${payload.slice(1)}` : payload.replace(`"${where}":{`, `"${where}":{${poison},`);
  });

const DEEP_BODY = fc.integer({ min: 50, max: 5_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

describe('hostile and malformed submissions (fast-check)', () => {
  it('arbitrary JSON values and broken JSON are 4xx problem+json', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => void (await send(JSON.stringify(value) ?? 'null'))),
      { numRuns: 600 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (text) => void (await send(text))),
      { numRuns: 400 },
    );
  });

  it('a phone number that is an object whose toString is no function is a 400 at its field, not a 500 (found by the property below, seed 936603800)', async () => {
    const payload = validPayload() as { personalInfo: { phone: unknown } };
    payload.personalInfo.phone = { countryCode: '44', subscriber: { toString: {} } };
    const response = await app.inject({
      method: 'PUT',
      url: '/api/syncPage/creators',
      headers: { 'content-type': 'application/json', ...xsrfHeaders },
      payload: JSON.stringify(payload),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ errors: { path: string }[] }>().errors.map((error) => error.path)).toContain('personalInfo.phone.subscriber');
  });

  it('valid payloads with one field replaced by a wrong type, a huge string, unicode or markup', async () => {
    await fc.assert(
      fc.asyncProperty(MUTATED_PAYLOAD, async (body) => void (await send(body))),
      { numRuns: 1500 },
    );
  });

  it('prototype-pollution keys are refused and pollute nothing', async () => {
    await fc.assert(
      fc.asyncProperty(PROTO_BODY, async (body) => {
        const status = await send(body);
        expect(status).toBeGreaterThanOrEqual(400);
      }),
      { numRuns: 100 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('deeply nested bodies and other content types never reach a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(DEEP_BODY, async (body) => {
        expect(await send(body)).toBe(400);
      }),
      { numRuns: 50 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded'),
        fc.string(),
        async (type, body) => {
          expect(await send(body, type)).toBe(415);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('markup in every text field of a valid application is stored as data, byte for byte', async () => {
    const markup = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const payload = validPayload({
      personalInfo: { ...validPayload().personalInfo, firstName: markup, lastName: markup },
      fields: { ...validPayload().fields, dreamCampaign: markup, 'campaign.text': markup },
    });
    const response = await app.inject({
      method: 'PUT',
      url: '/api/syncPage/creators',
      headers: { 'content-type': 'application/json', ...xsrfHeaders },
      payload: JSON.stringify(payload),
    });
    expect(response.statusCode).toBe(201);
    stored += 1;
    expect((await store.applications.findById(response.json<{ id: string }>().id))?.payload).toEqual(payload);
  });
});
