// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The repository speaks for itself: code, tests and docs cite only documents it holds — the
// numbered sections of docs/requirements.md, the decisions in docs/decisions/ — never a
// specification, design document or issue tracker kept elsewhere.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The repository's tracked text files (paths from its root). */
function trackedTextFiles(): string[] {
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
  return files.filter((file) => /\.(ts|tsx|js|mjs|cjs|md|json|css|html|yml|yaml|sh)$|^\.ci\/run$|Dockerfile$/.test(file) && existsSync(join(ROOT, file)));
}

/** Where `pattern` occurs in the tracked text files, as `file:line: text`; this file excepted. */
function occurrences(pattern: RegExp): string[] {
  const found: string[] = [];
  for (const file of trackedTextFiles()) {
    if (file === 'tests/lint/references.test.ts') continue;
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (pattern.test(line)) found.push(`${file}:${index + 1}: ${line.trim().slice(0, 120)}`);
      });
  }
  return found;
}

/** The section numbers docs/requirements.md has (`## 5.` is 5). */
function requirementSections(): Set<number> {
  const text = readFileSync(join(ROOT, 'docs/requirements.md'), 'utf8');
  return new Set([...text.matchAll(/^## (\d+)\./gm)].map((match) => Number(match[1])));
}

describe('references', () => {
  it('cite no document kept outside the repository (a specification, a design file, a sibling folder)', () => {
    expect(occurrences(/\b(SPEC|DESIGN|STYLE)\b(?!_)|\.\.\/shared\/[A-Z]/)).toEqual([]);
  });

  it('cite no issue tracker numbers (the repository speaks for itself)', () => {
    expect(occurrences(/\bissues? #?\d+/i)).toEqual([]);
  });

  it('cite sections docs/requirements.md has', () => {
    const sections = requirementSections();
    // "Requirements §17" at a sentence's start too.
    const missing = occurrences(/requirements(\.md)? §\d+/i).filter((hit) =>
      [...hit.matchAll(/requirements(?:\.md)? §(\d+)/gi)].some((match) => !sections.has(Number(match[1]))),
    );
    expect(missing).toEqual([]);
  });

  it('link, in the docs, only to files the repository has', () => {
    const broken: string[] = [];
    for (const file of trackedTextFiles().filter((name) => name.endsWith('.md'))) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1]!.split('#')[0]!;
        if (target === '' || /^[a-z]+:/i.test(target)) continue;
        if (!existsSync(join(ROOT, dirname(file), decodeURIComponent(target)))) broken.push(`${file}: ${match[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
