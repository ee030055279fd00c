import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Metadata } from 'sharp';
import { COVER_IMAGE_WIDTHS } from '../shared/cover-image';
import { MAX_PAGE_IMAGE_PIXELS, type PageImage, type PageImageKind } from '../shared/pages';
import { sendProblem } from './problem';
import { parseDatabaseUrl } from './store/connection';
import { Turns, type TurnLimits } from './turns';

/** Where uploaded files are served: `/uploads/{file}`. */
export const UPLOADS_PATH = '/uploads/';

/**
 * An uploaded file's name: the first 16 hex digits of the SHA-256 of the upload's outputs (64
 * bits), its width in pixels, `.webp`. Nothing else is ever served under {@link UPLOADS_PATH}.
 */
export const UPLOAD_FILE_PATTERN = /^[0-9a-f]{16}-[1-9][0-9]{0,4}\.webp$/;

/** The longest side a WebP image may have, in pixels (the format's limit). */
const MAX_WEBP_SIDE = 16_383;

/** Hex digits of the content hash in a file's name. */
const HASH_DIGITS = 16;

/** The default uploads directory where the database gives none (PostgreSQL): `./data/uploads`. */
export const DEFAULT_UPLOADS_DIR = './data/uploads';

/**
 * The height the wizard shows the logo at, in CSS pixels (src/wizard/styles.css `.logo { height:
 * 40px; width: auto }`). The uploaded logo is made at twice that, for 2× screens.
 */
export const LOGO_HEIGHT_PX = 40;
/**
 * The widest logo file, in pixels: twice 400 CSS px, about as wide as a phone's logo bar (320–430
 * CSS px less its padding) can show; a wider logo would be scaled down by the browser anyway.
 */
const LOGO_MAX_WIDTH_PX = 800;

/**
 * The uploads directory: `UPLOADS_DIR` when set; else, on SQLite, `uploads` beside the
 * database file (`sqlite:./data/applications.db` → `./data/uploads`), so one directory holds
 * what a backup must copy; else (PostgreSQL, or SQLite `:memory:`) {@link DEFAULT_UPLOADS_DIR}.
 * @returns an absolute path (relative ones are read from the working directory).
 * @throws Error `DATABASE_URL: …` for a URL `parseDatabaseUrl` refuses.
 */
export function uploadsDirOf(databaseUrl: string, uploadsDir?: string): string {
  if (uploadsDir) return resolve(uploadsDir);
  const location = parseDatabaseUrl(databaseUrl);
  if (location.dialect === 'sqlite' && location.file !== ':memory:') return resolve(dirname(location.file), 'uploads');
  return resolve(DEFAULT_UPLOADS_DIR);
}

/** An image the server will not take: its bytes are not one of the accepted formats, or cannot be read. */
export class ImageRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageRefused';
  }
}

/** The formats taken, as sharp names them (AVIF is HEIF with AV1 inside). */
type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif';

/**
 * The format the first bytes of a file announce, by their signatures: JPEG (`FF D8 FF`), PNG (its
 * 8-byte signature), GIF (`GIF87a`, `GIF89a`), WebP (`RIFF` … `WEBP`), AVIF (an ISO-BMFF `ftyp`
 * box naming the brand `avif` or `avis`). Only bytes that pass go to libvips, so its other loaders
 * (SVG, TIFF, PDF, …) never see an upload; text, HTML and SVG fail here.
 */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  const ascii = (start: number, end: number) => Buffer.from(bytes.subarray(start, end)).toString('latin1');
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'png';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (ascii(4, 8) === 'ftyp' && bytes.length >= 16) {
    const boxSize = Math.min(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0), bytes.length, 4096);
    // The major brand (8–12), then the compatible brands (16 to the box's end).
    for (let at = 8; at + 4 <= boxSize; at += at === 8 ? 8 : 4) {
      const brand = ascii(at, at + 4);
      if (brand === 'avif' || brand === 'avis') return 'avif';
    }
  }
  return undefined;
}

/** sharp (libvips, a native library of some MiB), loaded on the first upload: a server that takes none never loads it. */
let sharpModule: Promise<typeof import('sharp')> | undefined;
const loadSharp = async () => (await (sharpModule ??= import('sharp'))).default;

/** One file of an upload: its width in pixels and its WebP bytes. */
export interface ImageFile {
  width: number;
  bytes: Buffer;
}

/** An upload made ready to store: its files and the content hash naming them. */
export interface ProcessedImage {
  kind: PageImageKind;
  /** The format the bytes held (whatever their `Content-Type` said). */
  format: ImageFormat;
  /** The first {@link HASH_DIGITS} hex digits of the SHA-256 of the kind and every file (width and bytes). */
  hash: string;
  /** Narrowest first. */
  files: ImageFile[];
}

