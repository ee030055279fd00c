import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The built wizard and inbox (`dist/`), each script, style sheet, SVG and JSON file from the
 * build's own compressed copy when the browser accepts Brotli or gzip: their hashed assets, the
 * flags and the phone metadata (whose paths name the flag-icons and libphonenumber-js versions
 * they come from) cached for a year, other files an hour (requirements §13). The pages themselves
 * (`index.html`) are served by their routes, never as files.
 */
export const staticFiles = fp(
  async (app: FastifyInstance, options: { distDir: string }) => {
    // Vite hashes every file name under the wizard's and the inbox's assets/; the flags are under
    // flags/<flag-icons version>/ (src/shared/data/flags.ts), the phone metadata under
    // phone-metadata/<libphonenumber-js version>/ (src/shared/phone-metadata.ts), and a published
    // version never changes.
    const hashedDirs = [
      join(options.distDir, 'assets'),
      join(options.distDir, 'admin', 'assets'),
      join(options.distDir, 'flags'),
      join(options.distDir, 'phone-metadata'),
    ].map((dir) => `${dir}/`);
    await app.register(fastifyStatic, {
      root: options.distDir,
      index: false,
      wildcard: false,
      // The compressed copies are answers to their file's path, not paths of their own.
      allowedPath: (pathName) => pathName !== '/index.html' && pathName !== '/admin/index.html' && !/\.(br|gz)$/.test(pathName),
      cacheControl: false,
      // The build's Brotli and gzip copies (`.br`, `.gz` beside a file: vite.precompressed.ts), sent
      // as they are to a browser that accepts one; a file without one is compressed per request
      // (the compression plugin), as before.
      preCompressed: true,
      // No ranges: a range of a compressed copy is a range of other bytes than the file's, and no
      // hashed script, style sheet, SVG or JSON file is fetched in parts.
      acceptRanges: false,
      setHeaders: (response, filePath) => {
        // Whether the answer is a compressed copy depends on Accept-Encoding: say so to caches.
        response.setHeader('Vary', 'Accept-Encoding');
        response.setHeader(
          'Cache-Control',
          hashedDirs.some((dir) => filePath.startsWith(dir)) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
      },
    });
  },
  { name: 'static-files' },
);
