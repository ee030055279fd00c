// @vitest-environment node
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * What one entry module loads, statically or on demand, as the server's and the browser's bundlers
 * follow it (esbuild's metafile): the repository's files, and the packages it imports.
 */
async function loaded(entry: string): Promise<{ files: string[]; packages: string[] }> {
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
    outdir: 'unwritten',
  });
  const packages = new Set(Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external).map((i) => i.path)));
  return { files: Object.keys(result.metafile.inputs), packages: [...packages].sort() };
}

/**
 * The wizard's modules the server's rendering of the first step may load (docs/decisions/018, "The
 * first step's rendering"): the page, its layout, the step bar, the navigation, the error boundary,
 * the sanitised HTML's element, and the services' type. Nothing else of src/wizard: not the
 * engine, its blocks or controls, the browser services (drafts, analytics, funnel, error reporting,
 * submit) or the preview.
 */
const SERVER_MAY_LOAD = [
  'src/wizard/render-first-step.tsx',
  'src/wizard/page.tsx',
  'src/wizard/engine/wizard.tsx',
  'src/wizard/engine/frame.tsx',
  'src/wizard/engine/step-bar.tsx',
  'src/wizard/engine/navigation.ts',
  'src/wizard/engine/error-boundary.tsx',
  'src/wizard/engine/services.ts',
  'src/wizard/controls/safe-html.tsx',
];
/** The browser-only packages: analytics, error reporting, the form library, the phone library. */
const BROWSER_PACKAGES = /^(?:mixpanel-browser|@sentry\/|react-hook-form|libphonenumber-js|react-dom\/client)/;

describe("the server's rendering of the first step", () => {
  it('loads the page and its layout, not the engine, the blocks, the browser services or their packages', async () => {
    const { files, packages } = await loaded('src/server/render-first-step.tsx');
    expect(files).toEqual(expect.arrayContaining(['src/wizard/page.tsx', 'src/wizard/engine/frame.tsx']));
    expect(files.filter((file) => file.startsWith('src/wizard/') && !SERVER_MAY_LOAD.includes(file))).toEqual([]);
    expect(packages.filter((name) => BROWSER_PACKAGES.test(name))).toEqual([]);
  });

  it("finds them in the browser's entry (the check can fail)", async () => {
    const { files, packages } = await loaded('src/wizard/main.tsx');
    expect(files).toEqual(expect.arrayContaining(['src/wizard/services/drafts.ts', 'src/wizard/services/analytics.ts', 'src/wizard/engine/engine.tsx']));
    expect(packages).toEqual(expect.arrayContaining(['mixpanel-browser/dist/mixpanel-core.cjs', 'react-hook-form']));
  });
});