/**
 * The widths a cover is made at: {@link COVER_IMAGE_WIDTHS} up to the image's own width (never
 * upscaled); an image narrower than the narrowest, at its own width alone.
 */
export function coverWidths(width: number): number[] {
  const widths = COVER_IMAGE_WIDTHS.filter((candidate) => candidate <= width);
  return widths.length > 0 ? widths : [width];
}

/**
 * Checks an uploaded image by its content and re-encodes it to WebP (docs/decisions/021
 * "Uploads"): the bytes must be JPEG, PNG, WebP, AVIF or GIF ({@link sniffImageFormat}, then
 * sharp's own reading of them must agree) of at most {@link MAX_PAGE_IMAGE_PIXELS}; an animated
 * image keeps its first frame; EXIF orientation is applied, then every metadata (EXIF, XMP, ICC:
 * colours are converted to sRGB) is dropped. A cover becomes one file per {@link coverWidths}
 * (quality 72, as the default page's covers); a logo one file {@link LOGO_HEIGHT_PX} × 2 high, at
 * most {@link LOGO_MAX_WIDTH_PX} wide, never upscaled (quality 90, its edges stay crisp). sharp
 * runs in libuv's thread pool: the event loop only waits.
 * @throws ImageRefused for bytes of another format, a truncated or corrupt image, or one of too many pixels.
 */
export async function processImage(bytes: Buffer, kind: PageImageKind): Promise<ProcessedImage> {
  const format = sniffImageFormat(bytes);
  if (!format) throw new ImageRefused('The file is not a JPEG, PNG, WebP, AVIF or GIF image.');
  const sharp = await loadSharp();
  // failOn 'error': a truncated or corrupt image is refused (a mere warning, as many cameras' files raise, is not).
  const input = () => sharp(bytes, { limitInputPixels: MAX_PAGE_IMAGE_PIXELS, failOn: 'error', animated: false, autoOrient: true });
  let metadata: Metadata;
  try {
    metadata = await input().metadata();
  } catch (error) {
    throw refusal(error);
  }
  const read = metadata.format === 'heif' ? (metadata.compression === 'av1' ? 'avif' : 'heif') : metadata.format;
  if (read !== format) throw new ImageRefused(`The file starts as ${format.toUpperCase()} but is not a readable ${format.toUpperCase()} image.`);
  const { width, height } = metadata.autoOrient;
  if (width * height > MAX_PAGE_IMAGE_PIXELS) {
    throw new ImageRefused(`The image is ${width} × ${height} pixels: at most ${MAX_PAGE_IMAGE_PIXELS / 1_000_000} megapixels are taken.`);
  }
  let files: ImageFile[];
  try {
    if (kind === 'cover') {
      const widths = coverWidths(width);
      const widest = widths.at(-1)!;
      if (Math.round((height * widest) / width) > MAX_WEBP_SIDE) {
        // Said in whole pixels of the image sent (a ratio such as 8191.5 helps no one crop).
        const fits = Math.floor((MAX_WEBP_SIDE * width) / widest);
        throw new ImageRefused(
          `The image is ${width} × ${height} pixels, too tall for a cover: its ${widest}-pixel-wide file would be ${Math.round((height * widest) / width)} pixels high, and a WebP image is at most ${MAX_WEBP_SIDE}. Crop it to at most ${fits} pixels high.`,
        );
      }
      // Decoded once, at the widest width; each file is made from those pixels, one after another.
      const { data, info } = await input().resize({ width: widest }).raw().toBuffer({ resolveWithObject: true });
      const raw = { width: info.width, height: info.height, channels: info.channels };
      files = [];
      for (const target of widths) {
        const encoded = await sharp(data, { raw }).resize({ width: target }).webp({ quality: 72, preset: 'picture' }).toBuffer({ resolveWithObject: true });
        files.push({ width: encoded.info.width, bytes: encoded.data });
      }
    } else {
      const { data, info } = await input()
        .resize({ height: LOGO_HEIGHT_PX * 2, width: LOGO_MAX_WIDTH_PX, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 90, alphaQuality: 100 })
        .toBuffer({ resolveWithObject: true });
      files = [{ width: info.width, bytes: data }];
    }
  } catch (error) {
    throw error instanceof ImageRefused ? error : refusal(error);
  }
  const hash = createHash('sha256').update(kind);
  for (const file of files) hash.update(`\n${file.width}\n`).update(file.bytes);
  return { kind, format, hash: hash.digest('hex').slice(0, HASH_DIGITS), files };
}

