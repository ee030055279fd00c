import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BLOCK_COMPONENTS, BlockSchema } from '../config';
import { BLOCK_SCHEMAS, blockDefinition } from '.';

/** Every source file of the product under src/, tests left out. */
function sources(dir = 'src'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Code without its comments, so a name quoted in documentation does not count as a second definition. */
function code(path: string): string {
  return readFileSync(path, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
}

/**
 * Names, texts and limits that more than one place needs, each with the one module that may write
 * it (decision 015): everything else imports it from there.
 */
const OWNED: [string, RegExp, string][] = [
  ['the agreement flag', /['"`](?:fields\.)?agreement['"`]/, 'src/shared/blocks/checkbox.ts'],
  ['the platform-filled flag', /['"`]platformFilled['"`]/, 'src/shared/blocks/platforms.ts'],
  [
    'personal-info paths read elsewhere',
    /['"`]personalInfo\.(?:countryCode|provinceCode|emailAddress|phone(?:\.countryCode|\.subscriber)?)['"`]/,
    'src/shared/blocks/personal-info.ts',
  ],
  ['the countries with provinces', /\[\s*'US',\s*'CA'\s*\]/, 'src/shared/blocks/personal-info.ts'],
  ["the select's placeholder", /Select Option/, 'src/shared/messages.ts'],
  ['the URL limit', /\b2048\b/, 'src/shared/rules.ts'],
  ['the ZIP limit', /(?:zip|ZIP)[^\n]*\b20\b|\b20\b[^\n]*(?:zip|ZIP)/, 'src/shared/rules.ts'],
  ['the maxLength message', /Use at most/, 'src/shared/messages.ts'],
];

describe('one place per block and per name', () => {
  it.each(OWNED)('%s is written only in its own module', (_what, pattern, owner) => {
    const others = sources().filter((path) => path !== owner && pattern.test(code(path)));
    expect(others).toEqual([]);
  });

  it('every block component of the configuration schema has its shared definition, and only those', () => {
    expect(BlockSchema.def.options).toEqual([...BLOCK_SCHEMAS]);
    for (const component of BLOCK_COMPONENTS) {
      const definition = blockDefinition({ component } as never);
      expect(definition, component).toMatchObject({ fields: expect.any(Function), targets: expect.any(Function), answers: expect.any(Function) });
    }
  });

  it('no module but the blocks\u2019 own switches on a block component', () => {
    const switching = sources().filter((path) => /case '(?:personalInfo|platforms|select|yesNo|textField|checkbox|html)':/.test(code(path)));
    expect(switching).toEqual([]);
  });
});
