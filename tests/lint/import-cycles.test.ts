// @vitest-environment node
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// src/shared in one direction (decision 018, "The house"): the condition and validator
// primitives below the blocks, the blocks (and their `Block` union) below the configuration's
// schema, the semantic checks above that, the parser at the top. ESLint's `import-x/no-cycle`
// holds the JavaScript's imports; it skips type-only ones, which tied fifteen modules into one
// circle (blocks ⇄ config). This test follows every import, types included.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The TypeScript modules under `dir` (tests excluded), by absolute path. */
function modules(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return modules(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Each module's relative imports (`import`, `import type`, `export … from`, `import()`), resolved to files. */
function importGraph(files: string[]): Map<string, string[]> {
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles
        .filter(({ fileName }) => fileName.startsWith('.'))
        .flatMap(({ fileName }) => {
          const base = resolve(dirname(file), fileName);
          const found = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
          return found ? [found] : [];
        });
      return [file, targets];
    }),
  );
}

/** The strongly connected components of more than one module (Tarjan's algorithm): each an import circle. */
function circles(graph: Map<string, string[]>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    order.set(node, order.size);
    low.set(node, order.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, order.get(next)!));
    }
    if (low.get(node) === order.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component);
    }
  };
  for (const node of graph.keys()) if (!order.has(node)) visit(node);
  return found;
}

describe('src/shared in one direction', () => {
  it('has no import circle, type-only imports counted', () => {
    const shared = join(ROOT, 'src/shared');
    const found = circles(importGraph(modules(shared))).map((circle) => circle.map((file) => relative(shared, file)).sort());
    expect(found).toEqual([]);
  });

  it('finds a circle that goes through a type-only import', () => {
    const graph = new Map([
      ['blocks.ts', ['config.ts']],
      ['config.ts', ['blocks.ts', 'zod.ts']],
      ['zod.ts', []],
    ]);
    expect(circles(graph).map((circle) => circle.sort())).toEqual([['blocks.ts', 'config.ts']]);
  });
});
