/**
 * Generates config/wizard.schema.json, the JSON Schema of the wizard
 * configuration, from the zod schema (the single source, requirements §14), so editors
 * validate and complete a configuration. Run `npm run generate:schema`; a unit
 * test fails when the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from '../src/shared/zod';
import { WizardConfigSchema } from '../src/shared/config';

/** The generated schema's path. */
export const SCHEMA_PATH = fileURLToPath(new URL('../config/wizard.schema.json', import.meta.url));

/** The JSON Schema text (2-space indented, trailing newline). */
export function renderConfigSchema(): string {
  const schema = withoutUnionTypes(z.toJSONSchema(WizardConfigSchema, { io: 'input', target: 'draft-2020-12' })) as object;
  return `${JSON.stringify({ ...schema, title: 'Wizard configuration', description: 'requirements §3, requirements §14. Generated from src/shared/config.ts by npm run generate:schema.' }, null, 2)}\n`;
}

/**
 * `"type": ["string", "boolean", "number"]` rewritten as `anyOf` of single types, everywhere in a
 * schema: ajv's strict mode (its strictTypes) refuses union types (the published schema
 * compiles under strict mode).
 */
function withoutUnionTypes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutUnionTypes);
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node).map(([key, value]) => [key, withoutUnionTypes(value)] as const);
  const result: Record<string, unknown> = Object.fromEntries(entries);
  if (Array.isArray(result.type)) {
    result.anyOf = (result.type as unknown[]).map((type) => ({ type }));
    delete result.type;
  }
  return result;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(SCHEMA_PATH, renderConfigSchema());
  console.log(`wrote ${SCHEMA_PATH}`);
}
