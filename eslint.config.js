import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Import direction (STYLE.md): shared ← wizard, shared ← server; controls know no engine or blocks. */
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'node_modules/**', 'data/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/wizard/**/*.{ts,tsx}', 'src/admin/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  { files: ['src/shared/**'], rules: restrict(['**/wizard/**', '**/admin/**', '**/server/**', 'react', 'react-dom', 'fastify']) },
  { files: ['src/wizard/**'], rules: restrict(['**/server/**', '**/admin/**']) },
  // The inbox is a front end of its own: it shares only src/shared with the wizard and the server.
  { files: ['src/admin/**'], rules: restrict(['**/server/**', '**/wizard/**']) },
  { files: ['src/server/**'], ignores: ['src/server/render-first-step.{tsx,test.ts}'], rules: restrict(['**/wizard/**', '**/admin/**']) },
  // Server rendering of the first step (issue 12) renders the wizard's page (src/wizard/page.tsx),
  // and its test hydrates it: nothing else of the wizard.
  { files: ['src/server/render-first-step.{tsx,test.ts}'], rules: restrict(['**/admin/**', '**/wizard/engine/**', '**/wizard/blocks/**', '**/wizard/services/**']) },
  { files: ['src/wizard/controls/**'], rules: restrict(['**/engine/**', '**/blocks/**', '**/server/**']) },
);
