// @vitest-environment node
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * The repository's files one entry module loads, statically or on demand, as the server's and the
 * browser's bundlers follow them (esbuild's metafile; packages left out).
 */
async function loadedFiles(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    jsx: 'automatic',
    loader: { '.css': 'empty' },
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}

/** What the server's rendering of the first step must never load (docs/decisions/018, "The first step's rendering"). */
const BROWSER_ONLY = [
  /^src\/wizard\/services\//, // drafts, analytics, funnel beacons, error reporting, submit
  /^src\/wizard\/engine\/engine\.tsx$/,
  /^src\/wizard\/wizard-engine\.ts$/,
  /^src\/wizard\/blocks\//,
  /^src\/wizard\/preview\//,
];

describe("the server's rendering of the first step", () => {
  it('loads the page and its layout, not the engine, the blocks or the browser services', async () => {
    const files = await loadedFiles('src/server/render-first-step.tsx');
    expect(files).toContain('src/wizard/page.tsx');
    expect(files).toContain('src/wizard/engine/frame.tsx');
    expect(files.filter((file) => BROWSER_ONLY.some((pattern) => pattern.test(file)))).toEqual([]);
  });

  it("finds them in the browser's entry (the check can fail)", async () => {
    const files = await loadedFiles('src/wizard/main.tsx');
    expect(files).toEqual(expect.arrayContaining(['src/wizard/services/drafts.ts', 'src/wizard/services/analytics.ts', 'src/wizard/engine/engine.tsx']));
  });
});
