import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import eslintConfigPrettier from 'eslint-config-prettier/flat';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The import boundaries (docs/decisions/018), one list for the whole source tree, so no block's
 * options replace another's: shared ← wizard, shared ← server, shared ← admin (shared imports
 * none of them); the wizard and the inbox are front ends of their own; the server renders only
 * the wizard's page; controls know no engine, blocks, services or inbox; the engine knows no
 * block (the registry is passed in). `tests/lint/boundaries.test.ts` plants a violation of each zone.
 */
const BOUNDARY_ZONES = [
  {
    target: './src/shared',
    from: ['./src/wizard', './src/server', './src/admin'],
    message: 'src/shared is read by wizard, server and inbox; it imports none of them.',
  },
  { target: './src/wizard', from: ['./src/server', './src/admin'], message: 'The wizard shares only src/shared with the server and the inbox.' },
  { target: './src/admin', from: ['./src/server', './src/wizard'], message: 'The inbox shares only src/shared with the server and the wizard.' },
  {
    target: './src/server',
    from: ['./src/wizard', './src/admin'],
    // Server rendering of the first step goes through the wizard's one entry for it, and nothing else of it.
    except: ['./render-first-step.tsx'],
    message: 'The server shares only src/shared with the front ends (and renders the first step through src/wizard/render-first-step.tsx).',
  },
  {
    target: './src/wizard/controls',
    from: ['./src/wizard', './src/admin'],
    except: ['./controls'],
    message: 'Controls are plain inputs: they know no engine, block, service, page or inbox.',
  },
  {
    target: './src/wizard/engine',
    from: ['./src/wizard'],
    // Services and controls, yes; blocks, the page and the chunk that bundles the blocks, no.
    except: ['./engine', './services', './controls'],
    message: 'The engine is given the block registry; it imports no block.',
  },
  {
    target: ['./src/server/routes', './src/server/plugins'],
    from: ['./src/server/store'],
    // The store and its repositories, their row types and their error kinds; no connection, writer or migration.
    except: [
      './store.ts',
      './applications.ts',
      './users.ts',
      './team.ts',
      './audit.ts',
      './funnel.ts',
      './notes.ts',
      './tags.ts',
      './pages.ts',
      './secrets.ts',
      './inbox-rows.ts',
      './schema.ts',
      './errors.ts',
    ],
    message: 'Routes and plugins reach the database through the store and its repositories, never SQL.',
  },
  {
    // The inbox's data layer (each feature's api module) sits below its components: it imports the
    // HTTP client and other features' api modules, no component.
    target: './src/admin/features',
    from: './src/admin',
    except: ['./features', './api.ts'],
    message: "A feature's api module (calls, query keys, hooks) imports no component of the inbox.",
  },
  // Features apart: each imports the HTTP client and what they share (features/keys.ts), never
  // another feature (bulletproof-react's rule). One zone per folder under src/admin/features.
  ...readdirSync(new URL('./src/admin/features', import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map(({ name }) => ({
      target: `./src/admin/features/${name}`,
      from: './src/admin/features',
      except: [`./${name}`, './keys.ts'],
      message: 'A feature of the inbox imports no other feature: what several need is in src/admin/features/keys.ts.',
    })),
];

/** Database drivers and query builders. */
const SQL_PACKAGES = ['kysely', 'pg', 'pg-*', 'better-sqlite3', 'sqlite3', 'node:sqlite'];
/** What runs in a browser, or is shared with one, never imports Node or a database. */
const SERVER_ONLY_PACKAGES = [...SQL_PACKAGES, 'fastify', 'fastify-*', '@fastify/*', 'tsx'];
/** Code that runs in the browser, or is shared with it (tests aside). */
const BROWSER_CODE = ['src/shared/**/*.{ts,tsx,js,jsx,mjs,cjs}', 'src/wizard/**/*.{ts,tsx,js,jsx,mjs,cjs}', 'src/admin/**/*.{ts,tsx,js,jsx,mjs,cjs}'];
const TESTS = ['**/*.test.{ts,tsx}'];

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'node_modules/**', 'data/**', 'test-results/**', '.bench-cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Node's globals (process, Buffer) only where Node runs: not in browser code.
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    ignores: BROWSER_CODE,
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: BROWSER_CODE,
    ignores: TESTS,
    languageOptions: { globals: globals.browser },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // TypeScript sees @types/node everywhere, and typescript-eslint turns no-undef off: named here.
      'no-restricted-globals': [
        'error',
        ...['process', 'Buffer', 'global', 'require', 'module', '__dirname', '__filename', 'setImmediate'].map((name) => ({
          name,
          message: 'A Node global: not in browser code.',
        })),
      ],
    },
  },
  {
    files: TESTS,
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: { '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }] },
  },
  {
    files: ['src/wizard/**/*.{ts,tsx}', 'src/admin/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['src/**/*.{ts,tsx,mts,mjs,js,jsx,cjs}', 'scripts/**/*.ts', 'bench/**/*.ts', 'tests/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // TypeScript modules are parsed as TypeScript when a rule follows an import (no-cycle reads
      // the whole graph): without these, it could read none of them and found no cycle at all.
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: BOUNDARY_ZONES }],
      // Zero import cycles. This rule cannot count type-only imports (erased from the JavaScript);
      // tests/lint/import-cycles.test.ts follows every import of src, types included.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: BROWSER_CODE,
    ignores: TESTS,
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-nodejs-modules': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: SERVER_ONLY_PACKAGES, message: 'Server-only package: not in src/shared or a front end.' }],
          // The wizard's build leaves these out (downshiftUnusedHooks, vite.config.ts): used, they would break in production only.
          paths: [
            {
              name: 'downshift',
              importNames: ['useSelect', 'useTagGroup'],
              message: "The wizard's build leaves downshift's useSelect and useTagGroup out (vite.config.ts).",
            },
          ],
        },
      ],
    },
  },
  {
    // The inbox's components call their feature's hooks (src/admin/features/*/api.ts), never the
    // HTTP client itself: each call, its query key and what its change makes stale live in one place.
    files: ['src/admin/**/*.{ts,tsx}'],
    ignores: [...TESTS, 'src/admin/features/*/api.ts', 'src/admin/features/keys.ts', 'src/admin/api.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: SERVER_ONLY_PACKAGES, message: 'Server-only package: not in src/shared or a front end.' },
            {
              group: ['**/api', '**/api.ts', '**/api.js', '!**/features/*/api', '!**/features/*/api.ts', '!**/features/*/api.js'],
              importNames: ['api'],
              message: "Components call their feature's hooks (src/admin/features/*/api.ts), not the HTTP client.",
            },
          ],
        },
      ],
    },
  },
  {
    // Routes never touch SQL: they call the store's repositories (src/server/store).
    files: ['src/server/routes/**/*.ts', 'src/server/plugins/**/*.ts'],
    ignores: TESTS,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: SQL_PACKAGES, message: 'Routes and plugins reach the database through the store (src/server/store), never SQL.' }] },
      ],
    },
  },
  {
    // src/shared is the one schema: no UI framework either.
    files: ['src/shared/**/*.{ts,tsx,js,jsx,mjs,cjs}'],
    ignores: TESTS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: SERVER_ONLY_PACKAGES, message: 'Server-only package: not in src/shared or a front end.' },
            { group: ['react', 'react-dom', 'react-*'], message: 'src/shared holds no UI.' },
          ],
        },
      ],
    },
  },
  // Layout is Prettier's (npm run format; npm run lint checks it): no rule here argues with it.
  eslintConfigPrettier,
);
