import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWizardConfig } from '../../shared/config';
import { MAX_PAGE_IMAGE_BYTES, type PageDetail, type PageImage } from '../../shared/pages';
import type { ProblemDetails } from '../../shared/problem';
import { defaultConfig, validPayload } from '../../../tests/factories/application';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import { inboxSession, testDist, type TestDist } from '../../../tests/support/test-app';
import { TEST_SECRET, xsrfPair } from '../../../tests/support/xsrf';
import { buildApp } from '../app';
import { RETRY_AFTER_SECONDS } from '../constants';
import { parseEnv } from '../env';
import { openStore, type Store } from '../store/store';
import { coverWidths, sniffImageFormat, UPLOAD_FILE_PATTERN, uploadsDirOf } from '../uploads';
import { createTestUser } from '../../../tests/support/users';

const EDITOR = { email: 'editor@brand.example', password: 'editor password 1' };
const VIEWER = { email: 'viewer@brand.example', password: 'viewer password 1' };

type Format = 'jpeg' | 'png' | 'webp' | 'avif' | 'gif';
type Response = Awaited<ReturnType<Awaited<ReturnType<typeof buildApp>>['inject']>>;

/** A solid image of `width` × `height` in `format`, made by sharp. */
const image = (format: Format, width = 1200, height = 800, background = '#c83232') => {
  const solid = sharp({ create: { width, height, channels: 3, background } });
  return solid[format]().toBuffer();
};

/** One server on a fresh database, an editor's and a viewer's session, and a stored page `summer`. */
async function serve(createDatabase: () => Promise<ExecDatabase>, prefix: string) {
  const database = await createDatabase();
  const dist: TestDist = testDist(prefix, { admin: true });
  const uploadsDir = join(dist.dir, 'uploads');
  const store: Store = await openStore(database.url);
  await createTestUser(store, EDITOR, 'editor');
  await createTestUser(store, VIEWER, 'viewer');
  // One upload at a time and one waiting, so the tests can fill both.
  const app = await buildApp({
    config: defaultConfig(),
    store,
    distDir: dist.distDir,
    rateLimitPerMinute: 10_000,
    secret: TEST_SECRET,
    uploads: { dir: uploadsDir, limits: { running: 1, waiting: 1, waitMs: 3000 } },
  });
  const signIn = (user: { email: string; password: string }) => inboxSession(app, user);
  const sessions = { editor: await signIn(EDITOR), viewer: await signIn(VIEWER) };
  const created = await app.inject({
    method: 'POST',
    url: '/api/admin/pages',
    headers: { cookie: sessions.editor.cookie, 'x-xsrf-token': sessions.editor.xsrf },
    payload: { id: 'summer', from: 'default' },
  });
  expect(created.statusCode, created.body).toBe(201);

  /** `POST /api/admin/pages/{page}/images?kind=` with `body` as `type`, as the editor unless told. */
  const upload = (
    body: Buffer | string | Readable,
    type: string | undefined,
    options: { kind?: string; page?: string; as?: 'editor' | 'viewer' | 'nobody'; xsrf?: boolean } = {},
  ) => {
    const who = options.as === 'nobody' ? undefined : sessions[options.as ?? 'editor'];
    return app.inject({
      method: 'POST',
      url: `/api/admin/pages/${options.page ?? 'summer'}/images?kind=${options.kind ?? 'cover'}`,
      headers: {
        ...(type === undefined ? {} : { 'content-type': type }),
        ...(who ? { cookie: who.cookie } : {}),
        ...(who && options.xsrf !== false ? { 'x-xsrf-token': who.xsrf } : {}),
      },
      payload: body,
    });
  };
  const close = async () => {
    await app.close();
    await store.close();
    await database.drop();
    dist.remove();
  };
  return { app, store, upload, uploadsDir, sessions, close };
}

const problem = (response: Response, status: number) => {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  return response.json<ProblemDetails & Record<string, unknown>>();
};

