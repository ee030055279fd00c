import { constants as zlib } from 'node:zlib';
import type { Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

/**
 * Writes a Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside each built script,
 * style sheet, SVG and JSON file of 1 KiB or more (vite-plugin-compression2), which the server sends
 * as they are to a browser that accepts them (`preCompressed`, src/server/plugins/static-files.ts):
 * compressing the wizard's 230 KB script on every request took ~16 ms of the server's CPU each time
 * (docs/performance.md, "Static files compressed once, at build"), and the build's quality 11 makes
 * smaller files than the 5 a request could afford. The pages' HTML is not among them: it is
 * rendered by its route, never served as a file.
 */
export function precompressed(): Plugin {
  return compression({
    include: /\.(js|css|svg|json)$/,
    threshold: 1024,
    algorithms: [
      defineAlgorithm('brotliCompress', { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } }),
      defineAlgorithm('gzip', { level: zlib.Z_BEST_COMPRESSION }),
    ],
    logLevel: 'silent',
  });
}
