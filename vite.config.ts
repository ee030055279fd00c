import react from '@vitejs/plugin-react';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompressed } from './vite.precompressed.ts';
import { defineConfig, runnerImport, type Plugin } from 'vite';

/** The wizard's module, started by the page's first script (`boot.ts`) after the first paint. */
const WIZARD_MODULE = fileURLToPath(new URL('./src/wizard/main.tsx', import.meta.url));

/**
 * Inlines the page's first script (`boot.ts`) into the built page instead of linking
 * it: a script the page must download is a request that a phone's largest paint waits for, and
 * this one has nothing to do before that paint. It is written in with the URLs of the wizard's
 * module and the modules it imports (`__WIZARD_MODULES__`), which it loads after the paint. The
 * server allows it by its hash in the Content Security Policy (`inlineScriptHashes`).
 * @throws Error when the entry module imports anything (it could not run inlined) or its code
 * could end its `<script>` element.
 */
function inlineBoot(): Plugin {
  return {
    name: 'inline-boot',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle, chunk: entry }) {
        if (!bundle || !entry) return;
        if (entry.imports.length > 0 || entry.dynamicImports.length > 0)
          throw new Error(`inline-boot: ${entry.fileName} imports ${[...entry.imports, ...entry.dynamicImports].join(', ')}`);
        const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
        const wizard = chunks.find((chunk) => chunk.facadeModuleId === WIZARD_MODULE);
        if (!wizard) throw new Error('inline-boot: the build has no chunk for src/wizard/main.tsx');
        const modules = [wizard.fileName];
        for (let index = 0; index < modules.length; index++) {
          for (const imported of chunks.find((chunk) => chunk.fileName === modules[index])?.imports ?? [])
            if (!modules.includes(imported)) modules.push(imported);
        }
        const code = entry.code.replaceAll('__WIZARD_MODULES__', JSON.stringify(modules.map((file) => `/${file}`))).trim();
        if (/<\/script|<!--/i.test(code)) throw new Error('inline-boot: the entry module could end its <script> element');
        const tag = `<script type="module" crossorigin src="/${entry.fileName}"></script>`;
        if (!html.includes(tag)) throw new Error(`inline-boot: the page has no ${tag}`);
        delete bundle[entry.fileName];
        return html.replace(tag, '').replace('</body>', () => `<script type="module">${code}</script>\n  </body>`);
      },
    },
  };
}

/**
 * The flags the lists show (flag-icons' SVG files, `src/shared/data/flags.ts`), as
 * files of their own under its `FLAGS_PATH`, so the browser fetches only those a page shows: the
 * build copies the one of each country of the lists (not the package's ~270, nor its CSS) into
 * `dist`, and fails when the package lacks one; the development server serves the same files from
 * the package. The path and the names come from the wizard's own module, loaded through Vite
 * (this file imports nothing of src/).
 * @throws Error at build when flag-icons has no flag for a country of the lists.
 */
function flagIcons(): Plugin {
  const packageRoot = dirname(createRequire(import.meta.url).resolve('flag-icons/package.json'));
  let flags: Promise<{ path: string; folder: string; names: Set<string> }> | undefined;
  const load = () =>
    (flags ??= runnerImport<typeof import('./src/shared/data/flags')>(fileURLToPath(new URL('./src/shared/data/flags.ts', import.meta.url)), {
      configFile: false,
      logLevel: 'warn',
    }).then(({ module }) => ({ path: module.FLAGS_PATH, folder: join(packageRoot, module.FLAG_ICONS_DIR), names: new Set(module.flagFileNames()) })));
  return {
    name: 'flag-icons',
    async configureServer(server) {
      const { path, folder, names } = await load();
      server.middlewares.use(path, (request, response, next) => {
        const name = (request.url ?? '').split('?')[0]!.slice(1);
        if (!names.has(name)) return next();
        response.setHeader('Content-Type', 'image/svg+xml');
        response.end(readFileSync(join(folder, name)));
      });
    },
    async generateBundle() {
      const { path, folder, names } = await load();
      for (const name of names) {
        const file = join(folder, name);
        if (!existsSync(file)) this.error(`flag-icons has no ${file} for a country of the lists (src/shared/data/flags.ts)`);
        this.emitFile({ type: 'asset', fileName: `${path.slice(1)}${name}`, source: readFileSync(file) });
      }
    },
  };
}

/**
 * The phone rule's metadata by calling code (src/shared/phone-metadata.ts, decision 010): the build
 * writes one JSON file per calling code of libphonenumber-js's `min` metadata into `dist` under
 * `PHONE_METADATA_PATH`, which the wizard fetches for the codes an applicant's answers name; the
 * development server serves the same files from the package. The split is the shared module's,
 * loaded through Vite (this file imports nothing of src/).
 * @throws Error at build when the metadata's calling codes are not the ones the wizard knows
 * (`PHONE_METADATA_CODES`: a new release of libphonenumber-js with a code of its own).
 */
