// @vitest-environment node
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceModules } from '../support/source-modules';

// src in one direction (decision 018, "The house"): in src/shared the condition and validator
// primitives below the blocks, the blocks (and their `Block` union) below the configuration's
// schema, the semantic checks above that, the parser at the top; the wizard's page below its
// services' type, the engine below both. ESLint's `import-x/no-cycle` holds the JavaScript's
// imports; it skips type-only ones, which had tied sixteen modules of src/shared into one circle
// (blocks ⇄ config), and the wizard's boot and entry into another. This test follows every import
// of src, types included.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The project's compiler options (tsconfig.json), for resolving imports as TypeScript does. */
const COMPILER_OPTIONS = ts.parseJsonConfigFileContent(ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config, ts.sys, ROOT).options;

/** The module specifiers of a source file: imports and exports (`import type`, `export * as`), `import x = require()`, `import()` and `import('…')` types. */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      found.push(node.moduleSpecifier.text);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression))
      found.push(node.moduleReference.expression.text);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal))
      found.push(node.argument.literal.text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0]))
      found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Each module's relative imports, resolved to files as TypeScript resolves them (extensions,
 * `.js` for `.ts`, folders' index files).
 * @throws Error naming a relative import that resolves to no file: a lint that missed it would pass.
 */
function importGraph(files: string[], options: ts.CompilerOptions = COMPILER_OPTIONS): Map<string, string[]> {
  return new Map(
    files.map((file) => {
      const targets = specifiers(file)
        // Styles and assets (`./styles.css`, `./logo.svg?url`) are no modules of the graph.
        .filter((specifier) => specifier.startsWith('.') && !/\.(?:css|svg|png|webp|woff2)(?:\?.*)?$|\?/.test(specifier))
        .flatMap((specifier) => {
          const resolved = ts.resolveModuleName(specifier, file, options, ts.sys).resolvedModule?.resolvedFileName;
          if (!resolved) throw new Error(`${file}: "${specifier}" resolves to no file`);
          return /\.(json|css)$/.test(resolved) ? [] : [resolve(resolved)];
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

describe('src in one direction', () => {
  it('src/shared has no import circle, type-only imports counted', () => {
    const shared = join(ROOT, 'src/shared');
    const found = circles(importGraph(sourceModules(shared))).map((circle) => circle.map((file) => relative(shared, file)).sort());
    expect(found).toEqual([]);
  });

  it('nor has the rest of src: the wizard, the inbox, the server', () => {
    const src = join(ROOT, 'src');
    const found = circles(importGraph(sourceModules(src))).map((circle) => circle.map((file) => relative(src, file)).sort());
    expect(found).toEqual([]);
  });

  it('finds a circle through each kind of import: a type-only one, `export * as`, a `.js` path, a folder index.tsx, `import()` types', () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-cycles-'));
    try {
      const write = (path: string, text: string) => {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      write('a.ts', "import type { B } from './b';\nexport type A = B;\n");
      write('b.ts', "export * as c from './c.js';\nexport type B = string;\n");
      write('c.ts', "export type C = import('./d').D;\n");
      write('d/index.tsx', "import type { A } from '../a';\nexport type D = A;\n");
      write('e.ts', 'export const e = 1;\n');
      const planted = ['a.ts', 'b.ts', 'c.ts', 'd/index.tsx', 'e.ts'].map((path) => join(dir, path));
      const options = { ...COMPILER_OPTIONS, rootDir: dir, baseUrl: undefined, paths: undefined };
      expect(circles(importGraph(planted, options)).map((circle) => circle.map((file) => relative(dir, file)).sort())).toEqual([
        ['a.ts', 'b.ts', 'c.ts', 'd/index.tsx'],
      ]);
      write('e.ts', "import { gone } from './gone';\nexport const e = gone;\n");
      expect(() => importGraph(planted, options)).toThrow('"./gone" resolves to no file');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
