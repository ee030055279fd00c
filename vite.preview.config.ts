import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { precompressed } from './vite.precompressed.ts';
import { defineConfig, type Plugin } from 'vite';
import { PREVIEW_REPLACEMENTS } from './src/wizard/preview/replaced.ts';

const ROOT = fileURLToPath(new URL('./', import.meta.url));
const PREVIEW = fileURLToPath(new URL('./src/wizard/preview/', import.meta.url));
/** Each module the preview replaces, by its file, and its replacement (src/wizard/preview/replaced.ts). */
const REPLACED = new Map<string, string>(PREVIEW_REPLACEMENTS.map(([replaced, replacement]) => [`${ROOT}${replaced}`, `${ROOT}${replacement}`]));

/**
 * Puts the preview's modules where the wizard's modules import their own (docs/decisions/021
 * "Preview"; src/wizard/preview/replaced.ts: the phone metadata, carried whole). The wizard's
 * services are not replaced here: the preview hands its own to the wizard (`previewServices`). A
 * replacement that imports the real module (to re-export what it keeps) gets it.
 */
function previewReplacements(): Plugin {
  return {
    name: 'preview-replacements',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || importer.startsWith(PREVIEW)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return (resolved && REPLACED.get(resolved.id)) ?? null;
    },
  };
}

/**
 * Builds the live preview into dist/preview/: the real wizard (src/wizard: its engine,
 * blocks and the page's styles, which the preview page links from the public build) with the
 * preview's services (src/wizard/preview/preview-services.ts), the configuration's checks and
 * sanitiser, and the builder's channel. A build
 * of its own, so the public page's bundle holds not a byte of it (its first chunk is at its
 * budget, tests/e2e/bundle-budget.test.ts). `GET /preview/{id}` reads its entry from the manifest
 * (`dist/preview/.vite/manifest.json`).
 */
export default defineConfig({
  root: 'src/wizard',
  base: '/preview/',
  publicDir: false,
  plugins: [previewReplacements(), react(), precompressed()],
  build: {
    outDir: '../../dist/preview',
    emptyOutDir: true,
    assetsDir: 'assets',
    manifest: true,
    modulePreload: { polyfill: false },
    // One file for the team's browser, loaded once per preview: the schema, the sanitiser
    // (sanitize-html with postcss, ~150 KB gzip) and the wizard. No applicant loads it.
    chunkSizeWarningLimit: 1024,
    rolldownOptions: {
      input: { preview: fileURLToPath(new URL('./src/wizard/preview/preview.tsx', import.meta.url)) },
      treeshake: { manualPureFunctions: ['z'] },
    },
  },
});
