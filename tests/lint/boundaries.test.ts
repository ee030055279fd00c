// @vitest-environment node
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

/** The rules that fire on `code` planted at `file` (a path from the repository's root). */
async function firedRules(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}/${file}` });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

/** Each boundary zone of eslint.config.js, planted: a file inside it importing what it must not. */
const violations: [zone: string, file: string, code: string, rule: string][] = [
  ['shared ← wizard', 'src/shared/planted.ts', "import { Wizard } from '../wizard/engine/wizard';\nexport { Wizard };", 'import-x/no-restricted-paths'],
  ['shared ← server', 'src/shared/planted.ts', "import { buildApp } from '../server/app';\nexport { buildApp };", 'import-x/no-restricted-paths'],
  ['shared ← admin', 'src/shared/planted.ts', "import { api } from '../admin/api';\nexport { api };", 'import-x/no-restricted-paths'],
  ['wizard ← server', 'src/wizard/planted.ts', "import { buildApp } from '../server/app';\nexport { buildApp };", 'import-x/no-restricted-paths'],
  ['wizard ← admin', 'src/wizard/planted.ts', "import { api } from '../admin/api';\nexport { api };", 'import-x/no-restricted-paths'],
  ['admin ← server', 'src/admin/planted.ts', "import { buildApp } from '../server/app';\nexport { buildApp };", 'import-x/no-restricted-paths'],
  ['admin ← wizard', 'src/admin/planted.ts', "import { Wizard } from '../wizard/engine/wizard';\nexport { Wizard };", 'import-x/no-restricted-paths'],
  [
    'server ← wizard beyond its server-rendering entry',
    'src/server/planted.ts',
    "import { Wizard } from '../wizard/engine/wizard';\nexport { Wizard };",
    'import-x/no-restricted-paths',
  ],
  [
    'server ← the wizard page itself',
    'src/server/planted.tsx',
    "import { WizardPage } from '../wizard/page';\nexport { WizardPage };",
    'import-x/no-restricted-paths',
  ],
  ['server ← admin', 'src/server/planted.ts', "import { api } from '../admin/api';\nexport { api };", 'import-x/no-restricted-paths'],
  ['controls ← engine', 'src/wizard/controls/planted.tsx', "import { Wizard } from '../engine/wizard';\nexport { Wizard };", 'import-x/no-restricted-paths'],
  [
    'controls ← blocks',
    'src/wizard/controls/planted.tsx',
    "import { blockRegistry } from '../blocks/registry';\nexport { blockRegistry };",
    'import-x/no-restricted-paths',
  ],
  [
    'controls ← services',
    'src/wizard/controls/planted.tsx',
    "import { submitApplication } from '../services/submit';\nexport { submitApplication };",
    'import-x/no-restricted-paths',
  ],
  ['controls ← admin', 'src/wizard/controls/planted.tsx', "import { api } from '../../admin/api';\nexport { api };", 'import-x/no-restricted-paths'],
  [
    'engine ← blocks',
    'src/wizard/engine/planted.tsx',
    "import { blockRegistry } from '../blocks/registry';\nexport { blockRegistry };",
    'import-x/no-restricted-paths',
  ],
  ['shared ← Node', 'src/shared/planted.ts', "import { readFileSync } from 'node:fs';\nexport { readFileSync };", 'import-x/no-nodejs-modules'],
  ['shared ← the database', 'src/shared/planted.ts', "import { Kysely } from 'kysely';\nexport { Kysely };", 'no-restricted-imports'],
  ['shared ← React', 'src/shared/planted.ts', "import { useState } from 'react';\nexport { useState };", 'no-restricted-imports'],
  ['wizard ← the database', 'src/wizard/planted.ts', "import Database from 'better-sqlite3';\nexport { Database };", 'no-restricted-imports'],
  ['wizard ← Node', 'src/wizard/planted.ts', "import { readFileSync } from 'node:fs';\nexport { readFileSync };", 'import-x/no-nodejs-modules'],
  ['admin ← the server framework', 'src/admin/planted.ts', "import Fastify from 'fastify';\nexport { Fastify };", 'no-restricted-imports'],
  [
    'an inbox component ← the HTTP client',
    'src/admin/planted.tsx',
    "import { api } from './api';\nexport const read = () => api('/tags');",
    'no-restricted-imports',
  ],
  [
    'a builder component ← the HTTP client',
    'src/admin/pages/planted.tsx',
    "import { api } from '../api';\nexport const read = () => api('/pages');",
    'no-restricted-imports',
  ],
  [
    'an inbox component ← the HTTP client by its file name',
    'src/admin/planted.tsx',
    "import { api } from './api.ts';\nexport const read = () => api('/tags');",
    'no-restricted-imports',
  ],
  [
    "a component under a feature's folder ← the HTTP client",
    'src/admin/features/tags/planted.tsx',
    "import { api } from '../../api';\nexport const read = () => api('/tags');",
    'no-restricted-imports',
  ],
  ['an inbox component ← the server framework', 'src/admin/pages/planted.tsx', "import Fastify from 'fastify';\nexport { Fastify };", 'no-restricted-imports'],
  [
    'a feature ← another feature',
    'src/admin/features/tags/planted.ts',
    "import { useApplication } from '../detail/api';\nexport { useApplication };",
    'import-x/no-restricted-paths',
  ],
  [
    "a feature's api module ← a component",
    'src/admin/features/tags/planted.ts',
    "import { BulkActions } from '../../bulk-actions';\nexport { BulkActions };",
    'import-x/no-restricted-paths',
  ],
  ['routes ← SQL', 'src/server/routes/planted.ts', "import { sql } from 'kysely';\nexport { sql };", 'no-restricted-imports'],
  ['plugins ← SQL', 'src/server/plugins/planted.ts', "import Database from 'better-sqlite3';\nexport { Database };", 'no-restricted-imports'],
  [
    'engine ← the chunk that bundles the blocks',
    'src/wizard/engine/planted.tsx',
    "import { blocks } from '../wizard-engine';\nexport { blocks };",
    'import-x/no-restricted-paths',
  ],
  [
    'controls ← the engine chunk',
    'src/wizard/controls/planted.tsx',
    "import { Engine } from '../wizard-engine';\nexport { Engine };",
    'import-x/no-restricted-paths',
  ],
  ['controls ← the page', 'src/wizard/controls/planted.tsx', "import { WizardPage } from '../page';\nexport { WizardPage };", 'import-x/no-restricted-paths'],
  [
    'routes ← a store connection',
    'src/server/routes/planted.ts',
    "import { openConnection } from '../store/connection';\nexport { openConnection };",
    'import-x/no-restricted-paths',
  ],
  [
    'routes ← a SQLite file',
    'src/server/routes/planted.ts',
    "import { openDurableDatabase } from '../store/sqlite-file';\nexport { openDurableDatabase };",
    'import-x/no-restricted-paths',
  ],
  ['plugins ← another driver', 'src/server/plugins/planted.ts', "import Pool from 'pg-pool';\nexport { Pool };", 'no-restricted-imports'],
  ['shared ← Node globals', 'src/shared/planted.ts', 'export const secret = process.env.SECRET ?? Buffer.from("x").toString();', 'no-restricted-globals'],
  ['shared ← Node, in JavaScript', 'src/shared/planted.js', "import { readFileSync } from 'node:fs';\nexport { readFileSync };", 'import-x/no-nodejs-modules'],
  // src/shared/config.ts imports ./zod: zod.ts importing config back closes a cycle.
  ['an import cycle', 'src/shared/zod.ts', "import { parseWizardConfig } from './config';\nexport { parseWizardConfig };", 'import-x/no-cycle'],
];

describe('import boundaries (eslint.config.js)', () => {
  it.each(violations)('catches %s', async (_zone, file, code, rule) => {
    expect(await firedRules(file, code)).toContain(rule);
  });

  it("lets the server render the first step through the wizard's entry for it, and each part import src/shared", async () => {
    expect(await firedRules('src/server/planted.ts', "import { renderFirstStep } from '../wizard/render-first-step';\nexport { renderFirstStep };")).toEqual(
      [],
    );
    expect(await firedRules('src/server/routes/planted.ts', "import type { Store } from '../store/store';\nexport type { Store };")).toEqual([]);
    expect(await firedRules('src/wizard/engine/planted.tsx', "import { submitUrl } from '../services/submit';\nexport { submitUrl };")).toEqual([]);
    // An inbox component: its feature's hooks, and the client's error type and query strings.
    expect(
      await firedRules(
        'src/admin/planted.tsx',
        "import { ApiError, queryString } from './api';\nimport { useTags } from './features/tags/api';\nexport { ApiError, queryString, useTags };",
      ),
    ).toEqual([]);
    expect(
      await firedRules(
        'src/admin/features/planted/api.ts',
        "import { api } from '../../api';\nimport { applicationKey, applicationPath } from '../keys';\nexport { api, applicationKey, applicationPath };",
      ),
    ).toEqual([]);
    for (const part of ['wizard', 'admin', 'server']) {
      expect(await firedRules(`src/${part}/planted.ts`, "import { parseWizardConfig } from '../shared/config';\nexport { parseWizardConfig };")).toEqual([]);
    }
  });
});
