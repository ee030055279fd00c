// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BLOCK_COMPONENTS, ConditionSchema, FormItemSchema, StepSchema, VALIDATOR_NAMES, WizardConfigSchema } from '../src/shared/config';
import { DEFAULT_MESSAGES } from '../src/shared/messages';
import { PLATFORM_NAMES } from '../src/shared/platforms';

// The configuration guide cannot drift from the schema: every name the schema accepts is documented.
const doc = readFileSync(new URL('../docs/configuration.md', import.meta.url), 'utf8');
const documented = (name: string) => doc.includes(`\`${name}\``);

describe('docs/configuration.md', () => {
  it.each([
    ['top-level keys', Object.keys(WizardConfigSchema.shape)],
    ['step keys', Object.keys(StepSchema.shape)],
    ['form item keys', Object.keys(FormItemSchema.shape)],
    ['condition tests', Object.keys(ConditionSchema.shape)],
    ['validators', [...VALIDATOR_NAMES]],
    ['platforms', [...PLATFORM_NAMES]],
    ['message keys', Object.keys(DEFAULT_MESSAGES)],
  ])('documents every one of the %s', (_kind, names) => {
    expect(names.filter((name) => !documented(name))).toEqual([]);
  });

  it('has a section and an example for every block component', () => {
    for (const component of BLOCK_COMPONENTS) {
      expect(doc).toContain(`### \`${component}\``);
      expect(doc).toContain(`"component": "${component}"`);
    }
  });
});