/** sharp's failure to read an upload as what the client should be told. */
function refusal(error: unknown): ImageRefused {
  const message = error instanceof Error ? error.message : '';
  if (/pixel limit/i.test(message)) return new ImageRefused(`The image has more than ${MAX_PAGE_IMAGE_PIXELS / 1_000_000} megapixels.`);
  return new ImageRefused('The image cannot be read: it is truncated or corrupt.');
}

/** A file's name in the uploads directory. */
export const uploadFileName = (hash: string, width: number) => `${hash}-${width}.webp`;

/**
 * What an upload answers, in the shape the configuration takes: a cover, `{ src, srcset }` (a
 * `CoverImage`: `src` the widest file, `srcset` each file with its width); a logo, `{ src }` (the
 * configuration's `logo` is one URL).
 */
export function pageImageOf(image: ProcessedImage): PageImage {
  const path = (file: ImageFile) => `${UPLOADS_PATH}${uploadFileName(image.hash, file.width)}`;
  const widest = image.files.at(-1)!;
  if (image.kind === 'logo') return { src: path(widest) };
  return { src: path(widest), srcset: image.files.map((file) => `${path(file)} ${file.width}w`).join(', ') };
}

/**
 * How many uploads are processed at once (`running`, default 2: one core of two left to the
 * submits), how many may wait for their turn (`waiting`, default 8; more get 503 at once) and for
 * how long (`waitMs`, default 10 000 ms; past it, 503 with Retry-After).
 */
export type UploadLimits = TurnLimits;

/** The default {@link UploadLimits}. */
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { running: 2, waiting: 8, waitMs: 10_000 };

/**
 * Turns to process uploads ({@link Turns}): at most `limits.running` at a time,
 * `limits.waiting` more waiting first come first served, each at most `limits.waitMs`. sharp
 * already decodes off the event loop, in libuv's thread pool, but that pool is shared (file reads,
 * scrypt at sign-in, DNS): bounding the uploads keeps submits and sign-ins from queueing behind a
 * burst of large images. Uploads are also admitted before their bodies are read ({@link admit}).
 */
export class UploadTurns extends Turns {
  private admitted = 0;

  /** Uploads processing and waiting now, and uploads admitted (their bodies arriving, waiting or processing). */
  get load() {
    return { ...this.counts, admitted: this.admitted };
  }

  /**
   * Admits an upload before its body is read: at most `limits.running + limits.waiting` at a
   * time, from the first byte of their bodies to their answers, so a burst of uploads is refused
   * before their bytes are read and kept (10 MiB each), not after.
   * @returns a pass to give back when the upload is answered (once; again is nothing); `'busy'`
   *   when that many are admitted already.
   */
  admit(): { leave: () => void } | 'busy' {
    if (this.admitted >= this.limits.running + this.limits.waiting) return 'busy';
    this.admitted += 1;
    let left = false;
    return {
      leave: () => {
        if (left) return;
        left = true;
        this.admitted -= 1;
      },
    };
  }
}

/**
 * Writes `bytes` to `path` atomically: a temporary file beside it (a dot name, never served),
 * flushed to disk, then renamed over the name, so a reader sees the whole file or none.
 */
