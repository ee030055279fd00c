import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, validPayload } from '../../tests/factories/application';
import { createTestDatabase } from '../../tests/support/postgres';
import { testDist, type TestDist } from '../../tests/support/test-app';
import { TEST_SECRET, xsrfPair } from '../../tests/support/xsrf';
import { buildApp } from './app';
import { SESSION_COOKIE } from './constants';
import { openStore, type Store } from './store/store';
import { createTestUser } from '../../tests/support/users';

// The attacks that once broke the running product (decision 008), kept as standing tests on both
// stores so that no later change brings one back. Each `it` names the attack.

const EDITOR = { email: 'editor@brand.example', password: 'editor password 1' };
const SIGN_IN_LIMIT = 5;

const sqliteDatabase = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'attacks-'));
  const file = join(dir, 'applications.db');
  return {
    url: `sqlite:${file}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
    /** Runs SQL on the file behind the server's back (what a corrupted or old row looks like). */
    exec: async (statement: string, ...params: unknown[]) => {
      const db = new Database(file);
      try {
        db.prepare(statement).run(...params);
      } finally {
        db.close();
      }
    },
    /** Each text column of a row as the bytes stored. */
    bytes: async (id: string, column: string) => {
      const db = new Database(file, { readonly: true });
      try {
        return Buffer.from((db.prepare(`select hex(${column}) as hex from applications where id = ?`).get(id) as { hex: string }).hex, 'hex');
      } finally {
        db.close();
      }
    },
  };
};

const postgresDatabase = async () => {
  const database = await createTestDatabase();
  const query = async (statement: string, ...params: unknown[]) => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return await client.query(statement, params);
    } finally {
      await client.end();
    }
  };
  return {
    ...database,
    exec: async (statement: string, ...params: unknown[]) =>
      void (await query(
        statement.replace(/\?/g, (_, offset: number) => `$${statement.slice(0, offset).split('?').length}`),
        ...params,
      )),
    bytes: async (id: string, column: string) => {
      const { rows } = await query(`select convert_to(${column}, 'UTF8') as bytes from applications where id = $1`, id);
      return (rows[0] as { bytes: Buffer }).bytes;
    },
  };
};

describe.each([
  ['SQLite', sqliteDatabase],
  ['PostgreSQL', postgresDatabase],
])('attacks that once broke the running product, on %s', (storeName, createDatabase) => {
  let database: Awaited<ReturnType<typeof sqliteDatabase>>;
  let store: Store;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let dist: TestDist | undefined;
  const xsrf = xsrfPair();

  beforeAll(async () => {
    database = (await createDatabase()) as typeof database;
    dist = testDist('attacks-dist-', { admin: true });
    store = await openStore(database.url);
    await createTestUser(store, EDITOR, 'editor');
    app = await buildApp({
      config: defaultConfig(),
      store,
      distDir: dist.distDir,
      rateLimitPerMinute: 100_000,
      secret: TEST_SECRET,
      signInLimits: { perAccount: SIGN_IN_LIMIT, perAddress: 1000 },
    });
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await database?.drop();
    dist?.remove();
  });

  const put = (body: string | Buffer, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'PUT',
      url: '/api/syncPage/creators',
      headers: { 'content-type': 'application/json', ...xsrf.headers, 'idempotency-key': randomUUID(), ...headers },
      payload: body,
    });

  async function signIn(): Promise<Record<string, string>> {
    const response = await app.inject({ method: 'POST', url: '/api/admin/session', payload: EDITOR });
    expect(response.statusCode).toBe(204);
    const cookie = (name: string) => response.cookies.find((c) => c.name === name)!.value;
    return { cookie: `${SESSION_COOKIE}=${cookie(SESSION_COOKIE)}; XSRF-TOKEN=${cookie('XSRF-TOKEN')}`, 'x-xsrf-token': cookie('XSRF-TOKEN') };
  }

  const withEmail = (emailAddress: string, fields: Record<string, string> = {}) =>
    validPayload({ personalInfo: { ...validPayload().personalInfo, emailAddress }, fields: { ...validPayload().fields, ...fields } });

  it('1. a body starting with a byte-order mark is stored without it, and the inbox reads every row back', async () => {
    const email = `bom-${storeName}@example.com`.toLowerCase();
    const response = await put(`\uFEFF${JSON.stringify(withEmail(email))}`);
    expect(response.statusCode).toBe(201);
    const { id } = response.json<{ id: string }>();
    expect((await database.bytes(id, 'payload'))[0]).toBe('{'.charCodeAt(0));

    // A row kept with a BOM by an older server reads back whole; a row that is not JSON at all is
    // listed as unreadable, and neither fails the page, the detail or the export.
    const old = (await put(JSON.stringify(withEmail(`old-bom-${storeName}@example.com`.toLowerCase())))).json<{ id: string }>().id;
    const broken = (await put(JSON.stringify(withEmail(`broken-${storeName}@example.com`.toLowerCase())))).json<{ id: string }>().id;
    const empty = (await put(JSON.stringify(withEmail(`null-${storeName}@example.com`.toLowerCase())))).json<{ id: string }>().id;
    await database.exec(`update applications set payload = ? || payload where id = ?`, '\uFEFF', old);
    await database.exec(`update applications set payload = ? where id = ?`, '{"personalInfo": not json', broken);
    await database.exec(`update applications set payload = ? where id = ?`, 'null', empty);
    // Two byte-order marks are both dropped.
    const twice = await put(`\uFEFF\uFEFF${JSON.stringify(withEmail(`bom2-${storeName}@example.com`.toLowerCase()))}`);
    expect(twice.statusCode).toBe(201);
    expect((await database.bytes(twice.json<{ id: string }>().id, 'payload'))[0]).toBe('{'.charCodeAt(0));

    const headers = await signIn();
    const list = await app.inject({ method: 'GET', url: '/api/admin/applications?limit=100', headers });
    expect(list.statusCode).toBe(200);
    const items = list.json<{ items: { id: string; unreadable?: boolean; emailAddress: string }[] }>().items;
    expect(items.find((item) => item.id === id)?.unreadable).toBeUndefined();
    expect(items.find((item) => item.id === old)?.unreadable).toBeUndefined();
    expect(items.find((item) => item.id === broken)).toMatchObject({ unreadable: true, emailAddress: `broken-${storeName}@example.com`.toLowerCase() });
    expect(items.find((item) => item.id === empty)).toMatchObject({ unreadable: true, emailAddress: `null-${storeName}@example.com`.toLowerCase() });
    for (const each of [id, old, broken]) {
      expect((await app.inject({ method: 'GET', url: `/api/admin/applications/${each}`, headers })).statusCode).toBe(200);
    }
    const csv = await app.inject({ method: 'GET', url: '/api/admin/applications.csv', headers });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(broken);
  });

  it('2. NUL and other controls, lone surrogates and noncharacters are field errors, never a 503', async () => {
    const base = JSON.stringify(withEmail('clean@example.com'));
    const cases: [string, string][] = [
      [base.replace('"Ada"', '"A\\u0000da"'), 'personalInfo.firstName'],
      [base.replace('"clean@example.com"', '"cl\\u0000ean@example.com"'), 'personalInfo.emailAddress'],
      [base.replace('"ada.makes"', '"ada\\u0000makes"'), 'platforms.instagram.handle'],
      [base.replace('"Lovelace"', '"Love\\ud800lace"'), 'personalInfo.lastName'],
      [base.replace('"Lovelace"', '"Love\\uffffe"'), 'personalInfo.lastName'],
      [base.replace('"Ada"', '"A\\tda"'), 'personalInfo.firstName'],
      [base.replace('"Ada"', '"A\\u001bda"'), 'personalInfo.firstName'],
    ];
    for (const [body, path] of cases) {
      expect(body).not.toBe(base);
      const response = await put(body);
      expect(response.statusCode, body).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.json<{ errors: { path: string }[] }>().errors.map((error) => error.path)).toContain(path);
    }
    // Tab and line breaks stay allowed in long text, and an emoji (a surrogate pair) anywhere.
    const long = await put(
      JSON.stringify(
        validPayload({
          personalInfo: { ...validPayload().personalInfo, firstName: 'Ada 🧪' },
          fields: { ...validPayload().fields, dreamCampaign: 'one\ttwo\r\nthree\nfour' },
        }),
      ),
    );
    expect(long.statusCode).toBe(201);
    const bytes = await database.bytes(long.json<{ id: string }>().id, 'first_name');
    expect(new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toBe('Ada 🧪');
  });

  it('2. the inbox refuses what it could not store or search for, and never answers 500 for it', async () => {
    const headers = await signIn();
    const id = (await put(JSON.stringify(withEmail('inbox-input@example.com')))).json<{ id: string }>().id;
    const inject = (method: 'GET' | 'PATCH' | 'POST' | 'DELETE', url: string, payload?: string) =>
      app.inject({ method, url, headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) }, ...(payload ? { payload } : {}) });
    /** A 400 problem naming where the value was (an outside attack on the inbox: a NUL id answered none). */
    const expectNamed = (response: Awaited<ReturnType<typeof inject>>, path: string, what: string) => {
      expect(response.statusCode, what).toBe(400);
      expect(response.headers['content-type'], what).toContain('application/problem+json');
      expect(response.json().errors, what).toEqual([{ path, message: 'Remove the invisible or unsupported characters' }]);
    };
    for (const [url, path] of [
      ['/api/admin/applications?q=%00', 'q'],
      ['/api/admin/applications?q=a%01b', 'q'],
      ['/api/admin/applications.csv?q=%00', 'q'],
      ['/api/admin/applications?pageId=%00', 'pageId'],
    ] as const) {
      expectNamed(await inject('GET', url), path, url);
    }
    const cursor = (text: string) => Buffer.from(text).toString('base64url');
    for (const bad of [
      `2026-11-24T04:12:51.732Z|\u0000${id}`,
      `2026-11-24T04:12:51.732Z|x`,
      `2026-02-30T00:00:00.000Z|${id}`,
      `2026-11-24T04:12:51+14:00|${id}`,
    ]) {
      expect((await inject('GET', `/api/admin/applications?cursor=${cursor(bad)}`)).statusCode, bad).toBe(400);
    }
    // A NUL in a path parameter: 400 naming it on both stores (PostgreSQL cannot search for it).
    for (const [method, url, path] of [
      ['GET', '/api/admin/applications/a%00b', 'id'],
      ['GET', `/api/admin/applications/${id}%00`, 'id'],
      ['GET', `/api/admin/applications/a%00b/neighbours`, 'id'],
      ['GET', `/api/admin/applications/a%00b/notes`, 'id'],
      ['DELETE', `/api/admin/applications/${id}/notes/n%00`, 'noteId'],
      ['DELETE', `/api/admin/tags/t%00`, 'id'],
      ['DELETE', `/api/admin/views/v%00`, 'id'],
      ['DELETE', `/api/admin/applications/a%00b`, 'id'],
    ] as const) {
      expectNamed(await inject(method, url), path, `${method} ${url}`);
    }
    expectNamed(await inject('PATCH', '/api/admin/applications/a%00b', '{"status":"accepted"}'), 'id', 'PATCH a NUL id');
    expect((await inject('GET', `/api/admin/applications/${id}`)).statusCode).toBe(200);
    for (const note of ['"a\\u0000b"', '"x\\ud800y"', '"\\uffff"']) {
      expect((await inject('PATCH', `/api/admin/applications/${id}`, `{"note":${note}}`)).statusCode, note).toBe(400);
    }
    expect((await inject('PATCH', `/api/admin/applications/${id}`, '{"note":"line one\\nline two\\tend"}')).statusCode).toBe(200);
    expect((await inject('PATCH', '/api/admin/applications', '{"ids":["x\\u0000"],"status":"accepted"}')).statusCode).toBe(400);
    for (const email of ['a\\u0000@b.example', '\\ud800@x.example']) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/admin/session',
        headers: { 'content-type': 'application/json' },
        payload: `{"email":"${email}","password":"whatever it is"}`,
      });
      expect(response.statusCode, email).toBe(400);
    }
  });

  it('2. invisible or private-use characters make no look-alike e-mail or handle', async () => {
    const base = JSON.stringify(withEmail('twin@example.com'));
    for (const [body, path] of [
      [base.replace('"twin@example.com"', '"tw\\u200bin@example.com"'), 'personalInfo.emailAddress'],
      [base.replace('"twin@example.com"', '"admin\\u202e@example.com"'), 'personalInfo.emailAddress'],
      [base.replace('"twin@example.com"', '"twin\\ue000@example.com"'), 'personalInfo.emailAddress'],
      [base.replace('"ada.makes"', '"ada\\u2060.makes"'), 'platforms.instagram.handle'],
      // Default ignorables and blanks that are not format characters (second attack pass).
      [base.replace('"twin@example.com"', '"twin\\u3164@example.com"'), 'personalInfo.emailAddress'],
      [base.replace('"twin@example.com"', '"twin@exa\\u034fmple.com"'), 'personalInfo.emailAddress'],
      [base.replace('"twin@example.com"', '"twin\\u2800@example.com"'), 'personalInfo.emailAddress'],
      [base.replace('"ada.makes"', '"ada.makes\\ufe0f"'), 'platforms.instagram.handle'],
      [base.replace('"ada.makes"', '"ada.makes\\udb40\\udd00"'), 'platforms.instagram.handle'],
      [base.replace('"ada.makes"', '"ada.ma\\u0336kes"'), 'platforms.instagram.handle'],
      [base.replace('"ada.makes"', '"ada\\uffa0.makes"'), 'platforms.instagram.handle'],
    ] as const) {
      const response = await put(body);
      expect(response.statusCode, body).toBe(400);
      expect(response.json<{ errors: { path: string }[] }>().errors.map((error) => error.path)).toContain(path);
    }
  });

  it("2. a batch never fails a row for another row's fault", async () => {
    // The store refuses one applicant's row (a trigger stands in for any fault of that row alone).
    if (storeName === 'SQLite') {
      await database.exec(
        `create trigger refuse_mallory before insert on applications when new.first_name = 'Mallory' begin select raise(abort, 'refused'); end`,
      );
    } else {
      await database.exec(
        `create function refuse_mallory() returns trigger language plpgsql as $$ begin if new.first_name = 'Mallory' then raise exception 'refused'; end if; return new; end $$`,
      );
      await database.exec('create trigger refuse_mallory before insert on applications for each row execute function refuse_mallory()');
    }
    const payload = (index: number) =>
      validPayload({
        personalInfo: { ...validPayload().personalInfo, firstName: index === 17 ? 'Mallory' : `Innocent ${index}`, emailAddress: `batch${index}@example.com` },
      });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, index) => put(JSON.stringify(payload(index)))));
    expect(answers.map((answer) => answer.statusCode).filter((status) => status !== 201)).toEqual([503]);
    expect(answers[17]!.statusCode).toBe(503);
    await database.exec(storeName === 'SQLite' ? 'drop trigger refuse_mallory' : 'drop trigger refuse_mallory on applications');
  });

  it('3. a multi-line answer stays in its cell and no cell of the export starts a formula', async () => {
    const tricky = [`hi\n=cmd|' /C calc'!A0`, 'a\rb\r+1', 'x\r\n@SUM(1)', '-2+3'];
    for (const [index, answer] of tricky.entries()) {
      expect((await put(JSON.stringify(withEmail(`csv${index}@example.com`, { dreamCampaign: answer })))).statusCode).toBe(201);
    }
    const headers = await signIn();
    const total = (await app.inject({ method: 'GET', url: '/api/admin/applications?limit=100', headers })).json<{ items: unknown[] }>().items.length;
    const csv = await app.inject({ method: 'GET', url: '/api/admin/applications.csv', headers });
    const rows = parse(csv.body, { bom: true, relax_column_count: false }) as string[][];
    expect(rows).toHaveLength(total + 1);
    const cells = rows.flat();
    for (const answer of tricky) expect(cells).toContain(answer.startsWith('-') ? `'${answer}` : answer);
    for (const cell of cells) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('4. simultaneous guesses never reach the password check more often than the limit', async () => {
    const email = `target-${storeName}@brand.example`.toLowerCase();
    await createTestUser(store, { email, password: 'the right password' }, 'editor');
    const attempt = (password: string) => app.inject({ method: 'POST', url: '/api/admin/session', payload: { email, password } });
    // 19 wrong and 1 right, sent together: at most the limit are checked (401 or 204), the rest are 429.
    const volley = await Promise.all(Array.from({ length: 20 }, (_, index) => attempt(index === 10 ? 'the right password' : `wrong guess ${index}`)));
    const statuses = volley.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401 || status === 204).length).toBeLessThanOrEqual(SIGN_IN_LIMIT);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(20 - SIGN_IN_LIMIT);
    // And a right password among them did not wipe the count: wrong guesses checked in the window,
    // the volley's and any after it, stay within the limit.
    let wrongChecked = statuses.filter((status) => status === 401).length;
    for (let more = 0; more <= SIGN_IN_LIMIT; more++) {
      const status = (await attempt(`another wrong guess ${more}`)).statusCode;
      if (status === 429) break;
      expect(status).toBe(401);
      wrongChecked += 1;
    }
    expect(wrongChecked).toBeLessThanOrEqual(SIGN_IN_LIMIT);
    expect((await attempt('one more wrong guess')).statusCode).toBe(429);
  });

  it('6. a reused Idempotency-Key with another body is 422; an upper-case copy, or the same answers written otherwise, is the same key', async () => {
    const key = randomUUID();
    const body = JSON.stringify(withEmail('idem@example.com'));
    const first = await put(body, { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    const replay = await put(body, { 'idempotency-key': key.toUpperCase() });
    expect(replay.statusCode).toBe(200);
    expect(replay.json<{ id: string }>().id).toBe(first.json<{ id: string }>().id);
    // The same answers written otherwise (pretty-printed, keys in another order) are the same application.
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(withEmail('idem@example.com')).reverse()), null, 2);
    const rewritten = await put(reordered, { 'idempotency-key': key });
    expect(rewritten.statusCode).toBe(200);
    expect(rewritten.json<{ id: string }>().id).toBe(first.json<{ id: string }>().id);
    const other = await put(JSON.stringify(withEmail('mallory@example.com')), { 'idempotency-key': key.toUpperCase() });
    expect(other.statusCode).toBe(422);
    expect(other.headers['content-type']).toMatch(/^application\/problem\+json/);
    const headers = await signIn();
    const found = (await app.inject({ method: 'GET', url: '/api/admin/applications?q=mallory%40example.com', headers })).json<{ items: unknown[] }>();
    expect(found.items).toHaveLength(0);
  });

  it('9. a token that only matches itself, or one signed by another server, is 403', async () => {
    const before = (await app.inject({ method: 'GET', url: '/api/admin/applications?limit=100', headers: await signIn() })).json<{ items: unknown[] }>().items
      .length;
    for (const token of ['a', 'x'.repeat(43), xsrfPair('', 'another server secret of 32 characters').token]) {
      const forged = await put(JSON.stringify(withEmail('forged@example.com')), { cookie: `XSRF-TOKEN=${token}`, 'x-xsrf-token': token });
      expect(forged.statusCode, token).toBe(403);
    }
    expect(
      (await app.inject({ method: 'GET', url: '/api/admin/applications?limit=100', headers: await signIn() })).json<{ items: unknown[] }>().items,
    ).toHaveLength(before);
  });

  it('10. a body in another charset is 415, one that is not UTF-8 is 400, and a key given twice is 400', async () => {
    const body = JSON.stringify(withEmail('charset@example.com'));
    for (const charset of ['latin1', 'utf-16', 'ISO-8859-1', 'us-ascii']) {
      expect((await put(body, { 'content-type': `application/json; charset=${charset}` })).statusCode, charset).toBe(415);
    }
    expect((await put(body, { 'content-type': 'application/json; charset=UTF-8' })).statusCode).toBe(201);
    expect((await put(Buffer.concat([Buffer.from(body.slice(0, 20)), Buffer.from([0xc3, 0x28]), Buffer.from(body.slice(20))]))).statusCode).toBe(400);
    const twice = await put(body.replace('"firstName":"Ada"', '"firstName":"Ada","firstName":"Eve"'));
    expect(twice.statusCode).toBe(400);
    expect(twice.json<{ errors: { path: string }[] }>().errors).toEqual([{ path: 'personalInfo.firstName', message: 'Give each key once' }]);
    const escaped = await put(body.replace('"firstName":"Ada"', '"firstName":"Ada","first\\u004eame":"Eve"'));
    expect(escaped.statusCode).toBe(400);
    // A Content-Encoding the body does not hold is said so, not "not valid JSON" (decision 021's fourth outside attack).
    const encoded = await put(body, { 'content-encoding': 'gzip' });
    expect(encoded.statusCode).toBe(400);
    expect(encoded.json<{ detail: string }>().detail).toBe('The body could not be decoded by its Content-Encoding.');
    // The router's own refusals are problem details too: a malformed escape, a path too long to route.
    for (const [method, url, status] of [
      ['PUT', '/api/syncPage/%E0%A4%A', 400],
      ['GET', '/api/admin/applications/%ED%A0%80', 400],
      ['PUT', `/api/syncPage/${'p'.repeat(5000)}`, 414],
    ] as const) {
      const refused = await app.inject({ method, url, headers: { 'content-type': 'application/json', ...xsrf.headers }, payload: body });
      expect(refused.statusCode, url.slice(0, 40)).toBe(status);
      expect(refused.headers['content-type'], url.slice(0, 40)).toMatch(/^application\/problem\+json/);
    }
  });

  it("11. headers too large and bytes that are not HTTP, refused by Node's parser, are problem details too", async () => {
    const address = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
    for (const [request, status] of [
      [`GET /healthz HTTP/1.1\r\nHost: x\r\nAccept-Encoding: ${'gzip, '.repeat(3000)}\r\n\r\n`, 431],
      ['NOT HTTP AT ALL\r\n\r\n', 400],
    ] as const) {
      const answer = await new Promise<string>((resolve, reject) => {
        let text = '';
        const socket = connect(Number(address.port), address.hostname, () => socket.write(request));
        socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        socket.once('close', () => resolve(text)).once('error', reject);
      });
      expect(answer, request.slice(0, 20)).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      expect(answer).toMatch(/\r\ncontent-type: application\/problem\+json/i);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ status });
    }
  });
});