/** The files an answer names, in its order: `/uploads/<name>` of `src`, and each of `srcset`. */
const filesOf = (answer: PageImage) => (answer.srcset ? answer.srcset.split(', ').map((candidate) => candidate.split(' ')[0]!) : [answer.src]);

describe.each([
  ['SQLite', () => sqliteExecDatabase('page-images-')],
  ['PostgreSQL', postgresExecDatabase],
])('page image uploads on %s', (_name, createDatabase) => {
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    server = await serve(createDatabase, 'page-images-');
  });
  afterAll(async () => server?.close());

  it('takes a cover from an editor, stores it under its hash, audits it, and serves it for a year', async () => {
    const response = await server.upload(await image('png'), 'image/png');
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const answer = response.json<PageImage>();
    const [hash] = /[0-9a-f]{16}/.exec(answer.src)!;
    expect(answer).toEqual({
      src: `/uploads/${hash}-960.webp`,
      srcset: [480, 640, 800, 960].map((width) => `/uploads/${hash}-${width}.webp ${width}w`).join(', '),
    });
    expect(readdirSync(server.uploadsDir).sort()).toEqual([480, 640, 800, 960].map((width) => `${hash}-${width}.webp`).sort());

    const audit = (await server.store.pages.auditOf('summer')).filter((entry) => entry.action === 'page-image');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: EDITOR.email, from_value: null });
    expect(JSON.parse(audit[0]!.to_value!)).toEqual({ kind: 'cover', hash, widths: [480, 640, 800, 960] });

    const served = await server.app.inject({ method: 'GET', url: answer.src });
    expect(served.statusCode).toBe(200);
    expect(served.headers).toMatchObject({
      'content-type': 'image/webp',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'",
    });
    expect(served.rawPayload.equals(readFileSync(join(server.uploadsDir, `${hash}-960.webp`)))).toBe(true);
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 960, height: 640 });
  });

  it('lets only editors upload, with the session and the anti-forgery header, to a stored page', async () => {
    const png = await image('png', 100, 100);
    expect(problem(await server.upload(png, 'image/png', { as: 'viewer' }), 403).detail).toMatch(/may read/);
    // A viewer's refusal goes no further: nothing admitted to the uploads (it once went on to the page checks).
    expect(server.app.uploads.turns.load.admitted).toBe(0);
    expect(problem(await server.upload(png, 'image/png', { xsrf: false }), 403).detail).toMatch(/X-XSRF-TOKEN/);
    problem(await server.upload(png, 'image/png', { as: 'nobody' }), 401);
    expect(problem(await server.upload(png, 'image/png', { page: 'nothing' }), 404).detail).toMatch(/no stored page "nothing"/);
    problem(await server.upload(png, 'image/png', { page: defaultConfig().pageId }), 409);
    expect(problem(await server.upload(png, 'image/png', { kind: 'banner' }), 400).errors?.[0]?.path).toBe('kind');
    expect(problem(await server.upload(png, 'image/png', { page: 'no%20spaces' }), 400).errors?.[0]?.path).toBe('id');
    // Nothing of the refused uploads was audited.
    expect((await server.store.pages.auditOf('summer')).filter((entry) => entry.action === 'page-image')).toHaveLength(1);
  });

  it('makes a logo twice the height the wizard shows, and the configuration takes both answers', async () => {
    const logo = await sharp({ create: { width: 1000, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
    const response = await server.upload(logo, 'image/png', { kind: 'logo' });
    expect(response.statusCode, response.body).toBe(201);
    const answer = response.json<PageImage>();
    expect(answer).toEqual({ src: expect.stringMatching(/^\/uploads\/[0-9a-f]{16}-400\.webp$/) });
    const served = await server.app.inject({ method: 'GET', url: answer.src });
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ width: 400, height: 80, hasAlpha: true });

    const cover = (await server.upload(await image('jpeg'), 'image/jpeg')).json<PageImage>();
    const page = (
      await server.app.inject({ method: 'GET', url: '/api/admin/pages/summer', headers: { cookie: server.sessions.editor.cookie } })
    ).json<PageDetail>();
    const draft = { ...(page.draft as Record<string, unknown>), logo: answer.src, coverImages: [cover, cover.src], singleCoverImg: cover };
    expect(parseWizardConfig(draft).problems).toBeUndefined();
    const headers = { cookie: server.sessions.editor.cookie, 'x-xsrf-token': server.sessions.editor.xsrf };
    expect(
      (await server.app.inject({ method: 'PUT', url: '/api/admin/pages/summer/draft', headers, payload: { config: draft, revision: page.revision } }))
        .statusCode,
    ).toBe(200);
    const published = await server.app.inject({ method: 'POST', url: '/api/admin/pages/summer/publish', headers, payload: { revision: page.revision + 1 } });
    expect(published.statusCode, published.body).toBe(201);
  });

  it('bounds the uploads processed at once: one waits its turn, more are told to come back, submits go on', async () => {
    const png = await image('png', 200, 100);
    const held = await server.app.uploads.turns.take();
    expect(held).not.toBe('busy');
    const waiting = server.upload(png, 'image/png');
    await expect.poll(() => server.app.uploads.turns.load.waiting).toBe(1);
    const refused = problem(await server.upload(png, 'image/png'), 503);
    expect(refused.detail).toMatch(/busy/);
    // An application is taken while uploads wait.
    const submit = await server.app.inject({
      method: 'PUT',
      url: `/api/syncPage/${defaultConfig().pageId}`,
      headers: { ...xsrfPair().headers, 'content-type': 'application/json' },
      payload: JSON.stringify(validPayload()),
    });
    expect(submit.statusCode, submit.body).toBe(201);
    (held as { release: () => void }).release();
    expect((await waiting).statusCode).toBe(201);

    // A wait longer than waitMs (3 s here) is a 503 with Retry-After too.
    const again = await server.app.uploads.turns.take();
    const late = await server.upload(png, 'image/png');
    (again as { release: () => void }).release();
    expect(problem(late, 503)).toMatchObject({ status: 503 });
    expect(late.headers['retry-after']).toBe('5');
    await expect.poll(() => server.app.uploads.turns.load).toEqual({ running: 0, waiting: 0, admitted: 0 });
  });

  it('refuses an upload before reading its body when as many as may run and wait are arriving already (fourth attack)', async () => {
    const png = await image('png', 200, 100);
    /** A body that has sent its first bytes and waits for the rest. */
    const arriving = () => {
      const body = new Readable({ read: () => undefined });
      body.push(png.subarray(0, 100));
      return body;
    };
    const [first, second] = [arriving(), arriving()];
    const answers = [server.upload(first, 'image/png'), server.upload(second, 'image/png')];
    await expect.poll(() => server.app.uploads.turns.load.admitted).toBe(2);
    // Its body never ends: were it read, this would never be answered.
    const refused = await server.upload(arriving(), 'image/png');
    expect(problem(refused, 503).detail).toMatch(/busy/);
    expect(refused.headers['retry-after']).toBe('5');
    for (const body of [first, second]) {
      body.push(png.subarray(100));
      body.push(null);
    }
    expect((await Promise.all(answers)).map((answer) => answer.statusCode)).toEqual([201, 201]);
    await expect.poll(() => server.app.uploads.turns.load).toEqual({ running: 0, waiting: 0, admitted: 0 });
  });
});

