import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceModules } from '../../../tests/support/source-modules';
import { PREVIEW_REPLACEMENTS } from './replaced';

const ROOT = resolve(__dirname, '../../..');

/** The names each module imports from `target` (a path from the root), with `import { … } from '…'`. */
function namesImported(target: string): Set<string> {
  const names = new Set<string>();
  // The public wizard's modules and src/shared's: what imports the replaced modules.
  const preview = join(ROOT, 'src/wizard/preview');
  const files = [...sourceModules(join(ROOT, 'src/wizard')), ...sourceModules(join(ROOT, 'src/shared'))].filter((file) => !file.startsWith(`${preview}/`));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(\.[^']+)'/g)) {
      const resolved = relative(ROOT, resolve(dirname(file), match[2]!));
      if (`${resolved}.ts` !== target && resolved !== target) continue;
      for (const part of match[1]!.split(',')) {
        const name = part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!;
        if (name) names.add(name);
      }
    }
  }
  return names;
}

describe("the live preview's replaced modules", () => {
  it.each(PREVIEW_REPLACEMENTS)('%s: says so in its first line, and its replacement exports what the wizard imports of it', async (replaced, replacement) => {
    const firstLine = readFileSync(join(ROOT, replaced), 'utf8').split('\n')[0];
    expect(firstLine).toContain(replacement);
    const exported = Object.keys((await import(/* @vite-ignore */ join(ROOT, replacement))) as object);
    const imported = [...namesImported(replaced)];
    expect(imported.length).toBeGreaterThan(0);
    // Type-only names leave nothing at run time: only the values are held to the replacement.
    const values = Object.keys((await import(/* @vite-ignore */ join(ROOT, replaced))) as object);
    expect(imported.filter((name) => values.includes(name) && !exported.includes(name))).toEqual([]);
  });
});