async function writeAtomically(path: string, bytes: Buffer): Promise<void> {
  const temporary = join(dirname(path), `.upload-${randomBytes(8).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, 'wx', 0o644);
    try {
      await handle.writeFile(bytes);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** The uploads directory and its turns (the `uploads` decorator). */
export class UploadStore {
  readonly turns: UploadTurns;

  constructor(
    /** The directory, absolute. */
    readonly dir: string,
    limits: UploadLimits,
  ) {
    this.turns = new UploadTurns(limits);
  }

  /**
   * Stores an upload's files under their content-hash names; a file already there (the same image
   * uploaded again) is kept as it is. Creates the directory on first use.
   */
  async save(image: ProcessedImage): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o755 });
    for (const file of image.files) {
      const path = join(this.dir, uploadFileName(image.hash, file.width));
      const exists = await stat(path).then(
        () => true,
        () => false,
      );
      // A file there already is marked as new again: `pruneUploads` keeps it for its grace period.
      if (exists) await utimes(path, new Date(), new Date());
      else await writeAtomically(path, file.bytes);
    }
  }
}

/** A reference to an uploaded file in configuration text (`/uploads/{hash}-{width}.webp`, a path or a URL): its content hash. */
const UPLOAD_REFERENCE = /\/uploads\/([0-9a-f]{16})-[1-9][0-9]{0,4}\.webp/g;

/** A temporary file of {@link writeAtomically} (left behind only by a crash). */
const TEMPORARY_FILE = /^\.upload-[0-9a-f]{16}\.tmp$/;

/**
 * The content hashes of the uploads `text` names (configuration JSON: a draft, a published
 * version, a page's file). Every width of a hash named is kept: a page names one in `src` and may
 * name others in `srcset`.
 */
export function uploadHashesIn(text: string): string[] {
  return [...text.matchAll(UPLOAD_REFERENCE)].map((match) => match[1]!);
}

/**
 * Deletes the uploads no page names any more (`npm run admin -- prune-uploads`): the
 * files in `dir` whose content hash is not in `named` and that were last written or uploaded
 * again more than `olderThanMs` ago (an image just uploaded is named by the draft only once the
 * builder's autosave lands), and temporary files as old. Files of any other name are left alone.
 * @param named - the content hashes that drafts, published versions and the page files name ({@link uploadHashesIn}).
 * @param options.olderThanMs - the grace period, in ms.
 * @param options.now - the time now, in ms since the epoch.
 * @param options.dryRun - list what would be deleted, delete nothing.
 * @returns the names of the files deleted (or that would be), sorted, and how many uploads were kept.
 */
export async function pruneUploads(
  dir: string,
  named: ReadonlySet<string>,
  options: { olderThanMs: number; now?: number; dryRun?: boolean },
): Promise<{ removed: string[]; kept: number }> {
  const cutoff = (options.now ?? Date.now()) - options.olderThanMs;
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const removed: string[] = [];
  let kept = 0;
  for (const name of names.sort()) {
    const upload = UPLOAD_FILE_PATTERN.test(name);
    if (!upload && !TEMPORARY_FILE.test(name)) continue;
    const { mtimeMs } = await stat(join(dir, name));
    if ((upload && named.has(name.slice(0, HASH_DIGITS))) || mtimeMs > cutoff) {
      if (upload) kept += 1;
      continue;
    }
    if (!options.dryRun) await rm(join(dir, name), { force: true });
    removed.push(name);
  }
  return { removed, kept };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Uploaded images: their directory and the turns to process them. */
    uploads: UploadStore;
  }
}

/** What the {@link uploads} plugin is registered with. */
export interface UploadOptions {
  /** The uploads directory ({@link uploadsDirOf}); default {@link DEFAULT_UPLOADS_DIR}. */
  dir?: string | undefined;
  /** What differs from {@link DEFAULT_UPLOAD_LIMITS}. */
  limits?: Partial<UploadLimits> | undefined;
}

/**
 * Uploaded images (docs/decisions/021 "Uploads"): decorates `app.uploads` (the
 * directory, the processing turns) for the upload route (routes/admin/page-images.ts), and serves
 * `GET /uploads/{file}` with @fastify/static: only names of {@link UPLOAD_FILE_PATTERN}, as
 * `image/webp`, cached for a year (`immutable`: a name is its content's hash), `nosniff`, and a
 * policy of their own, `default-src 'none'` (an image needs nothing; a file opened on its own runs
 * nothing). Any other path under `/uploads/` is a 404 problem+json, not the wizard's redirect.
 */
export const uploads = fp(
  async (app: FastifyInstance, options: UploadOptions) => {
    const store = new UploadStore(resolve(options.dir ?? DEFAULT_UPLOADS_DIR), { ...DEFAULT_UPLOAD_LIMITS, ...options.limits });
    app.decorate('uploads', store);
    await app.register(
      async (scope) => {
        scope.setNotFoundHandler((request, reply) => sendProblem(reply, 404, `There is no uploaded file at ${request.url.split('?')[0]}.`));
        await scope.register(fastifyStatic, {
          root: store.dir,
          prefix: '/',
          decorateReply: false,
          index: false,
          // The directory is read on each request: files are added while the server runs.
          wildcard: true,
          dotfiles: 'deny',
          allowedPath: (pathName) => UPLOAD_FILE_PATTERN.test(pathName.slice(1)),
          cacheControl: false,
          lastModified: false,
          acceptRanges: false,
          setHeaders: (response) => {
            response.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
            response.setHeader('Content-Type', 'image/webp');
            response.setHeader('X-Content-Type-Options', 'nosniff');
            response.setHeader('Content-Security-Policy', "default-src 'none'");
          },
        });
      },
      { prefix: UPLOADS_PATH.slice(0, -1) },
    );
  },
  { name: 'uploads' },
);