describe('page image content (on SQLite)', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    server = await serve(() => sqliteExecDatabase('page-images-content-'), 'page-images-content-');
  });
  afterAll(async () => server?.close());

  const served = async (path: string) => {
    const response = await server.app.inject({ method: 'GET', url: path });
    expect(response.statusCode).toBe(200);
    return response.rawPayload;
  };

  it.each([
    ['image/jpeg', 'jpeg'],
    ['image/png', 'png'],
    ['image/webp', 'webp'],
    ['image/avif', 'avif'],
    ['image/gif', 'gif'],
  ] as const)('re-encodes %s to WebP at every cover width', async (type, format) => {
    const response = await server.upload(await image(format, 1000, 500), type);
    expect(response.statusCode, response.body).toBe(201);
    const files = filesOf(response.json<PageImage>());
    expect(files).toHaveLength(4);
    for (const [index, width] of [480, 640, 800, 960].entries()) {
      expect(await sharp(await served(files[index]!)).metadata()).toMatchObject({ format: 'webp', width, height: width / 2 });
    }
  });

  it('never upscales: widths above the original are dropped, at least one kept', async () => {
    expect(coverWidths(2000)).toEqual([480, 640, 800, 960]);
    expect(coverWidths(700)).toEqual([480, 640]);
    expect(coverWidths(300)).toEqual([300]);
    const medium = (await server.upload(await image('png', 700, 350), 'image/png')).json<PageImage>();
    expect(medium.srcset).toMatch(/-480\.webp 480w, \/uploads\/[0-9a-f]{16}-640\.webp 640w$/);
    expect(medium.src).toMatch(/-640\.webp$/);
    const small = (await server.upload(await image('png', 300, 200), 'image/png')).json<PageImage>();
    expect(small.srcset).toMatch(/^\/uploads\/[0-9a-f]{16}-300\.webp 300w$/);
    expect(await sharp(await served(small.src)).metadata()).toMatchObject({ width: 300, height: 200 });
    const logo = (await server.upload(await image('png', 120, 30), 'image/png', { kind: 'logo' })).json<PageImage>();
    expect(await sharp(await served(logo.src)).metadata()).toMatchObject({ width: 120, height: 30 });
  });

  it('applies the EXIF orientation, then strips every metadata', async () => {
    const photo = await sharp({ create: { width: 1200, height: 600, channels: 3, background: '#2a9d8f' } })
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD0: { Artist: 'Ada Lovelace', Copyright: 'Private place 51.5N 0.1W' } } })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const answer = (await server.upload(photo, 'image/jpeg')).json<PageImage>();
    // 1200 × 600 turned a quarter: 600 wide, so 480 alone.
    expect(answer.srcset).toMatch(/-480\.webp 480w$/);
    const bytes = await served(answer.src);
    const metadata = await sharp(bytes).metadata();
    expect(metadata).toMatchObject({ width: 480, height: 960 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(metadata.icc).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    expect(bytes.includes('Ada Lovelace')).toBe(false);
  });

  it('keeps the first frame of an animated image', async () => {
    const red = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const blue = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#0000ff' } })
      .png()
      .toBuffer();
    const animated = await sharp([red, blue], { join: { animated: true } })
      .gif()
      .toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(2);
    const answer = (await server.upload(animated, 'image/gif')).json<PageImage>();
    const bytes = await served(answer.src);
    expect((await sharp(bytes).metadata()).pages ?? 1).toBe(1);
    const { dominant } = await sharp(bytes).stats();
    expect(dominant.r).toBeGreaterThan(200);
    expect(dominant.b).toBeLessThan(50);
  });

  it('names the files by their content: the same image twice is the same files', async () => {
    const png = await image('png', 640, 320, '#abcdef');
    const first = (await server.upload(png, 'image/png')).json<PageImage>();
    const before = readdirSync(server.uploadsDir).length;
    expect((await server.upload(png, 'image/png')).json<PageImage>()).toEqual(first);
    expect(readdirSync(server.uploadsDir)).toHaveLength(before);
    expect((await server.upload(png, 'image/png', { kind: 'logo' })).json<PageImage>().src).not.toBe(first.src);
  });

  it('judges the bytes, not the label: a PNG sent as image/jpeg is taken as the PNG it is', async () => {
    const response = await server.upload(await image('png', 500, 500, '#123456'), 'image/jpeg');
    expect(response.statusCode, response.body).toBe(201);
    expect(await sharp(await served(response.json<PageImage>().src)).metadata()).toMatchObject({ format: 'webp', width: 480 });
  });

  it.each([
    ['text', Buffer.from('just some text, not an image')],
    ['HTML', Buffer.from('<!doctype html><script>alert(document.cookie)</script>')],
    ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>')],
    ['an empty body', Buffer.alloc(0)],
  ])('refuses %s labelled image/png with 422', async (_what, body) => {
    const refused = problem(await server.upload(body, 'image/png'), 422);
    expect(refused.detail).toBe('The file is not a JPEG, PNG, WebP, AVIF or GIF image.');
    expect(refused.errors?.[0]?.path).toBe('(body)');
  });

  it('refuses a truncated or corrupt image, and a polyglot that is no image past its signature, with 422', async () => {
    const png = await image('png', 800, 600);
    expect(problem(await server.upload(png.subarray(0, png.length / 2), 'image/png'), 422).detail).toMatch(/truncated or corrupt/);
    const jpeg = await image('jpeg', 800, 600);
    expect(problem(await server.upload(jpeg.subarray(0, jpeg.length / 2), 'image/jpeg'), 422).detail).toMatch(/truncated or corrupt/);
    const polyglot = Buffer.concat([Buffer.from('GIF89a'), Buffer.from('=1;alert(document.domain)//<html><script>alert(1)</script>')]);
    expect(problem(await server.upload(polyglot, 'image/gif'), 422).detail).toMatch(/cannot be read/);
  });

  it('keeps nothing of a real image but its pixels: a script after a valid PNG is not in the files', async () => {
    const png = Buffer.concat([await image('png', 600, 300), Buffer.from('<html><script>alert(document.cookie)</script></html>')]);
    const response = await server.upload(png, 'image/png');
    expect(response.statusCode, response.body).toBe(201);
    for (const file of filesOf(response.json<PageImage>())) expect((await served(file)).includes('<script>')).toBe(false);
  });

  it('refuses a cover too tall for a WebP file, saying in whole pixels how far to crop it (fourth attack)', async () => {
    const tall = await image('png', 2, 20_000);
    expect(problem(await server.upload(tall, 'image/png'), 422).detail).toBe(
      'The image is 2 × 20000 pixels, too tall for a cover: its 2-pixel-wide file would be 20000 pixels high, and a WebP image is at most 16383. Crop it to at most 16383 pixels high.',
    );
    const wide = await image('png', 1000, 20_000);
    expect(problem(await server.upload(wide, 'image/png'), 422).detail).toMatch(
      /its 960-pixel-wide file would be 19200 pixels high, .* Crop it to at most 17065 pixels high\.$/,
    );
  });

  it('refuses an image of more than 40 megapixels before decoding it (a decompression bomb)', async () => {
    const bomb = await sharp({ create: { width: 8000, height: 5001, channels: 3, background: '#ffffff' } })
      .png({ compressionLevel: 9, palette: true })
      .toBuffer();
    expect(bomb.length).toBeLessThan(100_000);
    expect(problem(await server.upload(bomb, 'image/png'), 422).detail).toMatch(/40 megapixels/);
  });

  it('refuses other media types with 415 and bodies over 10 MiB with 413', async () => {
    const png = await image('png', 100, 100);
    expect(problem(await server.upload(png, 'image/svg+xml'), 415).detail).toMatch(/image\/jpeg, image\/png, image\/webp, image\/avif, image\/gif/);
    problem(await server.upload(JSON.stringify({ src: 'x' }), 'application/json'), 415);
    problem(await server.upload('hello', 'text/plain'), 415);
    problem(await server.upload(png, undefined), 415);
    // Refusals of Fastify and @fastify/compress say what this route takes, not what the JSON routes do (fourth attack).
    expect(problem(await server.upload(png, 'image/png, text/html'), 415).detail).toBe(
      "Send the image's bytes as image/jpeg, image/png, image/webp, image/avif, image/gif.",
    );
    const gzip = await server.app.inject({
      method: 'POST',
      url: '/api/admin/pages/summer/images?kind=cover',
      headers: { 'content-type': 'image/png', 'content-encoding': 'gzip', cookie: server.sessions.editor.cookie, 'x-xsrf-token': server.sessions.editor.xsrf },
      payload: png,
    });
    expect(problem(gzip, 400).detail).toBe("Send the image's bytes as they are, without a Content-Encoding.");

    const tooLarge = problem(await server.upload(Buffer.concat([png, Buffer.alloc(MAX_PAGE_IMAGE_BYTES)]), 'image/png'), 413);
    expect(tooLarge.detail).toBe('The image is larger than 10 MiB.');
    // Without a Content-Length, the answer comes at the limit: this body stalls after 14 MiB and
    // never ends, so a server that read it to its end before judging it would never answer.
    let offered = 0;
    const stalling = new Readable({
      read() {
        if (offered >= MAX_PAGE_IMAGE_BYTES + 4 * 1024 * 1024) return;
        offered += 1024 * 1024;
        this.push(Buffer.alloc(1024 * 1024));
      },
    });
    expect(problem(await server.upload(stalling, 'image/png'), 413).detail).toBe('The image is larger than 10 MiB.');
    stalling.destroy();
  });

  it('refuses a body sent with a Content-Encoding, a valid gzip of an image too, before reading it (400, as docs/inbox.md says)', async () => {
    const png = await image('png', 100, 100);
    for (const encoding of ['gzip', 'deflate', 'br', 'GZIP']) {
      const body = encoding.toLowerCase() === 'gzip' ? gzipSync(png) : encoding === 'deflate' ? deflateSync(png) : brotliCompressSync(png);
      const encoded = await server.app.inject({
        method: 'POST',
        url: '/api/admin/pages/summer/images?kind=logo',
        headers: {
          'content-type': 'image/png',
          'content-encoding': encoding,
          cookie: server.sessions.editor.cookie,
          'x-xsrf-token': server.sessions.editor.xsrf,
        },
        payload: body,
      });
      expect(problem(encoded, 400), encoding).toMatchObject({
        detail: "Send the image's bytes as they are, without a Content-Encoding.",
        errors: [{ path: '(body)', message: 'Without a Content-Encoding' }],
      });
    }
    // `identity` is no encoding.
    const identity = await server.app.inject({
      method: 'POST',
      url: '/api/admin/pages/summer/images?kind=logo',
      headers: {
        'content-type': 'image/png',
        'content-encoding': 'identity',
        cookie: server.sessions.editor.cookie,
        'x-xsrf-token': server.sessions.editor.xsrf,
      },
      payload: png,
    });
    expect(identity.statusCode, identity.body).toBe(201);
  });

  it('answers 503 with Retry-After, never 500, when the disk does not take the files (full, or the directory not writable)', async () => {
    const png = await image('png', 300, 200, '#123456');
    // A full disk: what the file system answers (Node's error for ENOSPC), as the submit tests
    // make the store's writes fail.
    const save = server.app.uploads.save;
    server.app.uploads.save = () =>
      Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' }));
    try {
      const full = await server.upload(png, 'image/png');
      expect(problem(full, 503).detail).toBe('The server cannot store the image right now. Please try again shortly.');
      expect(full.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
      expect(full.body).not.toContain('ENOSPC');
    } finally {
      server.app.uploads.save = save;
    }
    // A real failure of the file system: the uploads directory is a file (nothing can be written in it).
    const kept = `${server.uploadsDir}.kept`;
    renameSync(server.uploadsDir, kept);
    writeFileSync(server.uploadsDir, 'not a directory');
    try {
      const unwritable = await server.upload(png, 'image/png');
      expect(problem(unwritable, 503).detail).toBe('The server cannot store the image right now. Please try again shortly.');
      expect(unwritable.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
    } finally {
      rmSync(server.uploadsDir);
      renameSync(kept, server.uploadsDir);
    }
    // Room again: the same upload is taken.
    expect((await server.upload(png, 'image/png')).statusCode).toBe(201);
  });

  it('serves nothing under /uploads/ but the stored files: 404 problem+json otherwise', async () => {
    const uploaded = (await server.upload(await image('webp', 500, 100), 'image/webp')).json<PageImage>();
    const stored = uploaded.src.slice('/uploads/'.length);
    expect(stored).toMatch(UPLOAD_FILE_PATTERN);
    expect(readdirSync(server.uploadsDir)).toContain(stored);
    writeFileSync(join(server.uploadsDir, 'notes.webp'), 'not served');
    writeFileSync(join(server.uploadsDir, '.upload-0123456789abcdef.tmp'), 'not served');
    mkdirSync(join(server.uploadsDir, '0123456789abcdef-480.webp.d'), { recursive: true });
    // A file of a served name outside the directory, that traversal would reach.
    const outside = join(server.uploadsDir, '..', 'fedcba9876543210-480.webp');
    writeFileSync(outside, 'outside');
    for (const url of [
      '/uploads/0123456789abcdef-480.webp',
      '/uploads/notes.webp',
      '/uploads/.upload-0123456789abcdef.tmp',
      '/uploads/0123456789abcdef-480.webp.d',
      `/uploads/${stored.toUpperCase()}`,
      `/uploads/${stored}/`,
      '/uploads/..%2ffedcba9876543210-480.webp',
      '/uploads/%2e%2e%2ffedcba9876543210-480.webp',
      '/uploads/%2e%2e/fedcba9876543210-480.webp',
      '/uploads/../fedcba9876543210-480.webp',
      `/uploads/..%2f..%2f${encodeURIComponent(outside)}`,
      `/uploads/${encodeURIComponent(outside)}`,
      '/uploads/',
    ]) {
      const response = await server.app.inject({ method: 'GET', url });
      if (response.statusCode === 302) {
        // A `..` segment (`%2e%2e` is one too, for WHATWG URLs) is resolved before the path reaches
        // /uploads/: it is /fedcba9876543210-480.webp, the wizard's redirect to the root, nothing served.
        expect(url, url).toMatch(/\/(?:\.\.|%2e%2e)\//);
        expect(response.headers.location).toBe('/');
        continue;
      }
      expect(problem(response, 404).detail, url).toMatch(/no uploaded file/);
    }
    expect(existsSync(outside)).toBe(true);
  });
});

describe('the uploads directory', () => {
  it('is beside a SQLite file, ./data/uploads for PostgreSQL, and UPLOADS_DIR when set', () => {
    expect(uploadsDirOf('sqlite:/srv/wizard/applications.db')).toBe('/srv/wizard/uploads');
    expect(uploadsDirOf('sqlite:./data/applications.db')).toBe(resolve('data/uploads'));
    expect(uploadsDirOf('/var/lib/app.db')).toBe('/var/lib/uploads');
    expect(uploadsDirOf('sqlite::memory:')).toBe(resolve('data/uploads'));
    expect(uploadsDirOf('postgres://db.internal/wizard')).toBe(resolve('data/uploads'));
    expect(uploadsDirOf('postgres://db.internal/wizard', '/mnt/images')).toBe('/mnt/images');
    expect(uploadsDirOf('sqlite:/srv/wizard/applications.db', 'images')).toBe(resolve('images'));
    expect(parseEnv({ UPLOADS_DIR: '/mnt/images' }).UPLOADS_DIR).toBe('/mnt/images');
    expect(parseEnv({ UPLOADS_DIR: '' }).UPLOADS_DIR).toBeUndefined();
  });

  it('tells the formats by their signatures', async () => {
    for (const format of ['jpeg', 'png', 'webp', 'avif', 'gif'] as const) expect(sniffImageFormat(await image(format, 10, 10))).toBe(format);
    expect(sniffImageFormat(Buffer.from('<svg/>'))).toBeUndefined();
    expect(sniffImageFormat(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeUndefined();
    expect(sniffImageFormat(Buffer.from('\0\0\0\x18ftypheic\0\0\0\0mif1heic'))).toBeUndefined();
    expect(sniffImageFormat(Buffer.alloc(3))).toBeUndefined();
  });
});