function phoneMetadata(): Plugin {
  const source = <T>(file: string) =>
    runnerImport<T>(fileURLToPath(new URL(file, import.meta.url)), { configFile: false, logLevel: 'warn' }).then(({ module }) => module);
  let split: Promise<{ path: string; files: Map<string, string>; unknown: string[] }> | undefined;
  const load = () =>
    (split ??= Promise.all([
      source<typeof import('./src/shared/phone-metadata')>('./src/shared/phone-metadata.ts'),
      source<typeof import('./src/shared/phone-metadata-whole')>('./src/shared/phone-metadata-whole.ts'),
    ]).then(([module, { default: whole }]) => {
      const codes = module.metadataCodes(whole);
      const unknown = [
        ...codes.filter((code) => !module.PHONE_METADATA_CODES.has(code)),
        ...[...module.PHONE_METADATA_CODES].filter((code) => !codes.includes(code)),
      ];
      const files = new Map(codes.map((code) => [`${code}.json`, JSON.stringify(module.phoneMetadataFor(whole, code))]));
      return { path: module.PHONE_METADATA_PATH, files, unknown };
    }));
  return {
    name: 'phone-metadata',
    async configureServer(server) {
      const { path, files } = await load();
      server.middlewares.use(path, (request, response) => {
        const file = files.get((request.url ?? '').split('?')[0]!.slice(1));
        response.statusCode = file === undefined ? 404 : 200;
        response.setHeader('Content-Type', 'application/json');
        response.end(file ?? '{}');
      });
    },
    async generateBundle() {
      const { path, files, unknown } = await load();
      if (unknown.length > 0)
        this.error(`the phone metadata's calling codes and PHONE_METADATA_CODES (src/shared/phone-metadata.ts) differ: ${unknown.join(', ')}`);
      for (const [name, source] of files) this.emitFile({ type: 'asset', fileName: `${path.slice(1)}${name}`, source });
    },
  };
}

/**
 * The hooks of downshift the wizard does not use (`useSelect`, `useTagGroup`: it uses
 * `useCombobox` and `useMultipleSelection`), dropped from the build. downshift's module gives each
 * hook its `stateChangeTypes` by an assignment at its top level, a write the bundler must keep,
 * and with it the whole hook: about 2.7 KB of the applicant's JavaScript (gzip). Those two
 * assignments are taken out of the module as it is bundled; nothing of the wizard reads them.
 * The development server and the tests keep them: the lint forbids the wizard to import them
 * (eslint.config.js), since it would then work everywhere but in production.
 * @throws Error at build when downshift's module no longer has them (a new release: this plugin
 * is then to be looked at again).
 */
function downshiftUnusedHooks(): Plugin {
  const assignments = ['useSelect.stateChangeTypes = stateChangeTypes$3;', '_useTagGroup.stateChangeTypes = stateChangeTypes;'];
  return {
    name: 'downshift-unused-hooks',
    apply: 'build',
    transform: {
      filter: { id: /[\\/]downshift[\\/]dist[\\/]downshift\.esm\.mjs$/ },
      handler(code) {
        const missing = assignments.filter((assignment) => !code.includes(assignment));
        if (missing.length > 0) this.error(`downshift's module no longer assigns ${missing.join(' ')}: see downshiftUnusedHooks in vite.config.ts`);
        return { code: assignments.reduce((text, assignment) => text.replace(assignment, ''), code), map: null };
      },
    },
  };
}

/**
 * `npm run dev` serves the page as the server does: the configuration (`WIZARD_CONFIG`,
 * `config/wizard.json` by default) parsed, its HTML sanitised and inlined, the first step rendered
 * by the server's own `renderPage`, loaded through Vite's dev server in Node — so the browser
 * never sanitises, in development either, and hydrates as in production.
 */
function renderPageInDevelopment(): Plugin {
  return {
    name: 'render-page-in-development',
    apply: 'serve',
    async transformIndexHtml(html, { server }) {
      if (!server) return;
      const load = (file: string) => server.ssrLoadModule(fileURLToPath(new URL(file, import.meta.url)));
      const [{ loadWizardConfig }, { renderPage }] = await Promise.all([load('./src/server/load-config.ts'), load('./src/server/routes/page.ts')]);
      return renderPage(html, loadWizardConfig(process.env.WIZARD_CONFIG ?? 'config/wizard.json')) as string;
    },
  };
}

/**
 * Builds the applicant wizard (src/wizard) into dist/. The server inlines the
 * configuration into dist/index.html when it starts, so the build itself is
 * configuration-free and one build serves every page.
 */
export default defineConfig(({ command }) => ({
  root: 'src/wizard',
  publicDir: '../../public',
  // downshift's prop types, inert in production (src/wizard/prop-types-inert.ts); the development server keeps the package's checks.
  resolve: command === 'build' ? { alias: { 'prop-types': fileURLToPath(new URL('./src/wizard/prop-types-inert.ts', import.meta.url)) } } : {},
  plugins: [react(), inlineBoot(), flagIcons(), phoneMetadata(), downshiftUnusedHooks(), renderPageInDevelopment(), precompressed()],
  // The development server serves the wizard's module as it is (the build writes in the built files).
  define: command === 'serve' ? { __WIZARD_MODULES__: JSON.stringify(['/main.tsx']) } : {},
  build: {
    outDir: '../../dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // Every browser the page supports has modulepreload: no polyfill in the entry module.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // The wizard's module is an entry of its own, imported by URL after the first paint (inlineBoot).
      input: { index: fileURLToPath(new URL('./src/wizard/index.html', import.meta.url)), main: WIZARD_MODULE },
      // …whose export (`startWizard`) is what the first script calls. The chunk may export more
      // (`allow-extension`): what the engine's chunk shares with it (React, the layout) then stays
      // in it, one file compressed as a whole, instead of common chunks beside it — 716 bytes
      // less gzip than React and the shared controls in chunks of their own (the
      // page's first JavaScript no larger than before).
      preserveEntrySignatures: 'allow-extension',
      // zod's builders (`z.strictObject(…)`) only build schemas: the block modules' data schemas
      // (src/shared/blocks), which the wizard never reads, are dropped with zod itself.
      treeshake: { manualPureFunctions: ['z'] },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
}));
